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

"""Tests of the `LlmAgent.include_sources` setting and its validation."""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
import pytest


def test_defaults_to_none():
  assert LlmAgent(name='agent').include_sources is None


def test_accepts_a_tuple_as_a_list():
  agent = LlmAgent(name='agent', include_sources=('user', 'self'))

  assert agent.include_sources == ['user', 'self']


def test_empty_list_points_to_none():
  with pytest.raises(ValueError, match=r'include_sources=None'):
    LlmAgent(name='agent', include_sources=[])


def test_bare_string_is_not_split_into_letters():
  with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
    LlmAgent(name='agent', include_sources='user')


def test_a_value_that_is_not_a_list_is_refused():
  with pytest.raises(ValueError, match=r"such as \['user', 'self'\]"):
    LlmAgent(name='agent', include_sources={'user': True})


@pytest.mark.parametrize('entry', ['', '   ', 7, None])
def test_entries_must_be_non_empty_strings(entry):
  with pytest.raises(ValueError, match='non-empty strings'):
    LlmAgent(name='agent', include_sources=['user', entry])


def test_unknown_agent_names_are_accepted():
  # The agent is built before the tree it ends up in.
  agent = LlmAgent(name='agent', include_sources=['user', 'scout'])

  assert agent.include_sources == ['user', 'scout']
