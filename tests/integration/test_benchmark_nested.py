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

"""The benchmark's nested-progress and user_messages measurements measure
what they say, at tiny sizes, in the fork.

``benchmarks/run.py --smoke`` (CI) only checks that they run; these check
that the streamed configuration streams and the other does not, that the two
send the same model requests, and that the copied conversation draws one
message per side and turn with the researcher's recorded steps and no hidden
tool.
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path) -> Any:
  spec = importlib.util.spec_from_file_location(name, path)
  assert spec and spec.loader
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


_benchmark = _load('_benchmark_worker_nested', _REPO / 'benchmarks/worker.py')


def test_only_the_streamed_configuration_streams_and_requests_agree():
  figures = asyncio.run(_benchmark._nested_progress_times(3, supported=True))

  assert set(figures) == {'hidden', 'minimal'}
  # started, working, three searches running and done, finished.
  assert figures['minimal']['progress_events'] == 3 * 8
  assert figures['hidden']['progress_events'] == 0
  assert (
      figures['minimal']['requests_digest']
      == figures['hidden']['requests_digest']
  )


def test_the_copied_conversation_draws_one_message_per_side_and_turn():
  turn = asyncio.run(_benchmark._conversation_turn())
  events = _benchmark._conversation(turn, 10 * len(turn))

  figures = _benchmark._user_messages_times([len(events)], repeats=1)

  assert len({event.id for event in events}) == len(events)
  row = figures[str(len(events))]
  assert (row['messages'], row['assistant_messages']) == (20, 10)
  # Per turn: the researcher's run with its 3 recorded searches, the
  # 'minimal' card, the client's card and the answer; the audit is hidden.
  assert row['parts'] == {'agent': 10, 'tool': 20, 'text': 20}
  assert row['recorded_steps'] == 30
  assert row['client_cards'] == 10
  assert row['hidden_shown'] == 0
