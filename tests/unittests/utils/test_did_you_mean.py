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

"""The one "Did you mean ...?" of the messages about a misspelt setting."""

from __future__ import annotations

from google.adk.utils._did_you_mean import closest_match
from google.adk.utils._did_you_mean import did_you_mean
import pytest


def test_a_near_miss_is_proposed_in_one_sentence_before_the_fix():
  assert closest_match('ful', ['hidden', 'minimal', 'full']) == 'full'
  assert did_you_mean('clasifier', ['booker', 'classifier', 'user']) == (
      "Did you mean 'classifier'? "
  )


def test_a_state_key_can_be_shown_as_an_instruction_reads_it():
  assert (
      did_you_mean('ordr', ['order'], shown=lambda key: f'{{{key}}}')
      == 'Did you mean {order}? '
  )


@pytest.mark.parametrize('word', ['xyz', 3, None, ['full']])
def test_nothing_close_or_not_a_string_proposes_nothing(word):
  assert closest_match(word, ['hidden', 'minimal', 'full']) is None
  assert did_you_mean(word, ['hidden', 'minimal', 'full']) == ''
