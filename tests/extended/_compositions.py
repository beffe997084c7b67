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

"""Random compositions of every kind ADK offers an app, as JSON specs.

A spec is a plain dict, so the same composition can be built in this process
and in another interpreter (pristine upstream): ``specs()`` is the
Hypothesis strategy, ``build(spec)`` the app, and run as a script this
module is a worker that reads one spec per line of stdin, runs one turn and
writes what the turn yielded and what each model was asked, one JSON line
per spec.

Kinds: ``agent`` (replies with a word naming it; in a loop it may call
``exit_loop``, with or without words beside the call), ``checker`` (a
custom agent that says nothing and escalates on its second pass),
``sequence``, ``parallel``, ``loop``, ``tool`` (an agent that calls its
first child as an ``AgentTool``, then answers), ``custom`` (a custom agent
that runs its children in order and stops when the first child's reply is
``'stop'``), ``flow`` (a ``Workflow`` of agents and function nodes ending
on text, a number or a dict). Each may carry a ``visibility``, which an
interpreter without the fork's keyword ignores.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import importlib.util
import itertools
import json
import pathlib
import sys
from typing import Any
import warnings

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types

# The shared scripted model is in tests/, which pytest puts on sys.path; a
# worker run as a script has only this folder there.
_TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
  sys.path.insert(0, _TESTS)
from _scripted import contents_json  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import ScriptedLlm  # pylint: disable=g-import-not-at-top,wrong-import-position

FORK = importlib.util.find_spec('google.adk.fork_info') is not None
"""Whether this interpreter runs the fork (which takes ``visibility``)."""

_VISIBILITIES = [None, None, None, 'user', 'internal']


def specs() -> Any:
  """The Hypothesis strategy of specs (imported here: a worker needs none)."""
  from hypothesis import strategies as st

  visibility = st.sampled_from(_VISIBILITIES)
  agent = st.fixed_dictionaries({
      'kind': st.just('agent'),
      'visibility': visibility,
      'ends_loop': st.booleans(),
      'words_beside_exit': st.booleans(),
  })
  checker = st.fixed_dictionaries(
      {'kind': st.just('checker'), 'visibility': visibility}
  )
  leaves = st.one_of(agent, agent, checker)
  trees = st.recursive(
      leaves,
      lambda children: st.fixed_dictionaries({
          'kind': st.sampled_from(
              ['sequence', 'parallel', 'loop', 'tool', 'custom']
          ),
          'children': st.lists(children, min_size=1, max_size=3),
          'visibility': visibility,
      }),
      max_leaves=6,
  )
  function = st.fixed_dictionaries({
      'kind': st.just('function'),
      'returns': st.sampled_from(['text', 'number', 'dict']),
      'visibility': visibility,
  })
  flows = st.fixed_dictionaries({
      'kind': st.just('flow'),
      'steps': st.lists(st.one_of(agent, function), min_size=1, max_size=3),
      'visibility': visibility,
  })
  return st.one_of(trees, flows)


class Checker(BaseAgent):
  """Says nothing; escalates on its second pass."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    key = f'{self.name}_passes'
    passes = ctx.session.state.get(key, 0)
    yield Event(
        author=self.name,
        invocation_id=ctx.invocation_id,
        actions=EventActions(
            escalate=bool(passes), state_delta={key: passes + 1}
        ),
    )


class Orchestrator(BaseAgent):
  """Runs its sub-agents in order; stops when the first one says 'stop'."""

  label_key: str = ''

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    first, *rest = self.sub_agents
    async for event in first.run_async(ctx):
      yield event
    if ctx.session.state.get(self.label_key) == 'stop':
      return
    for agent in rest:
      async for event in agent.run_async(ctx):
        yield event


class _Builder:
  """Builds a fresh app from a spec; every agent's reply names it."""

  def __init__(self, with_visibility: bool) -> None:
    self._count = itertools.count()
    self._with_visibility = with_visibility

  def _name(self, kind: str) -> str:
    return f'{kind}_{next(self._count)}'

  def _visibility(self, spec: dict[str, Any]) -> dict[str, Any]:
    if self._with_visibility and spec.get('visibility') is not None:
      return {'visibility': spec['visibility']}
    return {}

  def build(self, spec: dict[str, Any], in_loop: bool = False) -> Any:
    kind = spec['kind']
    if kind == 'agent':
      return self._agent(spec, in_loop)
    if kind == 'checker':
      return Checker(name=self._name('checker'), **self._visibility(spec))
    if kind == 'flow':
      return self._flow(spec)
    children = [
        self.build(child, in_loop or kind == 'loop')
        for child in spec['children']
    ]
    name = self._name(kind)
    extra = self._visibility(spec)
    with warnings.catch_warnings():
      warnings.simplefilter('ignore', DeprecationWarning)
      if kind == 'sequence':
        return SequentialAgent(name=name, sub_agents=children, **extra)
      if kind == 'parallel':
        return ParallelAgent(name=name, sub_agents=children, **extra)
      if kind == 'loop':
        return LoopAgent(
            name=name, sub_agents=children, max_iterations=2, **extra
        )
      if kind == 'custom':
        return Orchestrator(
            name=name,
            sub_agents=children,
            label_key=getattr(children[0], 'output_key', None) or '',
            **extra,
        )
    inner = children[0]
    return LlmAgent(
        name=name,
        model=ScriptedLlm(
            script=[
                types.FunctionCall(name=inner.name, args={'request': 'go'}),
                f'said-by-{name}',
            ]
        ),
        tools=[AgentTool(inner)],
        **extra,
    )

  def _agent(self, spec: dict[str, Any], in_loop: bool) -> LlmAgent:
    name = self._name('agent')
    words = f'said-by-{name}'
    script: list[Any] = [words]
    tools: list[Any] = []
    if in_loop and spec['ends_loop']:
      call = types.FunctionCall(name='exit_loop', args={})
      tools = [exit_loop]
      if spec['words_beside_exit']:
        both = [types.Part(text=words), types.Part(function_call=call)]
        script = [LlmResponse(content=types.ModelContent(parts=both)), words]
      else:
        script = [call, words]
    return LlmAgent(
        name=name,
        model=ScriptedLlm(script=script),
        tools=tools,
        output_key=f'{name}_reply',
        **self._visibility(spec),
    )

  def _flow(self, spec: dict[str, Any]) -> Workflow:
    nodes = [
        self._agent(step, in_loop=False)
        if step['kind'] == 'agent'
        else self._function(step)
        for step in spec['steps']
    ]
    return Workflow(
        name=self._name('flow'),
        edges=[(START, *nodes)],
        **self._visibility(spec),
    )

  def _function(self, spec: dict[str, Any]) -> FunctionNode:
    name = self._name('node')
    value: Any = {
        'text': f'said-by-{name}',
        'number': 42,
        'dict': {'made-by': name},
    }[spec['returns']]

    def produce(node_input: Any) -> Any:
      del node_input
      return value

    return FunctionNode(func=produce, name=name, **self._visibility(spec))


def build(spec: dict[str, Any], *, with_visibility: bool = FORK) -> Any:
  """Builds the app a spec describes, with its ``visibility`` values when
  the interpreter takes them."""
  return _Builder(with_visibility).build(spec)


def runner_for(root: Any) -> InMemoryRunner:
  if isinstance(root, BaseAgent):
    return InMemoryRunner(agent=root, app_name='compositions')
  return InMemoryRunner(node=root, app_name='compositions')


def _models(root: Any) -> dict[str, ScriptedLlm]:
  found: dict[str, ScriptedLlm] = {}
  stack = [root]
  while stack:
    node = stack.pop()
    model = getattr(node, 'model', None)
    if isinstance(model, ScriptedLlm):
      found[node.name] = model
    stack.extend(getattr(node, 'sub_agents', None) or ())
    for tool in getattr(node, 'tools', None) or ():
      if isinstance(tool, AgentTool):
        stack.append(tool.agent)
    for edge in getattr(node, 'edges', None) or ():
      stack.extend(
          item for item in edge if hasattr(item, 'name') and item is not START
      )
  return found


def _part(part: types.Part) -> list[Any]:
  if part.function_call:
    return ['call', part.function_call.name, part.function_call.args]
  if part.function_response:
    return [
        'response',
        part.function_response.name,
        part.function_response.response,
    ]
  return ['text', part.text]


def event_record(event: Event) -> dict[str, Any]:
  """What a client can read of an event, without ids and times."""
  parts = event.content.parts if event.content and event.content.parts else []
  output = getattr(event, 'output', None)
  return {
      'author': event.author,
      'partial': bool(event.partial),
      'final': event.is_final_response(),
      'parts': [_part(part) for part in parts],
      'escalate': event.actions.escalate,
      'state': event.actions.state_delta,
      'output': output,
      'error': event.error_code,
  }


async def run_turn(spec: dict[str, Any]) -> dict[str, Any]:
  """Runs one turn of the app a spec describes (annotate mode in the fork)."""
  root = build(spec)
  runner = runner_for(root)
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id='user'
  )
  events: list[dict[str, Any]] = []
  raised = None
  try:
    async for event in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.UserContent(parts=[types.Part(text='hello')]),
    ):
      events.append(event_record(event))
  except Exception as error:  # pylint: disable=broad-exception-caught
    raised = type(error).__name__
  await runner.close()
  requests = {
      name: [contents_json(request) for request in model.requests]
      for name, model in _models(root).items()
  }
  return {'events': events, 'raised': raised, 'requests': requests}


def main() -> None:
  warnings.simplefilter('ignore')
  for line in sys.stdin:
    result = asyncio.run(run_turn(json.loads(line)))
    sys.stdout.write(json.dumps(result, default=repr, sort_keys=True) + '\n')
    sys.stdout.flush()


if __name__ == '__main__':
  main()
