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

"""The demo's "upstream" columns are pristine google-adk 2.13.0's behaviour.

scripts/demo runs its upstream configurations on the fork with the fork's
features off. Here the same configurations run under pristine upstream, in
the virtual environment ``python -m adkfork upstream-venv`` makes (or the
interpreter named by ``ADK_UPSTREAM_PYTHON``), and every model request and
every reply must be the same as the fork's.
"""

from __future__ import annotations

from pathlib import Path
import subprocess
import sys
from typing import Any

from _scripted import worker_env
from _scripted import worker_json
import pytest

_REPO = Path(__file__).resolve().parents[2]
_DEMO = _REPO / 'contributing' / 'samples' / 'side_by_side.py'


def _record(python: str, sample: str, config: str) -> dict[str, Any]:
  return worker_json(
      python,
      _DEMO,
      '--sample',
      sample,
      '--record',
      config,
      env=worker_env(PYTHONWARNINGS='ignore::DeprecationWarning'),
  )


def test_the_upstream_interpreter_is_pristine(upstream_python: str):
  probe = subprocess.run(
      [
          upstream_python,
          '-c',
          (
              'import importlib.metadata as m, importlib.util as u;'
              ' print(m.version("google-adk"),'
              ' u.find_spec("google.adk.fork_info") is None)'
          ),
      ],
      capture_output=True,
      text=True,
      timeout=120,
      check=True,
  )

  assert probe.stdout.split() == ['2.13.0', 'True']


@pytest.mark.parametrize(
    'sample, config',
    [
        ('booking_workflow', 'upstream'),
        ('booking_workflow', "upstream 'default'"),
        ('booking_router', 'upstream'),
        ('booking_router', "upstream 'none'"),
    ],
)
def test_demo_upstream_configuration_matches_pristine(
    upstream_python: str, sample: str, config: str
):
  pristine = _record(upstream_python, sample, config)
  fork = _record(sys.executable, sample, config)

  if (sample, config) == ('booking_workflow', "upstream 'default'"):
    # The one difference is the upstream fix in patch 0028: the classifier,
    # right after START with the history, gets the user's message once; in
    # 2.13.0 its request ends with it twice, in every turn.
    classifier = pristine['requests']['classifier']
    assert all(
        request[-1] == request[-2] for turn in classifier for request in turn
    )
    pristine['requests']['classifier'] = [
        [request[:-1] for request in turn] for turn in classifier
    ]
  assert fork == pristine
  # Three turns, each answered by the classifier and a responder.
  assert [
      len([shown for shown in turn if shown[1]]) for turn in pristine['shown']
  ] == [2, 2, 2]
  assert pristine['requests']['booker'][-1]
