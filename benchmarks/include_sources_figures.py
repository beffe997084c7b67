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

"""Measures what `LlmAgent.include_sources` saves, and what it costs.

Run with one interpreter, it prints one JSON object for the google.adk that
interpreter imports:

  python include_sources_figures.py

* ``pipeline_chars``: total text characters in the request contents the last
  agent of a 4-agent SequentialAgent pipeline receives over 10 user turns,
  with a zero-latency scripted model. ``default`` always; ``user_self``
  (``include_sources=['user', 'self']``) when the installed google.adk has the
  field.
* ``get_contents_ms``: median time of ``_get_contents`` over a synthetic
  5,000-event multi-agent history with tool calls, ``unfiltered`` always and
  ``filtered`` (``['user', 'self']``) when supported.
* ``unfiltered_digest``: a hash of the unfiltered contents, so two installs can
  be checked for producing the same request.

Driver mode runs the measurement under two interpreters alternately and prints
medians across rounds with fork/upstream ratios:

  python include_sources_figures.py --compare UPSTREAM_PY FORK_PY [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import logging
import random
import statistics
import subprocess
import time
from typing import Any
import warnings

_TURNS = 10
_PIPELINE = ('intake', 'researcher', 'planner', 'writer')
_HISTORY_EVENTS = 5_000
_HISTORY_AGENTS = ('intake', 'researcher', 'planner', 'writer')
_SERVED_AGENT = 'writer'
_TIMING_REPEATS = 15
_FILTER = ['user', 'self']


def _supports_include_sources() -> bool:
  from google.adk.agents.llm_agent import LlmAgent

  return 'include_sources' in LlmAgent.model_fields


def _scripted_model_class():
  from google.adk.models.base_llm import BaseLlm
  from google.adk.models.llm_response import LlmResponse
  from google.genai import types
  from pydantic import Field

  class ScriptedModel(BaseLlm):
    """Answers at once with a fixed-size reply and records request sizes."""

    model: str = 'scripted'
    agent_name: str = ''
    request_chars: list[int] = Field(default_factory=list)

    async def generate_content_async(self, llm_request, stream=False):
      self.request_chars.append(
          sum(
              len(part.text or '')
              for content in llm_request.contents
              for part in content.parts or []
          )
      )
      turn = len(self.request_chars)
      text = (
          f'{self.agent_name} turn {turn}: '
          + 'analysis of the request and what to do next. ' * 4
      )
      yield LlmResponse(
          content=types.Content(role='model', parts=[types.Part(text=text)])
      )

  return ScriptedModel


async def _pipeline_chars(include_sources: list[str] | None) -> int:
  """Total contents characters the pipeline's last agent receives."""
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.agents.sequential_agent import SequentialAgent
  from google.adk.runners import InMemoryRunner
  from google.genai import types

  scripted_model = _scripted_model_class()
  models = {name: scripted_model(agent_name=name) for name in _PIPELINE}
  extra = (
      {} if include_sources is None else {'include_sources': include_sources}
  )
  agents = [
      LlmAgent(
          name=name,
          model=models[name],
          instruction=f'You are the {name}.',
          **(extra if name == _PIPELINE[-1] else {}),
      )
      for name in _PIPELINE
  ]
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    root = SequentialAgent(name='pipeline', sub_agents=agents)
  runner = InMemoryRunner(agent=root, app_name='figures')
  session = await runner.session_service.create_session(
      app_name='figures', user_id='user'
  )
  for turn in range(1, _TURNS + 1):
    message = types.Content(
        role='user',
        parts=[types.Part(text=f'Turn {turn}: please plan a dinner for six.')],
    )
    async for _ in runner.run_async(
        user_id='user', session_id=session.id, new_message=message
    ):
      pass
  return sum(models[_PIPELINE[-1]].request_chars)


def _synthetic_history() -> list[Any]:
  """A long multi-agent session: turns of replies, tool calls and results."""
  from google.adk.events.event import Event
  from google.genai import types

  rng = random.Random(2207)
  events: list[Event] = []
  clock = 1_000.0
  turn = 0

  def add(**kwargs: Any) -> None:
    nonlocal clock
    clock += 1.0
    events.append(Event(timestamp=clock, invocation_id=f'inv-{turn}', **kwargs))

  while len(events) < _HISTORY_EVENTS:
    turn += 1
    add(
        author='user',
        content=types.Content(
            role='user',
            parts=[types.Part(text=f'User message {turn}. ' * 3)],
        ),
    )
    for agent in _HISTORY_AGENTS:
      if rng.random() < 0.5:
        call_id = f'adk-{turn}-{agent}'
        add(
            author=agent,
            content=types.Content(
                role='model',
                parts=[
                    types.Part(
                        function_call=types.FunctionCall(
                            id=call_id,
                            name='search',
                            args={'query': f'{agent} query {turn}'},
                        )
                    )
                ],
            ),
        )
        add(
            author=agent,
            content=types.Content(
                role='user',
                parts=[
                    types.Part(
                        function_response=types.FunctionResponse(
                            id=call_id,
                            name='search',
                            response={'result': f'{agent} found ' * 8},
                        )
                    )
                ],
            ),
        )
      add(
          author=agent,
          content=types.Content(
              role='model',
              parts=[types.Part(text=f'{agent} reply {turn}. ' * 6)],
          ),
      )
  return events[:_HISTORY_EVENTS]


def _timings_ms(function) -> tuple[float, float]:
  """Returns the median and the fastest of several timed calls, in ms."""
  function()
  samples = []
  for _ in range(_TIMING_REPEATS):
    gc.collect()
    started = time.perf_counter()
    function()
    samples.append((time.perf_counter() - started) * 1_000)
  return statistics.median(samples), min(samples)


def _digest(contents: list[Any]) -> str:
  payload = json.dumps(
      [content.model_dump(mode='json') for content in contents],
      sort_keys=True,
  )
  return hashlib.sha256(payload.encode()).hexdigest()[:16]


def measure() -> dict[str, Any]:
  """Measures the figures for the google.adk this interpreter imports."""
  import google.adk
  from google.adk.flows.llm_flows.contents import _get_contents

  logging.getLogger('google_adk').setLevel(logging.ERROR)
  supported = _supports_include_sources()
  result: dict[str, Any] = {
      'adk_file': google.adk.__file__,
      'supports_include_sources': supported,
  }

  # Timed first, so both installs time it in the same process state: the
  # pipeline runs below leave objects behind that make later GC passes slower.
  history = _synthetic_history()
  unfiltered = lambda: _get_contents(None, history, _SERVED_AGENT)
  median_ms, best_ms = _timings_ms(unfiltered)
  result['get_contents_ms'] = {'unfiltered': median_ms}
  result['get_contents_best_ms'] = {'unfiltered': best_ms}
  if supported:
    filtered = lambda: _get_contents(
        None, history, _SERVED_AGENT, source_filter=_FILTER
    )
    median_ms, best_ms = _timings_ms(filtered)
    result['get_contents_ms']['filtered'] = median_ms
    result['get_contents_best_ms']['filtered'] = best_ms
  result['unfiltered_digest'] = _digest(unfiltered())

  result['pipeline_chars'] = {'default': asyncio.run(_pipeline_chars(None))}
  if supported:
    result['pipeline_chars']['user_self'] = asyncio.run(
        _pipeline_chars(_FILTER)
    )
  return result


def _run_under(python: str) -> dict[str, Any]:
  output = subprocess.run(
      [python, __file__],
      check=True,
      capture_output=True,
      text=True,
  ).stdout
  return json.loads(output.strip().splitlines()[-1])


def compare(upstream_python: str, fork_python: str, rounds: int) -> None:
  """Runs both interpreters alternately and prints medians and ratios."""
  runs: dict[str, list[dict[str, Any]]] = {'upstream': [], 'fork': []}
  for _ in range(rounds):
    runs['upstream'].append(_run_under(upstream_python))
    runs['fork'].append(_run_under(fork_python))

  def median(side: str, *keys: str) -> float | None:
    values = []
    for run in runs[side]:
      value = run
      for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
      if value is not None:
        values.append(value)
    return statistics.median(values) if values else None

  up_chars = median('upstream', 'pipeline_chars', 'default')
  up_ms = median('upstream', 'get_contents_ms', 'unfiltered')
  up_best = median('upstream', 'get_contents_best_ms', 'unfiltered')
  rows = [
      (
          'last-agent request chars, default',
          up_chars,
          median('fork', 'pipeline_chars', 'default'),
          up_chars,
      ),
      (
          "last-agent request chars, ['user', 'self']",
          up_chars,
          median('fork', 'pipeline_chars', 'user_self'),
          up_chars,
      ),
      (
          '_get_contents ms, unfiltered',
          up_ms,
          median('fork', 'get_contents_ms', 'unfiltered'),
          up_ms,
      ),
      (
          "_get_contents ms, ['user', 'self']",
          up_ms,
          median('fork', 'get_contents_ms', 'filtered'),
          up_ms,
      ),
      (
          '_get_contents fastest ms, unfiltered',
          up_best,
          median('fork', 'get_contents_best_ms', 'unfiltered'),
          up_best,
      ),
      (
          "_get_contents fastest ms, ['user', 'self']",
          up_best,
          median('fork', 'get_contents_best_ms', 'filtered'),
          up_best,
      ),
  ]
  print(
      f'{rounds} alternating rounds; medians across rounds. Filtered figures'
      ' are compared with upstream unfiltered, which has no filter.'
  )
  print(f'{"figure":<44} {"upstream":>11} {"fork":>11} {"fork/up":>8}')
  for label, upstream_value, fork_value, baseline in rows:
    ratio = (
        f'{fork_value / baseline:.3f}'
        if fork_value is not None and baseline
        else 'n/a'
    )
    print(
        f'{label:<44} {_fmt(upstream_value):>11} {_fmt(fork_value):>11}'
        f' {ratio:>8}'
    )
  paired = [
      fork_run['get_contents_ms']['unfiltered']
      / upstream_run['get_contents_ms']['unfiltered']
      for upstream_run, fork_run in zip(runs['upstream'], runs['fork'])
  ]
  print(
      'unfiltered fork/upstream, median of per-round ratios:'
      f' {statistics.median(paired):.3f}'
      f' (range {min(paired):.3f}-{max(paired):.3f})'
  )
  digests = {
      side: {run['unfiltered_digest'] for run in runs[side]} for side in runs
  }
  same = digests['upstream'] == digests['fork'] and len(digests['fork']) == 1
  print(
      'unfiltered _get_contents output identical to upstream:'
      f' {"yes" if same else "NO"} ({", ".join(sorted(digests["fork"]))})'
  )
  print(json.dumps({'rounds': runs}, indent=None))


def _fmt(value: float | None) -> str:
  if value is None:
    return 'n/a'
  if float(value).is_integer():
    return f'{int(value):,}'
  return f'{value:.2f}'


def main() -> None:
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument(
      '--compare',
      nargs=2,
      metavar=('UPSTREAM_PY', 'FORK_PY'),
      help='Run under both interpreters alternately and compare.',
  )
  parser.add_argument('--rounds', type=int, default=5)
  args = parser.parse_args()
  if args.compare:
    compare(*args.compare, rounds=args.rounds)
  else:
    print(json.dumps(measure()))


if __name__ == '__main__':
  main()
