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

"""Workflows that do not set include_sources send upstream's requests.

``_workflow_requests_worker.py`` runs six Workflow shapes (a classifier
followed by a booker, a route function, a join, a dynamic child, a nested
workflow and a chat node) over two turns and prints what every model
received. The fork and pristine upstream 2.13.0 must print the same bytes.
"""

from __future__ import annotations

from pathlib import Path
import sys

from _scripted import worker_env
from _scripted import worker_json

_WORKER = Path(__file__).resolve().parent / '_workflow_requests_worker.py'


def _requests(python: str) -> dict:
  # A JoinNode's input dict follows set order, which follows string hashing.
  return worker_json(python, _WORKER, env=worker_env(PYTHONHASHSEED='0'))


def test_workflow_requests_match_pristine_upstream(upstream_python: str):
  fork = _requests(sys.executable)
  upstream = _requests(upstream_python)

  assert sorted(fork) == [
      'chat',
      'classified',
      'dynamic',
      'joined',
      'nested',
      'routed',
  ]
  # Every model was called once per turn, so the comparison covers them all.
  for shape, models in fork.items():
    assert all(len(requests) == 2 for requests in models.values()), shape
  assert fork == upstream
  # The booker gets the classifier's label as its node input, as upstream
  # does.
  booker = fork['classified']['booker'][1]['contents']
  assert booker == [{'parts': [{'text': 'CLASSIFIER-2'}], 'role': 'user'}]
