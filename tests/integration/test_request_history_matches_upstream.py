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

"""The fork builds pristine upstream 2.13.0's request history, byte for byte.

The PR's own test compares 400 generated histories with digests recorded
under 2.13.0. This one compares the fork with pristine upstream, run in the
environment ``python -m adkfork upstream-venv`` makes (or the interpreter
named by ``ADK_UPSTREAM_PYTHON``), on a fixed set of generated histories: the
PR test's generator with seeds 0 to 599, plus long benchmark-shaped sessions.
Both sides rebuild the events from the same JSON and dump every content with
all fields and with only the fields set.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
import random
import subprocess
from typing import Any

from _scripted import worker_env
from _scripted import worker_json

_REPO = Path(__file__).resolve().parents[2]
_HERE = Path(__file__).resolve().parent
_SEEDS = range(600)


def _load(name: str, path: Path) -> Any:
  spec = importlib.util.spec_from_file_location(name, path)
  assert spec and spec.loader
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


_generator = _load(
    '_request_history_cases',
    _REPO / 'tests/unittests/flows/llm_flows/test_request_history.py',
)
_worker = _load('_request_history_worker', _HERE / '_request_history_worker.py')
_benchmark = _load('_benchmark_worker', _REPO / 'benchmarks/worker.py')


def _long_sessions() -> list[dict[str, Any]]:
  """The benchmark's multi-agent session, served to each of its agents."""
  events = [
      event.model_dump(mode='json', exclude_unset=True)
      for event in _benchmark._history(1_500)
  ]
  return [
      {
          'events': events,
          'branch': None,
          'agent_name': agent,
          'isolation_scope': None,
          'node_path': None,
          'is_single_turn': False,
          'preserve_function_call_ids': False,
          'include_thoughts_from_other_agents': False,
          'user_content': None,
      }
      for agent in _benchmark.PIPELINE
  ]


def _requests() -> list[dict[str, Any]]:
  generated = [
      _generator.random_request(random.Random(seed)) for seed in _SEEDS
  ]
  return generated + _long_sessions()


def _upstream_env() -> dict[str, str]:
  return worker_env(PYTHONWARNINGS='ignore')


def _upstream_results(
    python: str, requests: list[dict[str, Any]]
) -> list[dict[str, Any]]:
  return worker_json(
      python,
      _HERE / '_request_history_worker.py',
      stdin=json.dumps(requests),
      env=_upstream_env(),
      timeout=600,
  )


def test_upstream_interpreter_is_pristine(upstream_python: str):
  probe = subprocess.run(
      [
          upstream_python,
          '-c',
          (
              'import importlib.metadata as m, importlib.util as u;'
              ' print(m.version("google-adk"),'
              ' u.find_spec("google.adk.flows.llm_flows.context'
              '._request_history") is None)'
          ),
      ],
      env=_upstream_env(),
      capture_output=True,
      text=True,
      timeout=120,
  )
  assert probe.stdout.split() == ['2.13.0', 'True'], probe.stderr


def test_request_history_matches_pristine_upstream(upstream_python: str):
  requests = _requests()

  upstream = _upstream_results(upstream_python, requests)
  fork = [_worker.build(request) for request in requests]

  mismatched = [
      (index, kind)
      for index, (ours, theirs) in enumerate(zip(fork, upstream))
      for kind in ('history', 'current_turn')
      if ours[kind] != theirs[kind]
  ]
  assert len(upstream) == len(requests)
  assert not mismatched, f'(request, function) that differ: {mismatched[:20]}'
  # The comparison is only as good as what it covers: most histories must
  # produce contents, and long ones many.
  assert sum(1 for result in fork if result['history']) > len(requests) * 0.8
  assert min(len(result['history']) for result in fork[-4:]) > 1_000
