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

"""Annotate mode is pristine upstream apart from the flag, on random apps.

Hypothesis draws compositions of every kind (``tests/extended/
_compositions.py``: sequences, parallel agents, loops ended by ``exit_loop``
or by a custom checker, agent tools, custom orchestrators, workflows of
agents and function nodes, random ``visibility`` overrides). One worker per
interpreter, the fork's and pristine google-adk 2.13.0's (the virtual
environment ``python -m adkfork upstream-venv`` makes), runs each one for a
turn; what every event carries (author, parts, finality, actions, output,
error) and every request each model received must be the same, and a run
that raises must raise the same error. The fork gets the overrides, which
pristine upstream has no keyword for: they change the flag and nothing else.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import subprocess
import sys
from typing import Any
from typing import Iterator

from hypothesis import event
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'extended'))
import _compositions  # pylint: disable=g-import-not-at-top,wrong-import-position

_WORKER = Path(_compositions.__file__)


class _Worker:
  """An interpreter running ``_compositions.py``, one spec per line."""

  def __init__(self, python: str) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(('GOOGLE_', 'GEMINI_'))
    }
    self._process = subprocess.Popen(
        [python, str(_WORKER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )

  def run(self, spec: dict[str, Any]) -> dict[str, Any]:
    assert self._process.stdin and self._process.stdout
    self._process.stdin.write(json.dumps(spec) + '\n')
    self._process.stdin.flush()
    line = self._process.stdout.readline()
    assert line, f'the worker stopped (exit code {self._process.poll()})'
    return json.loads(line)

  def close(self) -> None:
    if self._process.stdin:
      self._process.stdin.close()
    self._process.wait(timeout=60)


@pytest.fixture(scope='module')
def workers(upstream_python: str) -> Iterator[tuple[_Worker, _Worker]]:
  fork, pristine = _Worker(sys.executable), _Worker(upstream_python)
  yield fork, pristine
  fork.close()
  pristine.close()


def test_the_workers_run_the_fork_and_pristine_upstream(workers):
  fork, pristine = workers
  spec = {
      'kind': 'sequence',
      'visibility': None,
      'children': [
          {
              'kind': 'agent',
              'visibility': None,
              'ends_loop': False,
              'words_beside_exit': False,
          },
          {'kind': 'checker', 'visibility': 'internal'},
      ],
  }

  # The same turn on both sides: the agent's words, then the checker's
  # content-less event; a worker that ran nothing would fail here.
  for worker in workers:
    result = worker.run(spec)
    assert [e['author'] for e in result['events']] == ['agent_0', 'checker_1']
    assert result['events'][0]['parts'] == [['text', 'said-by-agent_0']]
  assert fork.run(spec) == pristine.run(spec)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
    ],
    derandomize=True,
)
@given(spec=_compositions.specs())
def test_annotate_mode_is_pristine_upstream_on_random_compositions(
    workers, spec: dict[str, Any]
):
  fork, pristine = workers

  expected = pristine.run(spec)
  event(f"root {spec['kind']}, raised {expected['raised']}")
  assert fork.run(spec) == expected
