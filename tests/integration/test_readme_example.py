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

"""The README's first example does what the README says, on the fork and on
pristine upstream 2.13.0.

``_readme_team_worker.py`` executes the README's code block (an LLM-transfer
team: a coordinator, a booker with ``include_sources=['user', 'self']`` and
an info agent) on scripted models over four turns and prints every request
the booker's model received.
"""

from __future__ import annotations

import json
from pathlib import Path
import sys
from typing import Any

from _scripted import worker_json

_WORKER = Path(__file__).resolve().parent / '_readme_team_worker.py'


def _requests(python: str, *variants: str) -> dict[str, Any]:
  return worker_json(python, _WORKER, *variants)


def _lines(contents: list[dict[str, Any]]) -> list[str]:
  lines = []
  for content in contents:
    for part in content.get('parts', []):
      if 'text' in part:
        lines.append(f"{content['role']}: {part['text']}")
      elif 'function_call' in part:
        call = part['function_call']
        lines.append(f"{content['role']}: call {call['name']} {call['args']}")
      elif 'function_response' in part:
        response = part['function_response']
        lines.append(f"{content['role']}: result of {response['name']}")
  return lines


def _chars(contents: list[dict[str, Any]]) -> int:
  """Text, plus the JSON of call arguments and responses, as the README counts."""
  total = 0
  for content in contents:
    for part in content.get('parts', []):
      if 'text' in part:
        total += len(part['text'])
      elif 'function_call' in part:
        total += len(json.dumps(part['function_call'].get('args') or {}))
      elif 'function_response' in part:
        total += len(
            json.dumps(part['function_response'].get('response') or {})
        )
  return total


def test_readme_booker_sees_the_user_and_itself_only(upstream_python: str):
  fork = _requests(sys.executable, 'as_written', 'no_sources', 'none')
  upstream = _requests(upstream_python, 'no_sources', 'none')

  # Without include_sources the fork sends upstream's requests.
  assert fork['no_sources'] == upstream['no_sources']
  assert fork['none'] == upstream['none']

  # Upstream, turn 4: info's answer and every transfer reach the booker.
  default = upstream['no_sources'][-1]
  assert (len(default), _chars(default)) == (13, 2921)
  assert any('We are open 9am-10pm.' in line for line in _lines(default))
  assert any('[coordinator] called tool' in line for line in _lines(default))
  # include_contents='none': the last message and info's transfer, without
  # the booking the user asks to change.
  none = upstream['none'][-1]
  assert (len(none), _chars(none)) == (3, 1110)
  assert _lines(none)[0] == 'user: Make it 8pm instead'
  assert not any('Booked 4 people' in line for line in _lines(none))

  # The README as written: the user's four messages and the booker's turns.
  filtered = fork['as_written'][-1]
  assert _lines(filtered) == [
      'user: I want to book a table',
      'model: BOOKER-1: For how many people, and when?',
      'user: 4 people tomorrow 7pm',
      'model: BOOKER-2: Booked 4 people tomorrow at 7pm.',
      'user: What are your opening hours?',
      "model: call transfer_to_agent {'agent_name': 'info'}",
      'user: result of transfer_to_agent',
      'user: Make it 8pm instead',
  ]
  assert (len(filtered), _chars(filtered)) == (8, 210)
