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

"""Visibility inferred over agent trees, observed through a real Runner.

Every case runs an agent tree with a scripted model and checks the
``is_user_facing`` flag on the events the Runner yields and on the events the
session stored. Each case contains both internal and user-facing agents, so a
flag that were constant would fail it.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_USER_ID = 'visibility_user'


class ScriptedLlm(BaseLlm):
  """Answers each request with the next scripted reply and records requests.

  A reply is either text or a ``types.FunctionCall``. The last reply repeats
  once the script is exhausted.
  """

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    reply = self.script[min(len(self.requests), len(self.script)) - 1]
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  """An LlmAgent that says ``'<name> speaks'`` unless given a script."""
  return LlmAgent(
      name=name,
      model=ScriptedLlm(script=list(script) or [f'{name} speaks']),
      **kwargs,
  )


def _call(name: str, **args: Any) -> types.FunctionCall:
  return types.FunctionCall(name=name, args=args)


async def _run(
    root: Any, *, message: str = 'hello'
) -> tuple[list[Event], Session]:
  """Runs one turn and returns the yielded events and the stored session."""
  if isinstance(root, BaseAgent):
    runner = InMemoryRunner(agent=root, app_name='visibility_app')
  else:
    runner = InMemoryRunner(node=root, app_name='visibility_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text=message)]),
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored


def _flags_by_author(events: list[Event]) -> dict[str, set[bool]]:
  """Maps each author of a content-carrying event to the flags it carried."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.content is not None and event.author != 'user':
      flags.setdefault(event.author, set()).add(event.is_user_facing)
  return flags


def _sequence(name: str, *sub_agents: BaseAgent, **kwargs) -> SequentialAgent:
  return SequentialAgent(name=name, sub_agents=list(sub_agents), **kwargs)


_TOPOLOGIES = {
    'sequence': (
        lambda: _sequence('pipeline', _agent('classifier'), _agent('booker')),
        {'classifier': False, 'booker': True},
    ),
    'parallel_inside_sequence': (
        lambda: _sequence(
            'pipeline',
            ParallelAgent(
                name='research', sub_agents=[_agent('web'), _agent('docs')]
            ),
            _agent('writer'),
        ),
        {'web': False, 'docs': False, 'writer': True},
    ),
    'loop_then_presenter': (
        lambda: _sequence(
            'pipeline',
            LoopAgent(
                name='refine',
                max_iterations=2,
                sub_agents=[_agent('drafter'), _agent('critic')],
            ),
            _agent('presenter'),
        ),
        {'drafter': False, 'critic': False, 'presenter': True},
    ),
    # Loops: the agent the user hears is the last one before the loop can
    # end, since nothing after it speaks on the way out.
    'loop_at_root': (
        lambda: LoopAgent(
            name='refine',
            max_iterations=2,
            sub_agents=[_agent('drafter'), _agent('critic')],
        ),
        {'drafter': False, 'critic': True},
    ),
    'loop_after_a_first_draft': (
        lambda: _sequence(
            'pipeline',
            _agent('initial_writer'),
            LoopAgent(
                name='refine',
                max_iterations=3,
                sub_agents=[
                    _agent('critic'),
                    _agent(
                        'refiner',
                        'refined draft',
                        _call('exit_loop'),
                        tools=[exit_loop],
                    ),
                ],
            ),
        ),
        {'initial_writer': False, 'critic': False, 'refiner': True},
    ),
    # An agent that can end the loop early (exit_loop) is also the last one
    # the user hears when the loop ends there.
    'loop_exit_before_the_last_agent': (
        lambda: LoopAgent(
            name='refine',
            max_iterations=1,
            sub_agents=[_agent('drafter', tools=[exit_loop]), _agent('critic')],
        ),
        {'drafter': True, 'critic': True},
    ),
    'loop_exit_inside_a_pipeline': (
        lambda: _sequence(
            'pipeline',
            LoopAgent(
                name='refine',
                max_iterations=1,
                sub_agents=[
                    _agent('drafter', tools=[exit_loop]),
                    _agent('critic'),
                ],
            ),
            _agent('presenter'),
        ),
        {'drafter': False, 'critic': False, 'presenter': True},
    ),
    'loop_last_agent_internal_by_choice': (
        lambda: LoopAgent(
            name='refine',
            max_iterations=2,
            sub_agents=[
                _agent('drafter'),
                _agent('critic', visibility='internal'),
            ],
        ),
        {'drafter': True, 'critic': False},
    ),
    'leaf_override_to_internal': (
        lambda: _sequence(
            'pipeline',
            _agent('a'),
            _agent('audit', visibility='internal'),
        ),
        {'a': True, 'audit': False},
    ),
}


@pytest.mark.asyncio
@pytest.mark.parametrize('topology', sorted(_TOPOLOGIES))
async def test_agent_tree_topologies(topology: str):
  await _assert_flags(*_TOPOLOGIES[topology])


async def _assert_flags(build: Any, expected: dict[str, bool]) -> None:
  """Runs the tree and checks each author's flag, live and as stored."""
  events, session = await _run(build())

  assert {a: {v} for a, v in expected.items()} == _flags_by_author(events)
  assert {a: {v} for a, v in expected.items()} == _flags_by_author(
      session.events
  )


@pytest.mark.asyncio
async def test_workflow_task_agent_converses_with_the_user():
  intake = _agent('intake', 'Which date do you travel?', mode='task')
  workflow = Workflow(
      name='booking', edges=[(START, intake, _agent('summary'))]
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {'intake': {True}}


@pytest.mark.asyncio
async def test_user_events_are_user_facing_and_unmarked():
  _, session = await _run(_sequence('pipeline', _agent('a'), _agent('b')))

  user_events = [e for e in session.events if e.author == 'user']
  agent_events = [e for e in session.events if e.author == 'a']
  assert user_events and all(e.is_user_facing for e in user_events)
  assert all(e.visibility is None for e in user_events)
  assert agent_events and all(e.visibility == 'internal' for e in agent_events)


def _client_texts(events: list[Event]) -> list[str]:
  """What a client that shows only flagged final responses reads."""
  return [
      part.text
      for event in events
      if event.is_final_response() and event.is_user_facing and event.content
      for part in event.content.parts or ()
      if part.text
  ]


@pytest.mark.asyncio
async def test_an_agent_nested_in_a_loop_that_can_end_it_speaks_last():
  root = LoopAgent(
      name='loop',
      max_iterations=3,
      sub_agents=[
          _sequence(
              'steps',
              _agent(
                  'llm_3',
                  'The answer is 42.',
                  _call('exit_loop'),
                  tools=[exit_loop],
              ),
          ),
          _agent('llm_10', 'Looks right; confirm it.'),
      ],
  )

  events, session = await _run(root)

  # The loop ends when llm_3 calls exit_loop (its second pass), so on that
  # path nothing speaks after llm_3: it answers as llm_10 does.
  expected = {'llm_3': {True}, 'llm_10': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected
  assert _client_texts(events) == [
      'The answer is 42.',
      'Looks right; confirm it.',
  ]


@pytest.mark.asyncio
async def test_an_internal_composite_speaks_through_a_user_descendant():
  root = _sequence(
      'root',
      _agent('a1', 'a1 draft'),
      _sequence(
          'h',
          _agent('b1', 'b1 notes'),
          _agent('c1', 'c1 answer', visibility='user'),
          visibility='internal',
      ),
  )

  events, session = await _run(root)

  # 'internal' on h silences b1, not c1, which answers after a1.
  expected = {'a1': {False}, 'b1': {False}, 'c1': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected
  assert _client_texts(events) == ['c1 answer']
