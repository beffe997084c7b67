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

"""Visibility's documented rules over random compositions (Hypothesis).

Each example is a tree built from every composition ADK offers an app:
sequences, parallel agents, loops ended by ``exit_loop`` (with or without
last words beside the call), agents run as tools, and workflows of agents
and function nodes ending on text or data, with random ``visibility``
overrides. Every agent replies with a word that names it, so the rules can
be read off what a client receives. For one turn, run in annotate and in
filter mode:

* the user is never left without an answer: filter mode shows at least one
  final response in words;
* a client that reads only flagged events gets what filter mode shows: the
  flagged final responses of annotate mode are filter mode's, and when there
  are none, filter mode shows exactly one answer, the turn's recorded end;
* nothing internal leaks: an internal agent's words reach the filtered
  client only as that one answer;
* reload equals live: ``user_view`` of the stored session is what the run
  sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from typing import Any
import warnings

from _pr_tests import visibility_filter as vf
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.events.user_view import user_view
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from hypothesis import event
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st

_VISIBILITY = st.sampled_from([None, None, None, 'user', 'internal'])


@dataclasses.dataclass(frozen=True)
class _Leaf:
  visibility: str | None
  ends_loop: bool
  words_beside_exit: bool


@dataclasses.dataclass(frozen=True)
class _Composite:
  kind: str
  children: tuple[Any, ...]
  visibility: str | None


@dataclasses.dataclass(frozen=True)
class _Flow:
  steps: tuple[Any, ...]
  visibility: str | None


@dataclasses.dataclass(frozen=True)
class _Function:
  returns: str
  visibility: str | None


_LEAVES = st.builds(
    _Leaf,
    visibility=_VISIBILITY,
    ends_loop=st.booleans(),
    words_beside_exit=st.booleans(),
)
_TREES = st.recursive(
    _LEAVES,
    lambda children: st.builds(
        _Composite,
        kind=st.sampled_from(['sequence', 'parallel', 'loop', 'tool']),
        children=st.lists(children, min_size=1, max_size=3).map(tuple),
        visibility=_VISIBILITY,
    ),
    max_leaves=6,
)
_FLOWS = st.builds(
    _Flow,
    steps=st.lists(
        st.one_of(
            _LEAVES,
            st.builds(
                _Function,
                returns=st.sampled_from(['text', 'number', 'dict']),
                visibility=_VISIBILITY,
            ),
        ),
        min_size=1,
        max_size=3,
    ).map(tuple),
    visibility=_VISIBILITY,
)


class _Builder:
  """Builds a fresh tree from a spec; every agent's reply names it."""

  def __init__(self) -> None:
    self._count = itertools.count()

  def _name(self, kind: str) -> str:
    return f'{kind}_{next(self._count)}'

  def build(self, spec: Any, in_loop: bool = False) -> Any:
    if isinstance(spec, _Leaf):
      return self._leaf(spec, in_loop)
    if isinstance(spec, _Flow):
      return self._flow(spec)
    children = [
        self.build(child, in_loop or spec.kind == 'loop')
        for child in spec.children
    ]
    name = self._name(spec.kind)
    with warnings.catch_warnings():
      warnings.simplefilter('ignore', DeprecationWarning)
      if spec.kind == 'sequence':
        return SequentialAgent(
            name=name, sub_agents=children, visibility=spec.visibility
        )
      if spec.kind == 'parallel':
        return ParallelAgent(
            name=name, sub_agents=children, visibility=spec.visibility
        )
      if spec.kind == 'loop':
        return LoopAgent(
            name=name,
            sub_agents=children,
            max_iterations=2,
            visibility=spec.visibility,
        )
    # An agent that runs the first child as a tool, then answers.
    inner = children[0]
    return vf._agent(
        name,
        types.FunctionCall(name=inner.name, args={'request': 'go'}),
        f'said-by-{name}',
        tools=[AgentTool(inner)],
        visibility=spec.visibility,
    )

  def _leaf(self, spec: _Leaf, in_loop: bool) -> LlmAgent:
    name = self._name('agent')
    words = f'said-by-{name}'
    if not (in_loop and spec.ends_loop):
      return vf._agent(name, words, visibility=spec.visibility)
    call = types.FunctionCall(name='exit_loop', args={})
    if spec.words_beside_exit:
      script: list[Any] = [
          LlmResponse(
              content=types.ModelContent(
                  parts=[types.Part(text=words), types.Part(function_call=call)]
              )
          ),
          words,
      ]
    else:
      script = [call, words]
    return vf._agent(
        name, *script, tools=[exit_loop], visibility=spec.visibility
    )

  def _flow(self, spec: _Flow) -> Workflow:
    nodes = []
    for step in spec.steps:
      if isinstance(step, _Leaf):
        nodes.append(self._leaf(step, in_loop=False))
      else:
        nodes.append(self._function(step))
    return Workflow(
        name=self._name('flow'),
        edges=[(START, *nodes)],
        visibility=spec.visibility,
    )

  def _function(self, spec: _Function) -> FunctionNode:
    name = self._name('node')
    value: Any = {
        'text': f'said-by-{name}',
        'number': 42,
        'dict': {'made-by': name},
    }[spec.returns]

    def produce(node_input: Any) -> Any:
      del node_input
      return value

    return FunctionNode(func=produce, name=name, visibility=spec.visibility)


def _final_texts(events: list[Event]) -> list[str]:
  return [
      ''.join(part.text or '' for part in event.content.parts)
      for event in events
      if event.author != 'user'
      and event.is_final_response()
      and event.content
      and any(part.text for part in event.content.parts)
  ]


def _said(events: list[Event], user_facing: bool) -> set[str]:
  """The words agents said in events flagged (or not) user-facing."""
  return {
      part.text
      for event in events
      if event.author != 'user'
      and event.is_user_facing == user_facing
      and event.content
      for part in event.content.parts
      if part.text and part.text.startswith('said-by-')
  }


async def _turn(spec: Any, mode: str) -> tuple[list[Event], list[Event]]:
  root = _Builder().build(spec)
  events, session, runner = await vf._run(root, RunConfig(visibility_mode=mode))
  await runner.close()
  return events, session.events


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(spec=st.one_of(_TREES, _FLOWS))
def test_documented_rules_hold_on_random_compositions(spec: Any):
  annotated, _ = asyncio.run(_turn(spec, 'annotate'))
  filtered, stored = asyncio.run(_turn(spec, 'filter'))

  flagged = _final_texts([e for e in annotated if e.is_user_facing])
  shown = _final_texts(filtered)
  assert shown, 'the user was left without an answer'
  event('answered by a flagged agent' if flagged else 'answered at the end')
  if flagged:
    assert shown == flagged
  else:
    assert len(shown) == 1
  internal_words = _said(annotated, user_facing=False) - _said(
      annotated, user_facing=True
  )
  sent = '\n'.join(e.model_dump_json() for e in filtered)
  leaked = {word for word in internal_words if word in sent}
  assert not leaked or (not flagged and leaked <= set(shown))
  reloaded = [e for e in user_view(stored) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [
      e.model_dump() for e in filtered
  ]
