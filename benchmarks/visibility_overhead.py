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

"""Runner overhead of event visibility on a 4-agent pipeline.

Single measurement, in the interpreter that runs this script::

  python visibility_overhead.py [--turns 200] [--repeat 1] [--fresh-sessions]
      [--visibility-mode filter]

prints one JSON object with the wall time of ``--turns`` turns of a
``SequentialAgent`` of four ``LlmAgent``s whose model answers instantly, so
what is measured is the Runner and the agents, not a model. The turns continue
one conversation unless ``--fresh-sessions`` starts each in a new session,
which leaves the per-event work of the Runner a larger share of the time.
``--repeat`` measures that many blocks of ``--turns`` turns in the same
process, each block in new sessions, and reports their median as ``wall_s``.
``--visibility-mode`` is passed to ``RunConfig`` and only exists in the fork.

Side-by-side comparison::

  python visibility_overhead.py --compare UPSTREAM_PY FORK_PY [--rounds 9]
      [--turns 200] [--repeat 1] [--fresh-sessions]

runs the single measurement under each interpreter in turn, alternating which
one goes first from round to round so drift on the machine affects both alike,
and prints the per-round times, their medians and the fork/upstream ratio of
the medians. The median of the per-round ratios, the ratio of the fastest
runs and the ratio of median CPU times are printed as well: they are less
sensitive to a busy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
import statistics
import subprocess
import sys
import time
from typing import Any
from typing import AsyncGenerator
import warnings

_AGENT_COUNT = 4
_APP = 'visibility_benchmark'
_USER = 'benchmark_user'
_RUN_TIMEOUT_S = 3600


async def _measure(
    *,
    turns: int,
    repeat: int,
    fresh_sessions: bool,
    visibility_mode: str | None,
) -> dict[str, Any]:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    import google.adk
    from google.adk.agents.llm_agent import LlmAgent
    from google.adk.agents.run_config import RunConfig
    from google.adk.agents.sequential_agent import SequentialAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class InstantLlm(BaseLlm):
      """Answers every request at once with the same text."""

      model: str = 'instant-llm'
      reply: str = ''

      async def generate_content_async(
          self, llm_request: Any, stream: bool = False
      ) -> AsyncGenerator[LlmResponse, None]:
        del llm_request, stream
        yield LlmResponse(
            content=types.ModelContent(parts=[types.Part(text=self.reply)])
        )

    pipeline = SequentialAgent(
        name='pipeline',
        sub_agents=[
            LlmAgent(
                name=f'step_{i}',
                model=InstantLlm(reply=f'step {i} output'),
            )
            for i in range(_AGENT_COUNT)
        ],
    )

  runner = InMemoryRunner(agent=pipeline, app_name=_APP)
  run_config = (
      RunConfig(visibility_mode=visibility_mode)
      if visibility_mode
      else RunConfig()
  )

  async def new_session() -> str:
    session = await runner.session_service.create_session(
        app_name=_APP, user_id=_USER
    )
    return session.id

  async def turn(session_id: str, text: str) -> int:
    count = 0
    async for _ in runner.run_async(
        user_id=_USER,
        session_id=session_id,
        new_message=types.UserContent(parts=[types.Part(text=text)]),
        run_config=run_config,
    ):
      count += 1
    return count

  # The first turn pays for lazy imports and caches in both versions.
  await turn(await new_session(), 'warm up')

  wall_times = []
  cpu_times = []
  events = 0
  for _ in range(repeat):
    session_ids = [
        await new_session() for _ in range(turns if fresh_sessions else 1)
    ]
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(turns):
      events += await turn(session_ids[i % len(session_ids)], f'turn {i}')
    wall_times.append(time.perf_counter() - start)
    cpu_times.append(time.process_time() - cpu_start)
  await runner.close()
  return {
      'adk_version': google.adk.__version__,
      'adk_file': google.adk.__file__,
      'python': sys.executable,
      'turns': turns,
      'repeat': repeat,
      'fresh_sessions': fresh_sessions,
      'events': events,
      'wall_s': statistics.median(wall_times),
      'cpu_s': statistics.median(cpu_times),
      'block_wall_s': wall_times,
  }


def _run_single(
    python: str,
    *,
    turns: int,
    repeat: int,
    fresh_sessions: bool,
    visibility_mode: str | None,
) -> dict[str, Any]:
  command = [
      python,
      str(Path(__file__).resolve()),
      '--turns',
      str(turns),
      '--repeat',
      str(repeat),
  ]
  if fresh_sessions:
    command.append('--fresh-sessions')
  if visibility_mode:
    command += ['--visibility-mode', visibility_mode]
  # Neither interpreter may pick up the other's sources through PYTHONPATH.
  env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
  result = subprocess.run(
      command,
      capture_output=True,
      text=True,
      env=env,
      timeout=_RUN_TIMEOUT_S,
      check=False,
  )
  if result.returncode != 0:
    raise RuntimeError(f'{python} failed:\n{result.stderr}')
  return json.loads(result.stdout.strip().splitlines()[-1])


def _compare(
    upstream_python: str,
    fork_python: str,
    *,
    rounds: int,
    turns: int,
    repeat: int,
    fresh_sessions: bool,
    fork_visibility_mode: str | None,
) -> dict[str, Any]:
  wall: dict[str, list[float]] = {'upstream': [], 'fork': []}
  cpu: dict[str, list[float]] = {'upstream': [], 'fork': []}
  locations: dict[str, str] = {}
  for round_index in range(rounds):
    order = [
        ('upstream', upstream_python, None),
        ('fork', fork_python, fork_visibility_mode),
    ]
    if round_index % 2:
      order.reverse()
    for label, python, mode in order:
      result = _run_single(
          python,
          turns=turns,
          repeat=repeat,
          fresh_sessions=fresh_sessions,
          visibility_mode=mode,
      )
      wall[label].append(result['wall_s'])
      cpu[label].append(result['cpu_s'])
      locations[label] = result['adk_file']
      print(
          f'round {round_index + 1}/{rounds} {label}: {result["wall_s"]:.3f}s',
          file=sys.stderr,
      )
  upstream_median = statistics.median(wall['upstream'])
  fork_median = statistics.median(wall['fork'])
  # Runs of the same round are adjacent in time, so their ratio cancels much
  # of the load that other processes put on the machine.
  paired_ratios = [f / u for f, u in zip(wall['fork'], wall['upstream'])]
  return {
      'agents': _AGENT_COUNT,
      'turns': turns,
      'repeat': repeat,
      'fresh_sessions': fresh_sessions,
      'rounds': rounds,
      'fork_visibility_mode': fork_visibility_mode or 'default (annotate)',
      'upstream_adk': locations['upstream'],
      'fork_adk': locations['fork'],
      'upstream_wall_s': wall['upstream'],
      'fork_wall_s': wall['fork'],
      'upstream_median_s': upstream_median,
      'fork_median_s': fork_median,
      'fork_over_upstream': fork_median / upstream_median,
      'median_of_paired_ratios': statistics.median(paired_ratios),
      'fastest_fork_over_fastest_upstream': (
          min(wall['fork']) / min(wall['upstream'])
      ),
      'cpu_median_fork_over_upstream': (
          statistics.median(cpu['fork']) / statistics.median(cpu['upstream'])
      ),
      'target_max_ratio': 1.03,
  }


def main() -> None:
  parser = argparse.ArgumentParser(
      description=__doc__.split('\n', maxsplit=1)[0]
  )
  parser.add_argument('--turns', type=int, default=200)
  parser.add_argument('--repeat', type=int, default=1)
  parser.add_argument('--rounds', type=int, default=9)
  parser.add_argument(
      '--fresh-sessions',
      action='store_true',
      help=(
          'Start every turn in a new session. Without it all turns continue'
          ' one conversation, whose growing history dominates the time.'
      ),
  )
  parser.add_argument(
      '--visibility-mode',
      choices=('annotate', 'filter'),
      help='RunConfig.visibility_mode for the fork; upstream rejects it.',
  )
  parser.add_argument(
      '--compare',
      nargs=2,
      metavar=('UPSTREAM_PY', 'FORK_PY'),
      help='Interpreters with upstream and with the fork installed.',
  )
  args = parser.parse_args()
  if args.compare:
    result = _compare(
        *args.compare,
        rounds=args.rounds,
        turns=args.turns,
        repeat=args.repeat,
        fresh_sessions=args.fresh_sessions,
        fork_visibility_mode=args.visibility_mode,
    )
    print(json.dumps(result, indent=2))
  else:
    result = asyncio.run(
        _measure(
            turns=args.turns,
            repeat=args.repeat,
            fresh_sessions=args.fresh_sessions,
            visibility_mode=args.visibility_mode,
        )
    )
    print(json.dumps(result))


if __name__ == '__main__':
  main()
