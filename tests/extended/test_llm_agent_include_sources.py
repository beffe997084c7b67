# Copyright 2026 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""More validation cases for the `LlmAgent.include_sources` field."""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
import pytest


class TestValidation:

  def test_accepts_names_and_keeps_duplicates(self):
    agent = LlmAgent(
        name='agent', include_sources=['user', 'self', 'scout', 'user']
    )

    assert agent.include_sources == ['user', 'self', 'scout', 'user']

  def test_other_types_are_rejected(self):
    with pytest.raises(ValueError, match='list of source names'):
      LlmAgent(name='agent', include_sources={'user': True})

  def test_clone_copies_the_list(self):
    agent = LlmAgent(name='agent', include_sources=['user'])

    clone = agent.clone()

    assert clone.include_sources == ['user']
    assert clone.include_sources is not agent.include_sources
