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

"""Filter mode keeps an internal agent's state from the client.

A classifier with ``output_key='intent'`` answers a label no user-facing
agent says, so the label's absence from everything the caller received means
it reached the client through no channel: not text, not ``state_delta``.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events._state_view import state_for_client
from google.adk.events.event import Event
from google.adk.events.user_view import user_view
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_LABEL = 'booking-quokka-3391'
"""The classifier's reply, and so the value of state['intent']."""
_ANSWER = 'Your table for two is booked.'


class _RecordingLlm(BaseLlm):
  """Always gives the same reply; keeps the requests it was sent."""

  model: str = 'recording-llm'
  reply: str = ''
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)])
    )


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


def _router(shape: str) -> tuple[Any, _RecordingLlm]:
  """A classifier writing state['intent'], then a booker reading {intent}."""
  classifier = LlmAgent(
      name='classifier',
      model=_RecordingLlm(reply=_LABEL),
      instruction='Answer "booking" or "info".',
      output_key='intent',
  )
  booker_model = _RecordingLlm(reply=_ANSWER)
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      instruction='The request is about {intent}. Help the user.',
  )
  if shape == 'sequence':
    return (
        SequentialAgent(name='router', sub_agents=[classifier, booker]),
        booker_model,
    )
  return Workflow(name='router', edges=[(START, classifier, booker)]), (
      booker_model
  )


async def _run(root: Any, run_config: RunConfig) -> tuple[list[Event], Session]:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='state_app')
  else:
    runner = InMemoryRunner(agent=root, app_name='state_app')
  session = await runner.session_service.create_session(
      app_name='state_app', user_id='u1', state={'guest': 'Ada'}
  )
  events = [
      event
      async for event in runner.run_async(
          user_id='u1',
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='A table?')]),
          run_config=run_config,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name='state_app', user_id='u1', session_id=session.id
  )
  assert stored is not None
  return events, stored


def _sent(events: list[Event]) -> str:
  return '\n'.join(event.model_dump_json(exclude_none=True) for event in events)


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', ['sequence', 'workflow'])
async def test_internal_output_key_reaches_no_client_event(shape):
  root, booker_model = _router(shape)

  events, stored = await _run(root, RunConfig(visibility_mode='filter'))

  assert _ANSWER in _sent(events)
  assert _LABEL not in _sent(events)
  assert all('intent' not in e.actions.state_delta for e in events)
  # A reloaded conversation gets what the live one got.
  reloaded = user_view(stored.events)
  assert _LABEL not in _sent(reloaded)
  assert [e.id for e in reloaded if e.author != 'user'] == [
      e.id for e in events
  ]
  # The session and the later agents keep it.
  assert stored.state['intent'] == _LABEL
  instruction = str(booker_model.requests[-1].config.system_instruction)
  assert f'The request is about {_LABEL}.' in instruction
  # A reading client sees what the client gave, not what only internal
  # agents wrote.
  assert state_for_client(stored.state, stored.events) == {'guest': 'Ada'}
  assert state_for_client(stored.state, stored.events, ['intent']) == {
      'guest': 'Ada',
      'intent': _LABEL,
  }


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', ['sequence', 'workflow'])
async def test_client_state_keys_name_the_keys_a_client_sees(shape):
  root, _ = _router(shape)

  events, stored = await _run(
      root, RunConfig(visibility_mode='filter', client_state_keys=['intent'])
  )

  deltas = [e.actions.state_delta for e in events if e.author == 'classifier']
  assert {'intent': _LABEL} in deltas
  classifier_events = [e for e in events if e.author == 'classifier']
  assert all(e.content is None for e in classifier_events)
  reloaded = user_view(stored.events, client_state_keys=['intent'])
  assert {'intent': _LABEL} in [e.actions.state_delta for e in reloaded]


@pytest.mark.asyncio
async def test_annotate_mode_sends_every_state_delta():
  root, _ = _router('sequence')

  events, _ = await _run(root, RunConfig())

  deltas = [e.actions.state_delta for e in events if e.author == 'classifier']
  assert deltas == [{'intent': _LABEL}]


_FOUND = 'found-quokka-5521'
"""What an agent run as a tool answers and writes to state['found']."""


def _with_agent_tool(shape: str) -> Any:
  """A user-facing front desk asking an agent run as a tool, which writes
  state['found']; in a workflow the front desk is its last node."""
  researcher = LlmAgent(
      name='researcher', model=_RecordingLlm(reply=_FOUND), output_key='found'
  )
  tool_agent = (
      SequentialAgent(name='research', sub_agents=[researcher])
      if shape == 'agent_tree'
      else researcher
  )
  front_desk = LlmAgent(
      name='front_desk',
      model=_ScriptedLlm(
          script=[
              types.FunctionCall(
                  name=tool_agent.name, args={'request': 'flights'}
              ),
              _ANSWER,
          ]
      ),
      tools=[AgentTool(agent=tool_agent)],
  )
  if shape == 'workflow':
    return Workflow(name='desk_flow', edges=[(START, front_desk)])
  return front_desk


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', ['agent', 'agent_tree', 'workflow'])
async def test_state_an_agent_tool_writes_reaches_no_client(shape):
  events, stored = await _run(
      _with_agent_tool(shape), RunConfig(visibility_mode='filter')
  )

  # AgentTool forwards the researcher's output_key into the user-facing
  # front desk's function response; the client gets neither.
  assert _ANSWER in _sent(events)
  assert _FOUND not in _sent(events)
  assert _FOUND not in _sent(user_view(stored.events))
  assert state_for_client(stored.state, stored.events) == {'guest': 'Ada'}
  # The session keeps it, and a named key is sent.
  assert stored.state['found'] == _FOUND
  named, _ = await _run(
      _with_agent_tool(shape),
      RunConfig(visibility_mode='filter', client_state_keys=['found']),
  )
  assert {'found': _FOUND} in [e.actions.state_delta for e in named]
  assert state_for_client(stored.state, stored.events, ['found']) == {
      'guest': 'Ada',
      'found': _FOUND,
  }


_SHOWN_DRAFT = 'Draft shown to the user.'
_NEXT_DRAFT = 'next-draft-okapi-8812'
"""The internal drafter's text, written to state['draft'] last."""


def _drafting(shape: str) -> Any:
  """A user-facing refiner, then an internal drafter preparing the next
  round; both write state['draft']."""
  refiner = LlmAgent(
      name='refiner',
      model=_RecordingLlm(reply=_SHOWN_DRAFT),
      output_key='draft',
      visibility='user',
  )
  drafter = LlmAgent(
      name='drafter',
      model=_RecordingLlm(reply=_NEXT_DRAFT),
      output_key='draft',
      visibility='internal',
  )
  if shape == 'sequence':
    return SequentialAgent(name='drafting', sub_agents=[refiner, drafter])
  return Workflow(name='drafting', edges=[(START, refiner, drafter)])


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', ['sequence', 'workflow'])
async def test_a_read_shows_the_value_the_client_last_saw(shape):
  events, stored = await _run(
      _drafting(shape), RunConfig(visibility_mode='filter')
  )

  assert {'draft': _SHOWN_DRAFT} in [e.actions.state_delta for e in events]
  assert _NEXT_DRAFT not in _sent(events)
  # The session holds the drafter's text; a reading client gets the value
  # it saw live, not a draft no user-facing event said.
  assert stored.state['draft'] == _NEXT_DRAFT
  assert state_for_client(stored.state, stored.events) == {
      'guest': 'Ada',
      'draft': _SHOWN_DRAFT,
  }
  assert state_for_client(stored.state, stored.events, ['draft']) == {
      'guest': 'Ada',
      'draft': _NEXT_DRAFT,
  }
