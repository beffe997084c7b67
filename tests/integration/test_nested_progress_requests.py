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

"""Streaming an agent tool's work changes no model's request.

``_nested_progress_requests_worker.py`` runs an assistant with an
``AgentTool`` researcher, a plain tool and a client tool over two turns and
prints every request each model received. The fork, streaming the nested
work at each level in filter mode, and pristine upstream 2.13.0 must print
the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
import sys

from _scripted import worker_json
import pytest

_WORKER = (
    Path(__file__).resolve().parent / '_nested_progress_requests_worker.py'
)


def _requests(python: str, *args: str) -> dict:
  return worker_json(python, _WORKER, *args)


@pytest.mark.parametrize('level', ['minimal', 'full'])
def test_requests_match_pristine_upstream_with_nested_progress(
    upstream_python: str, level: str
):
  fork = _requests(sys.executable, '--nested-progress', level)
  upstream = _requests(upstream_python)

  # The fork streamed the researcher's work (start, the search running and
  # done, finish, each turn); upstream has no such events.
  assert fork.pop('progress_events') == 8
  assert upstream.pop('progress_events') == 0
  # Two turns: the assistant answers four times a turn, the researcher twice.
  assert [len(fork['assistant']), len(fork['researcher'])] == [8, 4]
  assert fork == upstream
  # The researcher's search reached its own model, not the assistant's.
  assert 'SEARCH-HIT' in json.dumps(fork['researcher'])
  assert 'SEARCH-HIT' not in json.dumps(fork['assistant'])
