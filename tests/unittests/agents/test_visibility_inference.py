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

"""Topology inference of agent visibility, observed through a real Runner.

Every case runs an agent tree or workflow with a scripted model and checks the
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
from pydantic import BaseModel
from pydantic import Field
from pydantic import ValidationError
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
async def test_workflow_chain_only_terminal_node_is_user_facing():
  workflow = Workflow(
      name='booking',
      edges=[(START, _agent('classifier'), _agent('booker'))],
  )

  events, session = await _run(workflow)

  expected = {'classifier': {False}, 'booker': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_review_loop_answers_with_the_writer_not_the_verdict():
  passes = []

  def route(node_input: Any) -> Event:
    passes.append(node_input)
    return Event(route='revise' if len(passes) < 2 else 'done')

  writer = _agent('writer')
  workflow = Workflow(
      name='review',
      edges=[
          (START, writer, _agent('reviewer'), route),
          (route, {'revise': writer}),
      ],
  )

  events, session = await _run(workflow)

  # The route reads the reviewer's verdict, so the verdict is data; the loop
  # ends when no route matches, right after the writer's last draft, which
  # is then the last thing the user can hear.
  expected = {'writer': {True}, 'reviewer': {False}}
  assert len(passes) == 2
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_route_that_always_continues_covers_its_input():
  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='booking')

  workflow = Workflow(
      name='router',
      edges=[
          (START, _agent('classifier'), route),
          (route, {'booking': _agent('booker'), 'info': _agent('info')}),
      ],
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {'classifier': {False}, 'booker': {True}}


def _flags_by_node(events: list[Event]) -> dict[str, set[bool]]:
  """Like ``_flags_by_author``, keyed by node: function nodes' events are
  authored by their workflow."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.content is not None and event.author != 'user':
      node = event.node_info.name or event.author
      flags.setdefault(node, set()).add(event.is_user_facing)
  return flags


class _Grade(BaseModel):
  grade: str


def _grade_loop(passes: list[str]) -> Workflow:
  """generate -> grade (structured) -> route, back to generate once."""

  def route(node_input: dict[str, str]) -> Event:
    passes.append(node_input['grade'])
    return Event(route='retry' if node_input['grade'] == 'bad' else 'done')

  generate = _agent('generate', 'first headline', 'second headline')
  grade = _agent(
      'grade', '{"grade": "bad"}', '{"grade": "good"}', output_schema=_Grade
  )
  return Workflow(
      name='headlines',
      edges=[(START, generate, grade, route), (route, {'retry': generate})],
  )


def _support_desk() -> Workflow:
  """A greeting, then a label a route reads, leading to a refusal message."""

  def greet(node_input: Any) -> Any:
    del node_input
    yield Event(message='Welcome!')
    yield 'go'

  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='other')

  def refuse(node_input: Any) -> Any:
    del node_input
    yield Event(message='Sorry, I only answer questions.')

  return Workflow(
      name='support',
      edges=[
          (START, greet, _agent('classifier', 'other'), route),
          (route, {'question': _agent('answerer'), 'other': refuse}),
      ],
  )


@pytest.mark.asyncio
async def test_workflow_structured_output_is_data_for_the_next_node():
  passes: list[str] = []

  events, session = await _run(_grade_loop(passes))

  # The grade is read by the route: the headlines are what the user hears.
  assert passes == ['bad', 'good']
  expected = {'generate': {True}, 'grade': {False}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_list_a_fan_out_reads_is_data():
  planner = _agent('planner', '["tulips", "roses"]')
  workflow = Workflow(
      name='topics',
      edges=[(START, planner, _agent('explainer', parallel_worker=True))],
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {'planner': {False}, 'explainer': {True}}


@pytest.mark.asyncio
async def test_workflow_function_node_messages_address_the_user():
  events, session = await _run(_support_desk())

  # Each branch ends in something that speaks, so the label is internal; a
  # function node's message is for the user although an agent follows it.
  expected = {'greet': {True}, 'classifier': {False}, 'refuse': {True}}
  assert _flags_by_node(events) == expected
  assert _flags_by_node(session.events) == expected


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


def test_invalid_agent_visibility_lists_allowed_values():
  with pytest.raises(ValidationError) as error:
    LlmAgent(name='greeter', visibility='public')

  message = str(error.value)
  assert "'public'" in message
  assert "'greeter'" in message
  assert "'user'" in message and "'internal'" in message
  assert LlmAgent(name='greeter', visibility='internal').visibility == (
      'internal'
  )
