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

"""One benchmark round for the google.adk that this interpreter imports.

The driver (``run.py``) runs this module under the fork's interpreter and under
pristine upstream's, alternately; it is not meant to be run by hand, though it
can be::

  python worker.py --info
  python worker.py --events 1000,5000 --repeats 5 --turns 20 \\
      --throughput-turns 40 --flat-events 1000,20000 --memory-events 10000 \\
      --late-turn 40 --late-sessions 3 --user-view-events 1000,10000 \\
      --user-view-repeats 9 --windows-turns 40 --windows-repeats 15 \\
      --nested-turns 200 --user-messages-events 1000,10000 \\
      --user-messages-repeats 9 --long-turns 10,50,100,200 \\
      [--only late_turn,user_view,windows,long_session]

and prints one JSON object on its last line of output. Configurations that
need the fork (``include_sources``, ``source_filter``, filter mode,
``user_view``, source windows, nested progress, ``user_messages``) are
measured only when the installed google.adk supports them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import random
import re
import statistics
import sys
import time
import tracemalloc
from typing import Any
from typing import AsyncGenerator
import warnings

PIPELINE = ('intake', 'researcher', 'planner', 'writer')
"""The agents of the benchmark pipeline, in the order they run."""

CONFIGS = ('default', 'none', 'include_sources')
"""Pipeline configurations: upstream's default, every agent with
``include_contents='none'``, and every agent with
``include_sources=['user', 'self']`` (fork only)."""

SOURCE_FILTER = ['user', 'self']

MEASUREMENTS = (
    'get_contents',
    'request_size',
    'throughput',
    'time_per_event',
    'peak_memory',
    'late_turn',
    'user_view',
    'windows',
    'nested_progress',
    'user_messages',
    'long_session',
)
"""What a round measures, in this order; ``--only`` picks some of them."""

TEAM = ('planner', 'researcher', 'writer')
"""The agents of the windows session, in the order they run."""

LATE_TURN_CONFIGS = ('default', 'include_sources', 'filter')
"""Runner configurations timed at a late turn: ``'filter'`` is the default
pipeline run with ``RunConfig(visibility_mode='filter')`` (fork only), so
against ``'default'`` (annotate mode in the fork) it costs the filtering."""

NESTED_CONFIGS = ('hidden', 'minimal')
"""Fork configurations of the nested-progress app, both in filter mode:
``RunConfig.nested_progress`` left at ``'hidden'`` (nothing of the
researcher's work is streamed) and set to ``'minimal'`` (it is). Upstream runs
the same app with its default ``RunConfig`` as ``'upstream'``."""

_RESEARCH_STEPS = 3
"""Searches the researcher makes in each of its runs before it answers."""

_INTERNAL_AGENTS = PIPELINE[:-1]
"""The agents the fork's Runner marks internal in the pipeline: all but the
last agent of a SequentialAgent work for the next one, not for the user."""

_APP = 'adk_benchmark'
_USER = 'benchmark_user'
_SESSION_TURNS = 10
"""Throughput turns continue one conversation for this many turns."""

# Each agent reads what the previous one wrote through session state, the way
# a real pipeline hands work along.
_INSTRUCTIONS = {
    'intake': (
        'You are the intake agent of a travel agency. Restate what the'
        ' customer wants as a short brief: dates, budget, party, constraints.'
    ),
    'researcher': (
        'You are the researcher. Using the search tool, find options that fit'
        ' this brief:\n{brief}'
    ),
    'planner': (
        'You are the planner. Turn these findings into a day-by-day plan:\n'
        '{findings}'
    ),
    'writer': (
        'You are the writer. Write the reply to the customer from this plan,'
        ' in a friendly tone:\n{plan}'
    ),
}
_OUTPUT_KEYS = {
    'intake': 'brief',
    'researcher': 'findings',
    'planner': 'plan',
    'writer': 'answer',
}
_REPLY_CHARS = {
    'intake': 300,
    'researcher': 900,
    'planner': 1200,
    'writer': 1500,
}
_WORDS = (
    'option hotel ferry station museum budget morning evening transfer'
    ' booking guide coast village market dinner lunch walk quiet view family'
    ' price refund schedule garden harbour trail rain window direct seat'
    ' included breakfast late check local price cheaper nearer'
).split()
_ASKS = (
    (
        'We are four adults and two kids, looking at a week on the coast in'
        ' early June, budget around 4,000 euros in total.'
    ),
    (
        'Could you keep the hotel near a train station? We would rather not'
        ' rent a car.'
    ),
    (
        'My mother uses a walking stick, so nothing with long hikes or steep'
        ' stairs please.'
    ),
    'What about a day trip to an island? The kids love boats.',
    (
        'Actually make that the second week of June, the first clashes with'
        ' school exams.'
    ),
    (
        'Is there anywhere good for a birthday dinner, something a bit special'
        ' but not too formal?'
    ),
    'Please drop the museum day, nobody was excited about it.',
    'Can we see the budget split per day, and which bookings are refundable?',
)


def _user_message(turn: int) -> str:
  """The customer's message at `turn` (from 1); unique per turn."""
  return f'(message {turn}) {_ASKS[(turn - 1) % len(_ASKS)]}'


def _prose(seed: str, chars: int) -> str:
  """Deterministic filler text of about `chars` characters."""
  rng = random.Random(seed)
  words: list[str] = []
  length = 0
  while length < chars:
    word = rng.choice(_WORDS)
    words.append(word)
    length += len(word) + 1
  return ' '.join(words).capitalize() + '.'


def _part_text(part: Any) -> str:
  if part.function_call:
    return json.dumps(
        {'name': part.function_call.name, 'args': part.function_call.args},
        sort_keys=True,
    )
  if part.function_response:
    return json.dumps(
        {
            'name': part.function_response.name,
            'response': part.function_response.response,
        },
        sort_keys=True,
        default=str,
    )
  return part.text or ''


def _contents_text(contents: list[Any]) -> str:
  """All text of request contents: parts' text, tool payloads as JSON."""
  return '\n'.join(
      _part_text(part) for content in contents for part in content.parts or []
  )


def _answers_tool(contents: list[Any]) -> bool:
  """Whether the request ends with a tool's response."""
  last = contents[-1] if contents else None
  return bool(last and any(part.function_response for part in last.parts or []))


class _Recorder:
  """Collects, per agent and turn, the agent's last request of the turn."""

  def __init__(self, agents: tuple[str, ...] = PIPELINE) -> None:
    self.turn = 0
    self.requests: dict[str, dict[int, str]] = {name: {} for name in agents}

  def record(self, agent: str, request: Any) -> None:
    self.requests[agent][self.turn] = _contents_text(request.contents)


def _search(query: str) -> dict[str, Any]:
  """Searches travel options (the benchmark's only tool).

  Args:
    query: What to look for.

  Returns:
    Deterministic results of realistic length.
  """
  return {'query': query, 'results': _prose(f'search:{query}', 400)}


def _scripted_model(agent: str, recorder: _Recorder | None) -> Any:
  """A zero-latency model for `agent` that records its requests."""
  from google.adk.models.base_llm import BaseLlm
  from google.adk.models.llm_response import LlmResponse
  from google.genai import types

  class ScriptedModel(BaseLlm):
    """Answers at once: the researcher searches first, then all write prose."""

    model: str = 'scripted'

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
      del stream
      turn = recorder.turn if recorder else 0
      if recorder:
        recorder.record(agent, llm_request)
      if agent == 'researcher' and not _answers_tool(llm_request.contents):
        part = types.Part(
            function_call=types.FunctionCall(
                name='_search', args={'query': f'options for turn {turn}'}
            )
        )
      else:
        part = types.Part(text=_prose(f'{agent}:{turn}', _REPLY_CHARS[agent]))
      yield LlmResponse(content=types.ModelContent(parts=[part]))

  return ScriptedModel()


def _pipeline(config: str, recorder: _Recorder | None) -> Any:
  """The 4-agent SequentialAgent in configuration `config`."""
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.agents.sequential_agent import SequentialAgent

  extra: dict[str, Any] = {}
  if config == 'none':
    extra = {'include_contents': 'none'}
  elif config == 'include_sources':
    extra = {'include_sources': SOURCE_FILTER}
  agents = [
      LlmAgent(
          name=name,
          model=_scripted_model(name, recorder),
          instruction=_INSTRUCTIONS[name],
          output_key=_OUTPUT_KEYS[name],
          tools=[_search] if name == 'researcher' else [],
          **extra,
      )
      for name in PIPELINE
  ]
  return SequentialAgent(name='travel_pipeline', sub_agents=agents)


async def _run_turns(
    runner: Any,
    session_id: str,
    first: int,
    count: int,
    run_config: Any = None,
):
  from google.genai import types

  extra = {'run_config': run_config} if run_config is not None else {}
  for turn in range(first, first + count):
    message = types.UserContent(parts=[types.Part(text=_user_message(turn))])
    async for _ in runner.run_async(
        user_id=_USER, session_id=session_id, new_message=message, **extra
    ):
      pass


async def _request_sizes(config: str, turns: int) -> dict[str, Any]:
  """Runs `turns` turns and measures each agent's requests."""
  from google.adk.runners import InMemoryRunner

  recorder = _Recorder()
  runner = InMemoryRunner(agent=_pipeline(config, recorder), app_name=_APP)
  session = await runner.session_service.create_session(
      app_name=_APP, user_id=_USER
  )
  for turn in range(1, turns + 1):
    recorder.turn = turn
    await _run_turns(runner, session.id, turn, 1)
  await runner.close()

  result: dict[str, Any] = {}
  for agent in PIPELINE:
    chars, kept, current = [], [], []
    for turn in range(1, turns + 1):
      text = recorder.requests[agent].get(turn, '')
      typed = [_user_message(t) for t in range(1, turn + 1)]
      chars.append(len(text))
      kept.append(
          sum(len(m) for m in typed if m in text) / sum(len(m) for m in typed)
      )
      current.append(typed[-1] in text)
    result[agent] = {
        'chars': chars,
        'user_text_kept': kept,
        'current_message_present': current,
    }
  return result


async def _throughput(config: str, turns: int) -> dict[str, float]:
  """Wall and CPU time of `turns` pipeline turns with no model latency."""
  from google.adk.runners import InMemoryRunner

  runner = InMemoryRunner(agent=_pipeline(config, None), app_name=_APP)

  async def new_session() -> str:
    session = await runner.session_service.create_session(
        app_name=_APP, user_id=_USER
    )
    return session.id

  # The first turn pays for lazy imports and caches.
  await _run_turns(runner, await new_session(), 1, 1)
  gc.collect()
  wall = cpu = 0.0
  done = 0
  while done < turns:
    count = min(_SESSION_TURNS, turns - done)
    session_id = await new_session()
    started, cpu_started = time.perf_counter(), time.process_time()
    await _run_turns(runner, session_id, 1, count)
    wall += time.perf_counter() - started
    cpu += time.process_time() - cpu_started
    done += count
  await runner.close()
  return {
      'turns': turns,
      'wall_s': wall,
      'cpu_s': cpu,
      'turns_per_s': turns / wall,
  }


def _history(size: int, *, internal: bool = False) -> list[Any]:
  """A long multi-agent session of `size` events with tool traffic.

  With `internal` (fork only), the events of every agent but the writer are
  marked ``visibility='internal'``, as the fork's Runner stores them when the
  pipeline runs; the user's and the writer's events stay user-facing.
  """
  from google.adk.events.event import Event
  from google.genai import types

  rng = random.Random(2207)
  events: list[Any] = []
  turn = 0

  def add(author: str, role: str, part: Any) -> None:
    extra = (
        {'visibility': 'internal'}
        if internal and author in _INTERNAL_AGENTS
        else {}
    )
    events.append(
        Event(
            timestamp=1_000.0 + len(events),
            invocation_id=f'inv-{turn}',
            author=author,
            content=types.Content(role=role, parts=[part]),
            **extra,
        )
    )

  while len(events) < size:
    turn += 1
    add('user', 'user', types.Part(text=_user_message(turn)))
    for agent in PIPELINE:
      if rng.random() < 0.5:
        call_id = f'call-{turn}-{agent}'
        add(
            agent,
            'model',
            types.Part(
                function_call=types.FunctionCall(
                    id=call_id, name='_search', args={'query': f'q{turn}'}
                )
            ),
        )
        add(
            agent,
            'user',
            types.Part(
                function_response=types.FunctionResponse(
                    id=call_id,
                    name='_search',
                    response={'result': f'{agent} found ' * 8},
                )
            ),
        )
      add(agent, 'model', types.Part(text=f'{agent} reply {turn}. ' * 6))
  return events[:size]


def _team(recorder: _Recorder | None) -> Any:
  """Planner, researcher (with the search tool), writer: a SequentialAgent.

  Upstream's default history everywhere: the session it builds is the same
  under both installs, and the writer's requests are built from it afterwards
  in each configuration.
  """
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.agents.sequential_agent import SequentialAgent

  agents = [
      LlmAgent(
          name=name,
          model=_scripted_model(name, recorder),
          tools=[_search] if name == 'researcher' else [],
      )
      for name in TEAM
  ]
  return SequentialAgent(name='research_team', sub_agents=agents)


def _writer_source_filters() -> dict[str, Any]:
  """What the request builder reads for the writer in each configuration.

  Each is what the fork's contents processor passes as ``source_filter`` for
  a writer built with those settings (``source_policy_of``): the plain list
  itself, or the windows resolved once when the agent is built.
  """
  from google.adk.agents import SourceWindow
  from google.adk.agents._source_window import source_policy_of
  from google.adk.agents.llm_agent import LlmAgent

  settings = {
      'plain_list': ['user', 'planner', 'researcher'],
      'windows': [
          SourceWindow('user', first=1, last=1),
          SourceWindow('planner', last=1),
          SourceWindow('researcher', final_answers_only=True),
      ],
  }
  return {
      config: source_policy_of(
          LlmAgent(name='writer', model='scripted', include_sources=entries)
      )
      for config, entries in settings.items()
  }


async def _team_session(turns: int) -> tuple[list[Any], str]:
  """Runs the team for `turns` turns; the writer's history at its last request.

  Returns:
    The session's events before the writer's last reply (what its last
    request was built from) and the text of that request's contents, as the
    Runner sent it.
  """
  from google.adk.runners import InMemoryRunner

  recorder = _Recorder(TEAM)
  runner = InMemoryRunner(agent=_team(recorder), app_name=_APP)
  session = await runner.session_service.create_session(
      app_name=_APP, user_id=_USER
  )
  for turn in range(1, turns + 1):
    recorder.turn = turn
    await _run_turns(runner, session.id, turn, 1)
  session = await runner.session_service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  await runner.close()
  events = list(session.events)
  last_reply = max(i for i, e in enumerate(events) if e.author == 'writer')
  return events[:last_reply], recorder.requests['writer'][turns]


def _windows(turns: int, repeats: int, supported: bool) -> dict[str, Any]:
  """The writer's request at the last turn of a long session, per config.

  The session (planner, researcher with a tool, writer) is built once; then
  `_get_contents` builds the writer's request from it in each configuration
  this install supports (upstream, with no ``include_sources``, builds only
  the unfiltered one): its size (characters of the contents, as in
  `request_size`, and the number of contents) and its time, median of
  `repeats` calls each after a `gc.collect()`, as `get_contents` times it.
  Where windows are supported, the times at earlier turns too.
  """
  from google.adk.flows.llm_flows.contents import _get_contents

  history, sent = asyncio.run(_team_session(turns))
  filters: dict[str, Any] = {'unfiltered': None}
  if supported:
    filters.update(_writer_source_filters())
  result: dict[str, Any] = {
      'turns': turns,
      'events': len(history),
      'configs': {},
  }
  for config, source_filter in filters.items():
    kwargs = {'source_filter': source_filter} if source_filter else {}
    call = lambda: _get_contents(None, history, 'writer', **kwargs)
    median_ms, best_ms = _time_ms(call, repeats)
    contents = call()
    result['configs'][config] = {
        'median_ms': median_ms,
        'best_ms': best_ms,
        'contents': len(contents),
        'chars': len(_contents_text(contents)),
        'digest': _digest(contents),
    }
  if supported:
    result['by_turn'] = _windows_by_turn(history, filters, repeats)
  # The history rebuilds the request the Runner sent (none of the writers
  # that built the session filtered).
  result['matches_runner_request'] = (
      _contents_text(_get_contents(None, history, 'writer')) == sent
  )
  return result


_EARLY_TURNS = (1, 5, 10, 20)
"""The earlier turns at which `_windows` also times the writer's request."""


def _windows_by_turn(
    history: list[Any], filters: dict[str, Any], repeats: int
) -> dict[str, Any]:
  """The writer's request at earlier turns of the same session, per config.

  The history before the writer's t-th reply is what its request at turn t
  was built from. Each is timed as the last turn is: `repeats` calls, each
  after a `gc.collect()`.
  """
  from google.adk.flows.llm_flows.contents import _get_contents

  replies = [i for i, event in enumerate(history) if event.author == 'writer']
  by_turn: dict[str, Any] = {}
  for turn in _EARLY_TURNS:
    if turn > len(replies):
      break
    before = history[: replies[turn - 1]]
    figures: dict[str, Any] = {'events': len(before)}
    for config, source_filter in filters.items():
      kwargs = {'source_filter': source_filter} if source_filter else {}
      call = lambda: _get_contents(None, before, 'writer', **kwargs)
      figures[config] = _time_ms(call, repeats)[0]
    by_turn[str(turn)] = figures
  return by_turn


class _FullCollections:
  """While active, counts the full collections that run and their time."""

  def __init__(self) -> None:
    self.count = 0
    self.ms = 0.0
    self._started: float | None = None

  def _callback(self, phase: str, info: dict[str, Any]) -> None:
    if info['generation'] != 2:
      return
    if phase == 'start':
      self._started = time.perf_counter()
    elif self._started is not None:
      self.count += 1
      self.ms += (time.perf_counter() - self._started) * 1_000
      self._started = None

  def __enter__(self) -> _FullCollections:
    gc.callbacks.append(self._callback)
    return self

  def __exit__(self, *exc_info: Any) -> None:
    gc.callbacks.remove(self._callback)


def _time_ms(function: Any, repeats: int) -> tuple[float, float]:
  """The median and the fastest of `repeats` timed calls, in milliseconds."""
  timed = _time_calls(function, repeats)
  return timed['median_ms'], timed['best_ms']


def _time_calls(
    function: Any, repeats: int, *, watch: bool = False, cpu: bool = False
) -> dict[str, Any]:
  """The median and the fastest of `repeats` timed calls, in milliseconds.

  Each call follows a `gc.collect()`, which is not timed. With `watch`, also
  the full collections each call set off: their count and time, medians over
  the calls (the callback that times them runs at every collection, so it is
  left out of the other sizes' calls). With `cpu`, also the median CPU time
  of the calls (on a busy machine, what the call itself cost).
  """
  function()
  samples, counts, collection_ms, cpu_ms = [], [], [], []
  for _ in range(repeats):
    gc.collect()
    with _FullCollections() if watch else contextlib.nullcontext() as seen:
      started, cpu_started = time.perf_counter(), time.process_time()
      function()
      samples.append((time.perf_counter() - started) * 1_000)
      cpu_ms.append((time.process_time() - cpu_started) * 1_000)
    if seen is not None:
      counts.append(seen.count)
      collection_ms.append(seen.ms)
  timed: dict[str, Any] = {
      'median_ms': statistics.median(samples),
      'best_ms': min(samples),
  }
  if cpu:
    timed['cpu_median_ms'] = statistics.median(cpu_ms)
  if watch:
    timed['full_collections'] = {
        'count': statistics.median(counts),
        'ms': statistics.median(collection_ms),
    }
  return timed


def _digest(contents: list[Any]) -> str:
  payload = json.dumps(
      [content.model_dump(mode='json') for content in contents],
      sort_keys=True,
  )
  return hashlib.sha256(payload.encode()).hexdigest()[:16]


_WATCHED_HISTORY = 20_000
"""From this many events on, the full collections of each `_get_contents` call
are timed: there the objects a call returns set one off."""

_ONE_CALL_HISTORY = 50_000
"""From this many events on, `_get_contents` is timed once per round: upstream
takes over five seconds per call there."""


def _get_contents_times(
    sizes: list[int], repeats: int, supported: bool
) -> dict[str, Any]:
  from google.adk.flows.llm_flows.contents import _get_contents

  result: dict[str, Any] = {}
  for size in sizes:
    history = _history(size)
    variants = {'unfiltered': {}}
    if supported:
      variants['user_self'] = {'source_filter': SOURCE_FILTER}
    calls = 1 if size >= _ONE_CALL_HISTORY else repeats
    figures: dict[str, Any] = {}
    for variant, kwargs in variants.items():
      call = lambda: _get_contents(None, history, 'writer', **kwargs)
      figures[variant] = _time_calls(
          call, calls, watch=size >= _WATCHED_HISTORY
      )
      figures[variant]['digest'] = _digest(call())
    result[str(size)] = figures
  return result


def _time_per_event(sizes: list[int]) -> dict[str, Any]:
  """Microseconds per event of back-to-back `_get_contents` calls, GC on.

  The calls run one after another the way a server makes them, with the
  collector left to run when it decides to, so the figure includes the full
  collections that the objects each call keeps alive set off.
  """
  from google.adk.flows.llm_flows.contents import _get_contents

  result: dict[str, Any] = {}
  for size in sizes:
    history = _history(size)
    _get_contents(None, history, 'writer')
    calls = max(3, 20_000 // size)
    gc.collect()
    started = time.perf_counter()
    for _ in range(calls):
      _get_contents(None, history, 'writer')
    elapsed = time.perf_counter() - started
    result[str(size)] = {
        'calls': calls,
        'us_per_event': elapsed / calls / size * 1e6,
    }
  return result


def _peak_memory(size: int) -> dict[str, Any]:
  """Memory one `_get_contents` call allocates at its peak (tracemalloc)."""
  from google.adk.flows.llm_flows.contents import _get_contents

  history = _history(size)
  _get_contents(None, history, 'writer')
  gc.collect()
  tracemalloc.start()
  try:
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    contents = _get_contents(None, history, 'writer')
    peak = tracemalloc.get_traced_memory()[1] - before
  finally:
    tracemalloc.stop()
  return {'events': size, 'contents': len(contents), 'peak_mib': peak / 2**20}


async def _late_turn_rates(
    configs: list[str], turn: int, sessions: int
) -> dict[str, dict[str, float]]:
  """Turns per second of the pipeline's `turn`-th turn in a conversation.

  Each session runs the turns before `turn` untimed, collects garbage so the
  timed turn does not pay for theirs, then times `turn`; a configuration's
  figure is one over the median of its sessions' times. The configurations
  (each with its own Runner) take turns session by session, in the given
  order and then reversed (ABC, CBA, ...), so that none of them always runs
  in a younger or an older process.
  """
  from google.adk.runners import InMemoryRunner

  runners, run_configs = {}, {}
  for config in configs:
    pipeline = 'default' if config == 'filter' else config
    runners[config] = InMemoryRunner(
        agent=_pipeline(pipeline, None), app_name=_APP
    )
    if config == 'filter':
      from google.adk.agents.run_config import RunConfig

      run_configs[config] = RunConfig(visibility_mode='filter')
  walls: dict[str, list[float]] = {config: [] for config in configs}
  cpus: dict[str, list[float]] = {config: [] for config in configs}
  for index in range(sessions):
    for config in configs if index % 2 == 0 else configs[::-1]:
      runner, run_config = runners[config], run_configs.get(config)
      session = await runner.session_service.create_session(
          app_name=_APP, user_id=_USER
      )
      await _run_turns(runner, session.id, 1, turn - 1, run_config)
      gc.collect()
      started, cpu_started = time.perf_counter(), time.process_time()
      await _run_turns(runner, session.id, turn, 1, run_config)
      walls[config].append(time.perf_counter() - started)
      cpus[config].append(time.process_time() - cpu_started)
  for runner in runners.values():
    await runner.close()
  return {
      config: {
          'turn': turn,
          'sessions': sessions,
          'wall_s': statistics.median(walls[config]),
          'cpu_s': statistics.median(cpus[config]),
          'turns_per_s': 1 / statistics.median(walls[config]),
      }
      for config in configs
  }


def _user_view_times(sizes: list[int], repeats: int) -> dict[str, Any]:
  """`user_view` over a stored session of each size, per event (fork only).

  The session is the benchmark's (`_history`) with the internal agents'
  events marked as the fork's Runner marks them; timed like `_get_contents`.
  """
  from google.adk.events.user_view import user_view

  result: dict[str, Any] = {}
  for size in sizes:
    history = _history(size, internal=True)
    median_ms, best_ms = _time_ms(lambda: user_view(history), repeats)
    damaged = _damaged(history)
    try:
      damaged_ms: float | None = _time_ms(lambda: user_view(damaged), repeats)[
          0
      ]
    except TypeError:
      # Builds before the records were read failed closed raise on them.
      damaged_ms = None
    shown = user_view(history)
    result[str(size)] = {
        'median_ms': median_ms,
        'best_ms': best_ms,
        'damaged_median_ms': damaged_ms,
        'us_per_event': median_ms * 1_000 / size,
        'internal_events': sum(not e.is_user_facing for e in history),
        'shown_events': len(shown),
        'shown_with_internal_text': sum(
            1
            for e in shown
            if not e.is_user_facing
            and e.content
            and any(p.text for p in e.content.parts or [])
        ),
    }
  return result


def _damaged(history: list[Any]) -> list[Any]:
  """The session with every event's visibility records damaged.

  Each kind a stored row can hold by mistake: levels that are a list, a
  state record of objects, agent calls that are a string, nested runs that
  are a list. The view reads them failed closed; this times that reading.
  """
  damaged = []
  for event in history:
    metadata = dict(event.custom_metadata or {})
    metadata['__adk_internal_visibility'] = {
        'tools': ['not', 'a', 'mapping'],
        'state': [{'key': 'value'}],
        'agents': 'c1',
        'nested': [1, 2],
    }
    damaged.append(event.model_copy(update={'custom_metadata': metadata}))
  return damaged


def _since_typed(contents: list[Any]) -> list[Any]:
  """The contents after the last message the user typed (this turn's)."""
  typed = [
      i
      for i, content in enumerate(contents)
      if content.role == 'user' and any(p.text for p in content.parts or [])
  ]
  return contents[typed[-1] + 1 :] if typed else list(contents)


def _nested_model(agent: str, requests: list[Any] | None) -> Any:
  """A zero-latency model for the nested-progress app's `agent`.

  The assistant calls the researcher, then answers from its result; the
  researcher (run by an ``AgentTool``) searches `_RESEARCH_STEPS` times,
  then answers. With `requests`, every request is recorded in it.
  """
  from google.adk.models.base_llm import BaseLlm
  from google.adk.models.llm_response import LlmResponse
  from google.genai import types

  class NestedScriptedModel(BaseLlm):
    """Answers at once, from what this turn's contents hold so far."""

    model: str = 'scripted'

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
      del stream
      if requests is not None:
        requests.append((agent, llm_request))
      turn = _since_typed(llm_request.contents)
      if agent == 'researcher':
        searches = sum(
            1
            for content in turn
            for part in content.parts or []
            if part.function_response
        )
        if searches < _RESEARCH_STEPS:
          part = types.Part(
              function_call=types.FunctionCall(
                  name='_search', args={'query': f'lead {searches + 1}'}
              )
          )
        else:
          part = types.Part(text=_prose(f'researcher:{searches}', 900))
      elif _answers_tool(llm_request.contents):
        part = types.Part(text=_prose('assistant', 600))
      else:
        part = types.Part(
            function_call=types.FunctionCall(
                name='researcher',
                args={'request': 'Find options that fit the brief.'},
            )
        )
      yield LlmResponse(content=types.ModelContent(parts=[part]))

  return NestedScriptedModel()


def _nested_app(requests: list[Any] | None = None) -> Any:
  """An assistant that calls an ``AgentTool`` researcher, then answers."""
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.tools.agent_tool import AgentTool

  researcher = LlmAgent(
      name='researcher',
      description='Researches travel options.',
      model=_nested_model('researcher', requests),
      instruction='Search for options, then summarise what you found.',
      tools=[_search],
  )
  return LlmAgent(
      name='assistant',
      model=_nested_model('assistant', requests),
      instruction='Answer the customer; ask the researcher for options.',
      tools=[AgentTool(researcher)],
  )


def _nested_run_configs(supported: bool) -> dict[str, Any]:
  """The Runner configurations `nested_progress` times on this install."""
  if not supported:
    return {'upstream': None}
  from google.adk.agents.run_config import RunConfig

  return {
      'hidden': RunConfig(visibility_mode='filter'),
      'minimal': RunConfig(visibility_mode='filter', nested_progress='minimal'),
  }


async def _nested_turns(
    runner: Any, session_id: str, count: int, run_config: Any
) -> int:
  """Runs `count` turns, reading every event; returns the progress events."""
  from google.genai import types

  extra = {'run_config': run_config} if run_config is not None else {}
  progress = 0
  for turn in range(1, count + 1):
    message = types.UserContent(parts=[types.Part(text=_user_message(turn))])
    async for event in runner.run_async(
        user_id=_USER, session_id=session_id, new_message=message, **extra
    ):
      if event.custom_metadata and 'adk_progress' in event.custom_metadata:
        progress += 1
  return progress


_ADK_ID = re.compile(
    r'adk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
)


def _requests_digest(requests: list[Any]) -> str:
  """A digest of recorded requests: each agent's contents and instruction.

  Function call ids are random, so each is replaced by its order of first
  appearance before hashing.
  """
  payload = json.dumps(
      [
          {
              'agent': agent,
              'instruction': str(request.config.system_instruction),
              'contents': [
                  content.model_dump(mode='json', exclude_none=True)
                  for content in request.contents
              ],
          }
          for agent, request in requests
      ],
      sort_keys=True,
  )
  ids: dict[str, str] = {}
  payload = _ADK_ID.sub(
      lambda match: ids.setdefault(match.group(), f'call-{len(ids)}'), payload
  )
  return hashlib.sha256(payload.encode()).hexdigest()[:16]


# Fields no two runs share (random ids, times) and the fork's own stored
# field, which upstream has no place for.
_EVENT_FIELDS_LEFT_OUT = {'id', 'timestamp', 'invocation_id', 'visibility'}


def _events_digest(events: list[Any]) -> str:
  """A digest of stored events: every field both installs store.

  Ids, times and invocation ids are random or clock-bound and left out, and
  so is the fork's `visibility`; function call ids are replaced by their
  order of first appearance, as in `_requests_digest`.
  """
  payload = json.dumps(
      [
          event.model_dump(
              mode='json', exclude_none=True, exclude=_EVENT_FIELDS_LEFT_OUT
          )
          for event in events
      ],
      sort_keys=True,
  )
  ids: dict[str, str] = {}
  payload = _ADK_ID.sub(
      lambda match: ids.setdefault(match.group(), f'call-{len(ids)}'), payload
  )
  return hashlib.sha256(payload.encode()).hexdigest()[:16]


async def _nested_progress_times(turns: int, supported: bool) -> dict[str, Any]:
  """Runner turn time of the nested-progress app, per configuration.

  Each configuration has its own Runner and runs one turn untimed first.
  Then conversations of `_SESSION_TURNS` turns are timed, the configurations
  taking turns conversation by conversation, in order and then reversed, so
  that drift in the process or the machine falls on both; a
  `gc.collect()` precedes each conversation. Before timing, two turns of
  each configuration run with every model request recorded: their digest
  says whether streaming the researcher's work changed any request.
  """
  from google.adk.runners import InMemoryRunner

  run_configs = _nested_run_configs(supported)
  configs = list(run_configs)
  digests = {}
  for config, run_config in run_configs.items():
    requests: list[Any] = []
    runner = InMemoryRunner(agent=_nested_app(requests), app_name=_APP)
    session = await runner.session_service.create_session(
        app_name=_APP, user_id=_USER
    )
    await _nested_turns(runner, session.id, 2, run_config)
    await runner.close()
    digests[config] = _requests_digest(requests)

  runners = {
      config: InMemoryRunner(agent=_nested_app(), app_name=_APP)
      for config in configs
  }

  async def new_session(config: str) -> str:
    session = await runners[config].session_service.create_session(
        app_name=_APP, user_id=_USER
    )
    return session.id

  for config in configs:
    # The first turn pays for lazy imports and caches.
    await _nested_turns(
        runners[config], await new_session(config), 1, run_configs[config]
    )
  walls = {config: 0.0 for config in configs}
  cpus = {config: 0.0 for config in configs}
  progress = {config: 0 for config in configs}
  done = 0
  index = 0
  while done < turns:
    count = min(_SESSION_TURNS, turns - done)
    for config in configs if index % 2 == 0 else configs[::-1]:
      session_id = await new_session(config)
      gc.collect()
      started, cpu_started = time.perf_counter(), time.process_time()
      progress[config] += await _nested_turns(
          runners[config], session_id, count, run_configs[config]
      )
      walls[config] += time.perf_counter() - started
      cpus[config] += time.process_time() - cpu_started
    done += count
    index += 1
  for runner in runners.values():
    await runner.close()
  return {
      config: {
          'turns': turns,
          'steps': _RESEARCH_STEPS,
          'wall_s': walls[config],
          'cpu_s': cpus[config],
          'ms_per_turn': walls[config] * 1_000 / turns,
          'turns_per_s': turns / walls[config],
          'progress_events': progress[config],
          'requests_digest': digests[config],
      }
      for config in configs
  }


def _client_answer(call: Any) -> Any:
  """The client's answer to its tool's call: the user confirms."""
  from google.genai import types

  return types.UserContent(
      parts=[
          types.Part(
              function_response=types.FunctionResponse(
                  id=call.id, name=call.name, response={'answer': 'yes'}
              )
          )
      ]
  )


async def _conversation_turn() -> list[Any]:
  """One stored turn of the composite-message app (fork only).

  The assistant calls an ``AgentTool`` researcher (which searches
  `_RESEARCH_STEPS` times), a ``'minimal'`` account tool, a ``'hidden'``
  audit tool and a tool the client answers (long-running), then answers,
  run in filter mode with ``nested_progress='minimal'``, so the researcher's
  run is recorded with its response. The client's answer continues the turn.
  Returns the session's events.
  """
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.agents.run_config import RunConfig
  from google.adk.models.base_llm import BaseLlm
  from google.adk.models.llm_response import LlmResponse
  from google.adk.runners import InMemoryRunner
  from google.adk.tools.agent_tool import AgentTool
  from google.adk.tools.function_tool import FunctionTool
  from google.adk.tools.long_running_tool import LongRunningFunctionTool
  from google.genai import types

  def lookup_account(user: str) -> dict[str, str]:
    """Looks up the customer's account."""
    return {'tier': 'gold', 'user': user}

  def audit(note: str) -> dict[str, str]:
    """Writes an audit note."""
    return {'audit': 'noted', 'note': note}

  def ask_user_to_confirm(question: str) -> None:
    """Asks the customer, in the client, to confirm."""
    del question

  def call(name: str, **args: Any) -> types.Part:
    return types.Part(function_call=types.FunctionCall(name=name, args=args))

  script = [
      call('researcher', request='Find options that fit the brief.'),
      call('lookup_account', user='u1'),
      call('audit', note='researched'),
      call('ask_user_to_confirm', question='Book the ferry?'),
      types.Part(text=_prose('assistant', 600)),
  ]

  class AssistantModel(BaseLlm):
    """Works through `script`, one reply per request of the turn."""

    model: str = 'scripted'

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
      del stream
      turn = _since_typed(llm_request.contents)
      replies = sum(1 for content in turn if content.role == 'model')
      part = script[min(replies, len(script) - 1)]
      yield LlmResponse(content=types.ModelContent(parts=[part]))

  researcher = LlmAgent(
      name='researcher',
      description='Researches travel options.',
      model=_nested_model('researcher', None),
      tools=[_search],
  )
  account = FunctionTool(lookup_account)
  account.user_visibility = 'minimal'
  audit_tool = FunctionTool(audit)
  audit_tool.user_visibility = 'hidden'
  assistant = LlmAgent(
      name='assistant',
      model=AssistantModel(),
      tools=[
          AgentTool(researcher),
          account,
          audit_tool,
          LongRunningFunctionTool(ask_user_to_confirm),
      ],
  )
  runner = InMemoryRunner(agent=assistant, app_name=_APP)
  session = await runner.session_service.create_session(
      app_name=_APP, user_id=_USER
  )
  run_config = RunConfig(visibility_mode='filter', nested_progress='minimal')
  asked = None
  async for event in runner.run_async(
      user_id=_USER,
      session_id=session.id,
      new_message=types.UserContent(parts=[types.Part(text=_user_message(1))]),
      run_config=run_config,
  ):
    for function_call in event.get_function_calls():
      if function_call.name == 'ask_user_to_confirm':
        asked = function_call
  assert asked is not None, 'the assistant did not call the client tool'
  async for _ in runner.run_async(
      user_id=_USER,
      session_id=session.id,
      new_message=_client_answer(asked),
      run_config=run_config,
  ):
    pass
  stored = await runner.session_service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  await runner.close()
  return list(stored.events)


def _conversation(turn: list[Any], size: int) -> list[Any]:
  """A stored conversation of `size` events: `turn` repeated with new ids.

  Each copy gets its own event, invocation and function call ids (also where
  the visibility metadata names them) and its own user message.
  """
  from google.adk.events.event import Event
  import pydantic

  ids = set()
  for event in turn:
    ids.update((event.id, event.invocation_id))
    for part in (event.content.parts if event.content else None) or []:
      if part.function_call and part.function_call.id:
        ids.add(part.function_call.id)
      if part.function_response and part.function_response.id:
        ids.add(part.function_response.id)
  ids.discard('')
  first = _user_message(1)
  template = json.dumps([event.model_dump(mode='json') for event in turn])
  adapter = pydantic.TypeAdapter(list[Event])
  events: list[Any] = []
  copy = 0
  while len(events) < size:
    copy += 1
    text = template.replace(first, _user_message(copy))
    for old in ids:
      text = text.replace(old, f'{old}-{copy}')
    events.extend(adapter.validate_json(text))
  for index, event in enumerate(events):
    event.timestamp = 1_000.0 + index
  return events[:size]


def _user_messages_times(sizes: list[int], repeats: int) -> dict[str, Any]:
  """`user_messages` over a stored conversation of each size (fork only).

  The conversation repeats one stored turn of the composite-message app
  (`_conversation_turn`); timed like `user_view`.
  """
  from google.adk.events.user_messages import user_messages

  turn = asyncio.run(_conversation_turn())
  result: dict[str, Any] = {'turn_events': len(turn)}
  for size in sizes:
    history = _conversation(turn, size)
    timed = _time_calls(lambda: user_messages(history), repeats, cpu=True)
    messages = user_messages(history)
    parts = [part for message in messages for part in message.parts]
    kinds: dict[str, int] = {}
    for part in parts:
      kinds[part.type] = kinds.get(part.type, 0) + 1
    result[str(size)] = {
        'median_ms': timed['median_ms'],
        'best_ms': timed['best_ms'],
        'cpu_ms': timed['cpu_median_ms'],
        'us_per_event': timed['median_ms'] * 1_000 / size,
        'messages': len(messages),
        'assistant_messages': sum(m.role == 'assistant' for m in messages),
        'parts': kinds,
        'client_cards': sum(
            1 for part in parts if part.tool is not None and part.tool.client
        ),
        'recorded_steps': sum(
            len(part.agent.steps) for part in parts if part.agent is not None
        ),
        'hidden_shown': sum(
            1
            for part in parts
            if part.tool is not None and part.tool.name == 'audit'
        ),
    }
  return result


LONG_SESSION_APPS = ('pipeline', 'team')
"""The apps of the long-session measure: the benchmark's 4-agent pipeline and
a 3-agent LLM-transfer team (`_transfer_team`)."""

LONG_SESSION_STORES = ('memory', 'sqlite')
"""Session services of the long-session measure: ``InMemorySessionService``
and ``DatabaseSessionService`` on a SQLite file (aiosqlite)."""

TRANSFER_TEAM = ('coordinator', 'booker', 'info')
"""The transfer team: the coordinator hands the user to the booker or to
info, which hand the user to each other as the conversation turns."""

_TRANSFER_REPLY_CHARS = {'booker': 700, 'info': 500}


def _long_window(turn: int) -> int:
  """How many turns before `turn` its amortized figure averages over."""
  return max(3, turn // 10)


class _Capture(_Recorder):
  """Keeps the model requests of the turns it is told to, and nothing else.

  Recording must cost nothing in the timed turns: it keeps a reference to
  each request (no copy, no text) and only while `requests_seen` is a list.
  """

  def __init__(self) -> None:
    super().__init__(())
    self.requests_seen: list[tuple[str, Any]] | None = None

  def record(self, agent: str, request: Any) -> None:
    if self.requests_seen is not None:
      self.requests_seen.append((agent, request))


def _wants_info(turn: int) -> bool:
  """Whether the user's message at `turn` is a question for info."""
  return turn % 4 == 3


def _transfer_model(agent: str, capture: _Capture) -> Any:
  """A zero-latency model for a member of the transfer team.

  The coordinator hands each turn on; the booker answers booking messages and
  hands questions to info; info answers questions and hands booking messages
  back, so the conversation moves between the two as README's team does.
  """
  from google.adk.models.base_llm import BaseLlm
  from google.adk.models.llm_response import LlmResponse
  from google.genai import types

  class TransferModel(BaseLlm):
    """Answers at once, or transfers the user to whoever should answer."""

    model: str = 'scripted'

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
      del stream
      capture.record(agent, llm_request)
      turn = capture.turn
      wanted = 'info' if _wants_info(turn) else 'booker'
      if agent != wanted:
        part = types.Part(
            function_call=types.FunctionCall(
                name='transfer_to_agent', args={'agent_name': wanted}
            )
        )
      else:
        part = types.Part(
            text=_prose(f'{agent}:{turn}', _TRANSFER_REPLY_CHARS[agent])
        )
      yield LlmResponse(content=types.ModelContent(parts=[part]))

  return TransferModel()


def _transfer_team(capture: _Capture) -> Any:
  """A coordinator with the booker and info as sub-agents (LLM transfer)."""
  from google.adk.agents.llm_agent import LlmAgent

  booker = LlmAgent(
      name='booker',
      model=_transfer_model('booker', capture),
      description='Books tables.',
      instruction='Book tables for the customer.',
  )
  info = LlmAgent(
      name='info',
      model=_transfer_model('info', capture),
      description='Answers questions about the restaurant.',
      instruction='Answer questions about the restaurant.',
  )
  return LlmAgent(
      name='coordinator',
      model=_transfer_model('coordinator', capture),
      instruction='Hand the customer to booker or to info.',
      sub_agents=[booker, info],
  )


class _Collections:
  """While active, the garbage collector's runs: count per generation, and
  the CPU time of the thread that ran them (the collector holds the GIL)."""

  def __init__(self) -> None:
    self.counts = [0, 0, 0]
    self.cpu_s = 0.0
    self._started: float | None = None

  def _callback(self, phase: str, info: dict[str, Any]) -> None:
    if phase == 'start':
      self._started = time.thread_time()
    elif self._started is not None:
      self.counts[info['generation']] += 1
      self.cpu_s += time.thread_time() - self._started
      self._started = None

  def __enter__(self) -> _Collections:
    gc.callbacks.append(self._callback)
    return self

  def __exit__(self, *exc_info: Any) -> None:
    gc.callbacks.remove(self._callback)


def _wire_floor(requests: list[tuple[str, Any]]) -> dict[str, Any]:
  """What serializing the turn's model requests costs: the floor.

  Each request's contents and config (what goes on the wire) through
  ``model_dump(mode='json', exclude_none=True)`` and ``json.dumps``; CPU time,
  median of 3 calls in a row, right after the checkpoint's turn (a
  `gc.collect()` before each would cost more than the calls in a smoke run).
  """

  def serialize() -> int:
    size = 0
    for _, request in requests:
      size += len(
          json.dumps({
              'contents': [
                  content.model_dump(mode='json', exclude_none=True)
                  for content in request.contents
              ],
              'config': request.config.model_dump(
                  mode='json', exclude_none=True
              ),
          })
      )
    return size

  cpu_ms = []
  for _ in range(3):
    cpu_started = time.process_time()
    serialize()
    cpu_ms.append((time.process_time() - cpu_started) * 1_000)
  return {
      'cpu_ms': statistics.median(cpu_ms),
      'requests': len(requests),
      'contents': sum(len(request.contents) for _, request in requests),
      'json_chars': serialize(),
  }


def _long_session_service(store: str, folder: str) -> Any:
  if store == 'memory':
    from google.adk.sessions.in_memory_session_service import InMemorySessionService

    return InMemorySessionService()
  from google.adk.sessions.database_session_service import DatabaseSessionService

  return DatabaseSessionService(f'sqlite+aiosqlite:///{folder}/sessions.db')


async def _long_session(
    app: str, store: str, checkpoints: list[int]
) -> dict[str, Any]:
  """CPU time per turn of one conversation of `app`, at each checkpoint.

  One session runs turns 1 to the last checkpoint. Before each checkpoint T,
  the `_long_window(T)` turns up to T - 1 are timed together with the garbage
  collector left alone, as a server runs them (**amortized**, GC counted;
  the collector's own share timed through ``gc.callbacks``); then, after a
  `gc.collect()`, turn T alone (the **checkpoint**, the convention of
  ``late_turn``), whose model requests are kept to time the wire floor and
  to digest them (random function call ids replaced by their order).
  """
  import tempfile

  from google.adk.runners import Runner
  from google.genai import types

  capture = _Capture()
  agent = (
      _transfer_team(capture)
      if app == 'team'
      else _pipeline('default', capture)
  )
  result: dict[str, Any] = {}
  with tempfile.TemporaryDirectory() as folder:
    service = _long_session_service(store, folder)
    runner = Runner(app_name=_APP, agent=agent, session_service=service)
    session = await service.create_session(app_name=_APP, user_id=_USER)

    async def turn(number: int) -> None:
      capture.turn = number
      message = types.UserContent(
          parts=[types.Part(text=_user_message(number))]
      )
      async for _ in runner.run_async(
          user_id=_USER, session_id=session.id, new_message=message
      ):
        pass

    done = 0
    for checkpoint in checkpoints:
      window = min(_long_window(checkpoint), checkpoint - 1 - done)
      while done < checkpoint - 1 - window:
        done += 1
        await turn(done)
      with _Collections() as collections:
        cpu_started = time.process_time()
        for _ in range(window):
          done += 1
          await turn(done)
        cpu_s = time.process_time() - cpu_started
      gc.collect()
      capture.requests_seen = []
      cpu_started = time.process_time()
      done += 1
      await turn(done)
      checkpoint_cpu_s = time.process_time() - cpu_started
      requests, capture.requests_seen = capture.requests_seen, None
      stored = await service.get_session(
          app_name=_APP, user_id=_USER, session_id=session.id
      )
      result[str(checkpoint)] = {
          'window_turns': window,
          'amortized_ms': cpu_s * 1_000 / max(window, 1),
          'gc_ms': collections.cpu_s * 1_000 / max(window, 1),
          'collections': collections.counts,
          'checkpoint_ms': checkpoint_cpu_s * 1_000,
          'events': len(stored.events),
          'floor': _wire_floor(requests),
          'requests_digest': _requests_digest(requests),
          'events_digest': _events_digest(stored.events),
          'state_digest': (
              hashlib.sha256(
                  json.dumps(stored.state, sort_keys=True, default=str).encode()
              ).hexdigest()[:16]
          ),
      }
      del requests, stored
    await runner.close()
  return result


def _long_sessions(checkpoints: list[int]) -> dict[str, Any]:
  """`_long_session` for every app and session service, each in its own loop."""
  return {
      f'{app}/{store}': asyncio.run(_long_session(app, store, checkpoints))
      for app in LONG_SESSION_APPS
      for store in LONG_SESSION_STORES
  }


def info() -> dict[str, Any]:
  """Which google.adk this interpreter imports, and what it supports."""
  import importlib.metadata
  import importlib.util

  import google.adk
  from google.adk.agents.llm_agent import LlmAgent
  from google.adk.agents.run_config import RunConfig

  try:
    from google.adk import fork_info

    is_fork = fork_info.is_fork()
  except ImportError:
    is_fork = None
  return {
      'python': sys.executable,
      'python_version': sys.version.split()[0],
      'adk_version': importlib.metadata.version('google-adk'),
      'adk_file': google.adk.__file__,
      'has_fork_info': is_fork is not None,
      'is_fork': bool(is_fork),
      'supports_include_sources': 'include_sources' in LlmAgent.model_fields,
      'supports_visibility_mode': 'visibility_mode' in RunConfig.model_fields,
      'supports_user_view': (
          importlib.util.find_spec('google.adk.events.user_view') is not None
      ),
      'supports_source_windows': (
          importlib.util.find_spec('google.adk.agents._source_window')
          is not None
      ),
      'supports_nested_progress': 'nested_progress' in RunConfig.model_fields,
      'supports_user_messages': (
          importlib.util.find_spec('google.adk.events.user_messages')
          is not None
      ),
      'pydantic_version': importlib.metadata.version('pydantic'),
      # What else is installed: the two sides are compared with only
      # google-adk differing.
      'distributions': sorted(
          f'{dist.metadata["Name"]}=={dist.version}'
          for dist in importlib.metadata.distributions()
          if (dist.metadata['Name'] or '').lower() != 'google-adk'
      ),
  }


def measure(args: argparse.Namespace) -> dict[str, Any]:
  """Runs the measurements `args.only` names; fork-only ones when supported."""
  about = info()
  supported = about['supports_include_sources']
  configs = [c for c in CONFIGS if supported or c != 'include_sources']
  late_configs = [
      c
      for c in LATE_TURN_CONFIGS
      if (supported or c != 'include_sources')
      and (about['supports_visibility_mode'] or c != 'filter')
  ]
  only = set(args.only)
  result: dict[str, Any] = {'info': about}
  # Timed first, so both installs time it in the same process state.
  if 'get_contents' in only:
    result['get_contents'] = _get_contents_times(
        args.events, args.repeats, supported
    )
  if 'request_size' in only:
    result['request_size'] = {
        config: asyncio.run(_request_sizes(config, args.turns))
        for config in configs
    }
  if 'throughput' in only:
    result['throughput'] = {
        config: asyncio.run(_throughput(config, args.throughput_turns))
        for config in configs
        if config != 'none'
    }
  if 'time_per_event' in only:
    result['time_per_event'] = _time_per_event(args.flat_events)
  if 'peak_memory' in only:
    result['peak_memory'] = _peak_memory(args.memory_events)
  if 'late_turn' in only:
    result['late_turn'] = asyncio.run(
        _late_turn_rates(late_configs, args.late_turn, args.late_sessions)
    )
  if 'user_view' in only and about['supports_user_view']:
    result['user_view'] = _user_view_times(
        args.user_view_events, args.user_view_repeats
    )
  if 'windows' in only:
    result['windows'] = _windows(
        args.windows_turns,
        args.windows_repeats,
        about['supports_source_windows'],
    )
  if 'nested_progress' in only:
    result['nested_progress'] = asyncio.run(
        _nested_progress_times(
            args.nested_turns, about['supports_nested_progress']
        )
    )
  if 'user_messages' in only and about['supports_user_messages']:
    result['user_messages'] = _user_messages_times(
        args.user_messages_events, args.user_messages_repeats
    )
  if 'long_session' in only:
    result['long_session'] = _long_sessions(args.long_turns)
  return result


def _sizes(text: str) -> list[int]:
  return [int(size) for size in text.split(',') if size]


def _names(text: str) -> list[str]:
  names = [name for name in text.split(',') if name]
  unknown = sorted(set(names) - set(MEASUREMENTS))
  if unknown:
    raise argparse.ArgumentTypeError(
        f'unknown measurement(s) {", ".join(unknown)}; known:'
        f' {", ".join(MEASUREMENTS)}'
    )
  return names


def main() -> None:
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument('--info', action='store_true')
  parser.add_argument('--events', type=_sizes, default=[1_000, 5_000, 10_000])
  parser.add_argument('--repeats', type=int, default=5)
  parser.add_argument('--turns', type=int, default=20)
  parser.add_argument('--throughput-turns', type=int, default=40)
  parser.add_argument('--flat-events', type=_sizes, default=[1_000, 20_000])
  parser.add_argument('--memory-events', type=int, default=10_000)
  parser.add_argument('--late-turn', type=int, default=40)
  parser.add_argument('--late-sessions', type=int, default=4)
  parser.add_argument(
      '--user-view-events', type=_sizes, default=[1_000, 5_000, 10_000]
  )
  parser.add_argument('--user-view-repeats', type=int, default=9)
  parser.add_argument('--windows-turns', type=int, default=40)
  parser.add_argument('--windows-repeats', type=int, default=15)
  parser.add_argument('--nested-turns', type=int, default=200)
  parser.add_argument(
      '--user-messages-events', type=_sizes, default=[1_000, 5_000, 10_000]
  )
  parser.add_argument('--user-messages-repeats', type=int, default=9)
  parser.add_argument('--long-turns', type=_sizes, default=[10, 50, 100, 200])
  parser.add_argument('--only', type=_names, default=list(MEASUREMENTS))
  args = parser.parse_args()
  logging.getLogger('google_adk').setLevel(logging.ERROR)
  warnings.simplefilter('ignore')
  print(json.dumps(info() if args.info else measure(args)))


if __name__ == '__main__':
  main()
