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

"""Tests that `include_sources` filters the history a model receives."""

from __future__ import annotations

from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedModel(BaseLlm):
  """Replies with scripted parts and records every request it receives."""

  model: str = 'scripted'
  script: list[Any] = Field(default_factory=list)
  requests: list[Any] = Field(default_factory=list)

  async def generate_content_async(self, llm_request, stream=False):
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(content=types.ModelContent(self.script.pop(0)))


def _lookup() -> str:
  return 'HOURS'


def _book() -> None:
  """Asks a person to confirm a booking; the answer comes later."""


def _text(request) -> str:
  """Renders a request's contents as `role: text | call f | response f`."""
  lines = []
  for content in request.contents:
    for part in content.parts or []:
      call, response = part.function_call, part.function_response
      shown = part.text or (
          f'call {call.name}' if call else f'response {response.name}'
      )
      lines.append(f'{content.role}: {shown}')
  return '\n'.join(lines)


async def _runner(root: Any, history: list[Event] = ()) -> tuple[Any, str]:
  runner = InMemoryRunner(app=App(name='app', root_agent=root))
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  for event in history:
    await runner.session_service.append_event(session, event)
  return runner, session.id


async def _send(runner, session_id: str, *messages: Any) -> list[Event]:
  return [
      event
      for message in messages
      async for event in runner.run_async(
          user_id='user',
          session_id=session_id,
          new_message=types.UserContent(message),
      )
  ]


@pytest.mark.asyncio
async def test_booker_sees_the_user_and_itself_not_the_classifier():
  classifier = LlmAgent(
      name='classifier', model=_ScriptedModel(script=['CLASSIFIER'] * 2)
  )
  model = _ScriptedModel(script=['BOOKER-1', 'BOOKER-2'])
  booker = LlmAgent(
      name='booker', model=model, include_sources=['user', 'self']
  )
  with warnings.catch_warnings():  # SequentialAgent is deprecated in 2.x.
    warnings.simplefilter('ignore', DeprecationWarning)
    root = SequentialAgent(name='pipeline', sub_agents=[classifier, booker])
  runner, session_id = await _runner(root)

  await _send(runner, session_id, 'USER-1 table', 'USER-2 for three')

  assert _text(model.requests[1]) == (
      'user: USER-1 table\nmodel: BOOKER-1\nuser: USER-2 for three'
  )


@pytest.mark.asyncio
async def test_text_beside_an_in_flight_call_is_kept():
  call = types.Part.from_function_call(name='_lookup', args={})
  model = _ScriptedModel(script=[['CHECKING', call], 'ANSWER'])
  agent = LlmAgent(
      name='concierge', model=model, tools=[_lookup], include_sources=['user']
  )
  runner, session_id = await _runner(agent)

  await _send(runner, session_id, 'USER-1 rome?')

  assert _text(model.requests[1]) == (
      'user: USER-1 rome?\nmodel: CHECKING\nmodel: call _lookup\n'
      'user: response _lookup'
  )


@pytest.mark.asyncio
async def test_a_long_running_result_posted_later_reaches_the_model():
  call = types.Part.from_function_call(name='_book', args={})
  model = _ScriptedModel(script=[call, 'BOOKED'])
  agent = LlmAgent(
      name='concierge',
      model=model,
      tools=[LongRunningFunctionTool(_book)],
      include_sources=['user'],
  )
  runner, session_id = await _runner(agent)
  events = await _send(runner, session_id, 'USER-1 book it')
  [call] = [c for e in events for c in e.get_function_calls()]

  answer = types.FunctionResponse(id=call.id, name='_book', response={})
  await _send(runner, session_id, types.Part(function_response=answer))

  assert _text(model.requests[1]) == (
      'user: USER-1 book it\nmodel: call _book\nuser: response _book'
  )


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('covered_author', 'kept'), [('user', True), ('scout', False)]
)
async def test_a_compaction_summary_goes_with_what_it_covers(
    covered_author, kept
):
  compaction = EventCompaction(
      start_timestamp=1.0,
      end_timestamp=2.0,
      compacted_content=types.UserContent('SUMMARY'),
  )
  summary = Event(
      author='user', timestamp=3.0, actions=EventActions(compaction=compaction)
  )
  earlier = Event(
      author=covered_author, timestamp=1.0, content=types.UserContent('EARLIER')
  )
  model = _ScriptedModel(script=['CONCIERGE-1'])
  agent = LlmAgent(name='concierge', model=model, include_sources=['user'])
  runner, session_id = await _runner(agent, [earlier, summary])

  await _send(runner, session_id, 'USER-1 hello')

  text = _text(model.requests[0])
  assert ('SUMMARY' in text) == kept
  assert 'EARLIER' not in text
