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
from typing import Optional
from unittest import mock

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
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
    'sequence_nested_first': (
        lambda: _sequence(
            'outer',
            _sequence('inner', _agent('a'), _agent('b')),
            _agent('c'),
        ),
        {'a': False, 'b': False, 'c': True},
    ),
    'sequence_nested_last': (
        lambda: _sequence(
            'outer',
            _agent('a'),
            _sequence('inner', _agent('b'), _agent('c')),
        ),
        {'a': False, 'b': False, 'c': True},
    ),
    'parallel_alone': (
        lambda: ParallelAgent(
            name='fan_out', sub_agents=[_agent('left'), _agent('right')]
        ),
        {'left': True, 'right': True},
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
    'sequences_inside_parallel': (
        lambda: ParallelAgent(
            name='fan_out',
            sub_agents=[
                _sequence('left', _agent('l_draft'), _agent('l_final')),
                _sequence('right', _agent('r_draft'), _agent('r_final')),
            ],
        ),
        {
            'l_draft': False,
            'l_final': True,
            'r_draft': False,
            'r_final': True,
        },
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
    'leaf_override_to_user': (
        lambda: _sequence(
            'pipeline',
            _agent('progress', visibility='user'),
            _agent('worker'),
            _agent('answer'),
        ),
        {'progress': True, 'worker': False, 'answer': True},
    ),
    'leaf_override_to_internal': (
        lambda: _sequence(
            'pipeline',
            _agent('a'),
            _agent('audit', visibility='internal'),
        ),
        {'a': False, 'audit': False},
    ),
    'composite_override_user': (
        lambda: _sequence(
            'outer',
            _sequence('steps', _agent('s1'), _agent('s2'), visibility='user'),
            _agent('summary'),
        ),
        {'s1': True, 's2': True, 'summary': True},
    ),
    'composite_override_with_child_exception': (
        lambda: _sequence(
            'pipeline',
            _agent('s1'),
            _agent('s2', visibility='internal'),
            _agent('s3'),
            visibility='user',
        ),
        {'s1': True, 's2': False, 's3': True},
    ),
    'internal_composite_with_user_child': (
        lambda: _sequence(
            'outer',
            ParallelAgent(
                name='checks',
                sub_agents=[
                    _agent('lint'),
                    _agent('notice', visibility='user'),
                ],
                visibility='internal',
            ),
            _agent('verdict'),
        ),
        {'lint': False, 'notice': True, 'verdict': True},
    ),
}


@pytest.mark.asyncio
@pytest.mark.parametrize('topology', sorted(_TOPOLOGIES))
async def test_agent_tree_topologies(topology: str):
  build, expected = _TOPOLOGIES[topology]

  events, session = await _run(build())

  assert {a: {v} for a, v in expected.items()} == _flags_by_author(events)
  assert {a: {v} for a, v in expected.items()} == _flags_by_author(
      session.events
  )


@pytest.mark.asyncio
async def test_llm_transfer_targets_inherit_the_parent_visibility():
  def coordinator(name: str, helper: str) -> LlmAgent:
    return _agent(
        name,
        _call('transfer_to_agent', agent_name=helper),
        sub_agents=[_agent(helper)],
    )

  events, _ = await _run(coordinator('front_desk', 'concierge'))
  nested_events, _ = await _run(
      _sequence(
          'pipeline', coordinator('router', 'specialist'), _agent('reply')
      )
  )

  assert _flags_by_author(events) == {'front_desk': {True}, 'concierge': {True}}
  assert _flags_by_author(nested_events) == {
      'router': {False},
      'specialist': {False},
      'reply': {True},
  }


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
async def test_workflow_function_node_output_follows_its_node():
  def extract(node_input: Any) -> str:
    del node_input
    return 'extracted fields'

  workflow = Workflow(
      name='intake', edges=[(START, extract, _agent('responder'))]
  )

  events, _ = await _run(workflow)

  # Function node events are authored by the workflow; their node path says
  # which node produced them.
  output_events = [e for e in events if e.output == 'extracted fields']
  assert [e.is_user_facing for e in output_events] == [False]
  assert _flags_by_author(events) == {'responder': {True}}


@pytest.mark.asyncio
async def test_function_response_has_the_visibility_of_the_calling_agent():
  def lookup_fare(city: str) -> dict[str, str]:
    """Looks up a fare."""
    return {'fare': f'fare to {city}'}

  pipeline = _sequence(
      'pipeline',
      _agent(
          'pricer',
          _call('lookup_fare', city='Oslo'),
          'priced',
          tools=[lookup_fare],
      ),
      _agent(
          'presenter',
          _call('lookup_fare', city='Rome'),
          'presented',
          tools=[lookup_fare],
      ),
  )

  events, session = await _run(pipeline)

  def response_flags(source: list[Event]) -> dict[str, bool]:
    return {
        event.author: event.is_user_facing
        for event in source
        if event.get_function_responses()
    }

  assert response_flags(events) == {'pricer': False, 'presenter': True}
  assert response_flags(session.events) == {'pricer': False, 'presenter': True}


@pytest.mark.asyncio
async def test_user_events_are_user_facing_and_unmarked():
  _, session = await _run(_sequence('pipeline', _agent('a'), _agent('b')))

  user_events = [e for e in session.events if e.author == 'user']
  agent_events = [e for e in session.events if e.author == 'a']
  assert user_events and all(e.is_user_facing for e in user_events)
  assert all(e.visibility is None for e in user_events)
  assert agent_events and all(e.visibility == 'internal' for e in agent_events)


@pytest.mark.asyncio
async def test_long_running_call_of_internal_agent_reaches_the_user():
  def request_approval(amount: int, tool_context: ToolContext) -> None:
    """Asks a human to approve an amount."""
    del amount, tool_context
    return None

  def check_budget(amount: int) -> str:
    """Checks the budget."""
    return f'budget ok for {amount}'

  pipeline = _sequence(
      'pipeline',
      _agent(
          'approver',
          _call('check_budget', amount=5),
          _call('request_approval', amount=5),
          'waiting',
          tools=[check_budget, LongRunningFunctionTool(func=request_approval)],
      ),
      _agent('closer'),
  )

  events, _ = await _run(pipeline)

  def call_flags(name: str) -> list[bool]:
    return [
        e.is_user_facing
        for e in events
        if any(c.name == name for c in e.get_function_calls())
    ]

  # The client has to answer the long-running call, so it cannot be hidden;
  # an ordinary call of the same internal agent is.
  assert call_flags('request_approval') == [True]
  assert call_flags('check_budget') == [False]


@pytest.mark.asyncio
async def test_single_turn_sub_agent_runs_as_tool_and_is_internal():
  lookup = _agent('lookup', 'lookup result', mode='single_turn')
  caller = _agent(
      'caller',
      _call('lookup', request='departure time'),
      'caller answers',
      sub_agents=[lookup],
  )

  events, session = await _run(caller)

  expected = {'caller': {True}, 'lookup': {False}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


class _FlagRecorder(BasePlugin):
  """Records what ``on_event_callback`` sees and whether it was stored yet."""

  def __init__(self) -> None:
    super().__init__(name='flag_recorder')
    self.seen: list[tuple[str, bool, bool]] = []

  async def on_event_callback(
      self, *, invocation_context: InvocationContext, event: Event
  ) -> Optional[Event]:
    stored_ids = {e.id for e in invocation_context.session.events}
    if event.content is not None:
      self.seen.append(
          (event.author, event.is_user_facing, event.id in stored_ids)
      )
    return None


@pytest.mark.asyncio
async def test_flag_is_set_before_plugins_and_persistence():
  recorder = _FlagRecorder()
  runner = InMemoryRunner(
      agent=_sequence('pipeline', _agent('draft'), _agent('final')),
      app_name='visibility_app',
      plugins=[recorder],
  )
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )

  async for _ in runner.run_async(
      user_id=_USER_ID,
      session_id=session.id,
      new_message=types.UserContent(parts=[types.Part(text='go')]),
  ):
    pass

  assert recorder.seen == [('draft', False, False), ('final', True, False)]


@pytest.mark.asyncio
async def test_a_tree_changed_between_runs_is_inferred_afresh():
  last = _agent('b', 'B-said')
  root = _sequence('pipeline', _agent('a', 'A-said'), last)
  events, _ = await _run(root)
  assert _flags_by_author(events)['b'] == {True}

  # Appending a step makes the former last step internal.
  root.sub_agents.append(_agent('c', 'C-said'))
  events, _ = await _run(root)

  flags = _flags_by_author(events)
  assert flags['b'] == {False}
  assert flags['c'] == {True}


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


@pytest.mark.asyncio
async def test_a_duck_typed_agent_runs_as_without_visibility():
  # A test double has none of a pydantic agent's fields; the Runner must not
  # fail on it, nor mark its events.
  agent = mock.Mock(spec=BaseAgent)
  agent.name = 'double'

  async def run_async(ctx: InvocationContext) -> AsyncGenerator[Event, None]:
    yield Event(
        author='double',
        invocation_id=ctx.invocation_id,
        content=types.Content(role='model', parts=[types.Part(text='hi')]),
    )

  agent.run_async = run_async
  runner = InMemoryRunner(agent=agent, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )

  events = [
      event
      async for event in runner.run_async(
          user_id='user',
          session_id=session.id,
          new_message=types.Content(role='user', parts=[types.Part(text='x')]),
      )
  ]

  assert [(e.author, e.visibility, e.is_user_facing) for e in events] == [
      ('double', None, True)
  ]
