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


"""``BaseTool.user_visibility`` and ``LlmAgent.tool_visibility``.

The levels act in filter mode; here they are checked where they are decided:
validation, and the level the Runner stores on each event it persists.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.apps.app import ResumabilityConfig
from google.adk.events._event_records import records_of
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
from pydantic import ValidationError
import pytest


class _ScriptedLlm(BaseLlm):
  """Replies from a script: text or a ``types.FunctionCall``."""

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  calls: int = 0

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    reply = self.script[min(self.calls, len(self.script) - 1)]
    self.calls += 1
    part = (
        types.Part(function_call=reply)
        if isinstance(reply, types.FunctionCall)
        else types.Part(text=reply)
    )
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_ScriptedLlm(script=list(script)), **kwargs)


def _lookup(code: str) -> dict[str, str]:
  """Looks up a booking."""
  return {'status': f'confirmed {code}'}


def _audit(note: str) -> dict[str, str]:
  """Writes an audit note."""
  return {'logged': note}


async def _stored_events(
    agent: LlmAgent, runner: InMemoryRunner | None = None
) -> list[Event]:
  runner = runner or InMemoryRunner(agent=agent, app_name='tools_app')
  session = await runner.session_service.create_session(
      app_name='tools_app', user_id='u'
  )
  async for _ in runner.run_async(
      user_id='u',
      session_id=session.id,
      new_message=types.UserContent(parts=[types.Part(text='go')]),
  ):
    pass
  stored = await runner.session_service.get_session(
      app_name='tools_app', user_id='u', session_id=session.id
  )
  assert stored is not None
  return stored.events


def _levels(events: list[Event]) -> list[tuple[str, str, str]]:
  """(call name, 'call' or 'response', level) for each stored level."""
  found = []
  for event in events:
    levels = records_of(event).levels
    for call in event.get_function_calls():
      if call.id in levels:
        found.append((call.name, 'call', levels[call.id]))
    for response in event.get_function_responses():
      if response.id in levels:
        found.append((response.name, 'response', levels[response.id]))
  return found


def test_tool_visibility_defaults_to_none_and_is_validated():
  tool = FunctionTool(_lookup)
  assert tool.user_visibility is None

  tool.user_visibility = 'hidden'
  assert tool.user_visibility == 'hidden'
  with pytest.raises(ValueError) as error:
    tool.user_visibility = 'secret'
  message = str(error.value)
  assert "'secret'" in message and "'_lookup'" in message
  assert "'hidden'" in message and "'minimal'" in message
  assert "'full'" in message
  assert tool.user_visibility == 'hidden'


@pytest.mark.parametrize(
    ('mapping', 'expected'),
    [
        ({'_lookup': 'private'}, "'private'"),
        ({'_lookup': None}, 'None'),
        (
            {'_missing': 'hidden'},
            "names '_missing', not among its tools ('_lookup')",
        ),
        ({'adk_request_confirmation': 'hidden'}, 'must answer'),
        (['_lookup'], 'must map tool names'),
    ],
)
def test_bad_tool_visibility_mapping_is_a_clear_error(mapping, expected):
  with pytest.raises(ValidationError) as error:
    _agent('booker', 'ok', tools=[_lookup], tool_visibility=mapping)

  assert expected in str(error.value)


@pytest.mark.asyncio
async def test_levels_are_stored_with_the_events_they_apply_to():
  audit = FunctionTool(_audit)
  audit.user_visibility = 'hidden'
  agent = _agent(
      'booker',
      types.FunctionCall(name='_lookup', args={'code': 'AB12'}),
      types.FunctionCall(name='_audit', args={'note': 'checked'}),
      'done',
      tools=[_lookup, audit],
  )

  events = await _stored_events(agent)

  assert _levels(events) == [
      ('_audit', 'call', 'hidden'),
      ('_audit', 'response', 'hidden'),
  ]
  call_id = events[3].get_function_calls()[0].id
  assert events[3].custom_metadata == {
      '__adk_internal_visibility': {'tools': {call_id: 'hidden'}}
  }


@pytest.mark.asyncio
async def test_agent_mapping_wins_over_the_tool_and_agent_tools_are_minimal():
  audit = FunctionTool(_audit)
  audit.user_visibility = 'hidden'
  agent = _agent(
      'booker',
      types.FunctionCall(name='_audit', args={'note': 'checked'}),
      types.FunctionCall(name='lookup_agent', args={'request': 'AB12'}),
      'done',
      tools=[audit, AgentTool(agent=_agent('lookup_agent', 'found'))],
      tool_visibility={'_audit': 'full'},
  )

  events = await _stored_events(agent)

  assert _levels(events) == [
      ('_audit', 'call', 'full'),
      ('_audit', 'response', 'full'),
      ('lookup_agent', 'call', 'minimal'),
      ('lookup_agent', 'response', 'minimal'),
  ]


@pytest.mark.asyncio
async def test_unconfigured_tools_store_nothing():
  agent = _agent(
      'booker',
      types.FunctionCall(name='_lookup', args={'code': 'AB12'}),
      'done',
      tools=[_lookup],
  )

  events = await _stored_events(agent)

  assert len(events) == 4
  assert all(event.custom_metadata is None for event in events)


def test_levels_stored_in_the_earlier_form_read_back():
  # An earlier version of this change used a second key for the levels.
  event = Event(
      author='booker',
      custom_metadata={
          'note': 'mine',
          '__adk_internal_visibility': 'internal',
          '__adk_internal_tool_visibility': {'c1': 'hidden'},
      },
  )

  assert records_of(event).levels == {'c1': 'hidden'}


@pytest.mark.asyncio
async def test_a_task_agents_result_is_stored_with_its_tools_level():
  worker = _agent(
      'worker',
      types.FunctionCall(name='finish_task', args={'result': 'found'}),
      mode='task',
      description='Finds flights.',
  )
  coordinator = _agent(
      'coordinator',
      types.FunctionCall(name='worker', args={'request': 'Oslo'}),
      'done',
      sub_agents=[worker],
  )

  events = await _stored_events(coordinator)

  # The runtime answers the coordinator's call as the user; that answer and
  # the task agent's finish_task carry the result, at the task tool's level.
  answer = next(
      e for e in events if e.author == 'user' and e.get_function_responses()
  )
  assert _levels([answer]) == [('worker', 'response', 'minimal')]
  assert ('finish_task', 'call', 'minimal') in _levels(events)
  # The task agent converses with the user: its events stay user-facing.
  assert all(e.is_user_facing for e in events if e.author == 'worker')


@pytest.mark.asyncio
async def test_state_an_agent_tool_forwards_is_recorded_on_the_response():
  agent = _agent(
      'booker',
      types.FunctionCall(name='lookup_agent', args={'request': 'AB12'}),
      'done',
      tools=[
          AgentTool(agent=_agent('lookup_agent', 'found', output_key='found'))
      ],
  )

  events = await _stored_events(agent)

  response = next(e for e in events if e.get_function_responses())
  assert response.is_user_facing
  assert response.actions.state_delta == {'found': 'found'}
  assert response.custom_metadata['__adk_internal_visibility']['state'] == [
      'found'
  ]


@pytest.mark.asyncio
async def test_a_workflow_tools_checkpoints_are_internal():
  research = Workflow(
      name='research',
      edges=[(START, _agent('researcher', 'found'))],
      input_schema=str,
  )
  agent = _agent(
      'booker',
      types.FunctionCall(name='research', args={'request': 'Oslo'}),
      'done',
      tools=[research],
  )
  runner = InMemoryRunner(
      app=App(
          name='tools_app',
          root_agent=agent,
          resumability_config=ResumabilityConfig(is_resumable=True),
      )
  )

  events = await _stored_events(agent, runner)

  checkpoints = [e for e in events if e.author == 'research']
  assert checkpoints
  assert any(e.actions.agent_state for e in checkpoints)
  # Authored by the workflow and without a node path: placed by their author,
  # a workflow run as a tool.
  assert not any(e.is_user_facing for e in checkpoints)
  assert [e.is_user_facing for e in events if e.author == 'booker'] == [
      True
  ] * len([e for e in events if e.author == 'booker'])
