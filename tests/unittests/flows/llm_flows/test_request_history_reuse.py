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

"""An agent's request history built from its previous call's is the same.

Each test runs a conversation through a Runner and, at every model call,
compares the request's contents with those `_get_contents` builds from the
session without the kept history (the reference).
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.flows.llm_flows.context._contents import _get_contents
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.genai import types
import pytest

_APP = 'app'
_USER = 'user'


def _dumps(contents: list[types.Content]) -> list[Any]:
  """The contents as JSON, with and without the fields left unset."""
  return [
      (
          content.model_dump(mode='json', exclude_none=True),
          content.model_dump(mode='json', exclude_unset=True),
      )
      for content in contents
  ]


class _Calls:
  """Every model call's contents and the reference built beside it."""

  def __init__(self) -> None:
    self.compared = 0
    self.mismatches: list[str] = []

  def check(self, callback_context: Any, llm_request: Any) -> None:
    context = callback_context._invocation_context
    events = context.session.events
    reference = _get_contents(context.branch, events, context.agent.name)
    self.compared += 1
    if _dumps(llm_request.contents) != _dumps(reference):
      self.mismatches.append(f'{context.agent.name} at {len(events)} events')
    # The session's objects are alive while compared, so no id is reused.
    session_objects = set()
    for event in events:
      if event.content:
        session_objects.add(id(event.content))
        session_objects.update(id(p) for p in event.content.parts or ())
    for content in llm_request.contents:
      if id(content) in session_objects or any(
          id(p) in session_objects for p in content.parts or ()
      ):
        self.mismatches.append(f'{context.agent.name} shares a session object')


class _Scripted(BaseLlm):
  """Replies with text; the researcher first calls its tool."""

  model: str = 'scripted'

  async def generate_content_async(
      self, llm_request: Any, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream
    last = llm_request.contents[-1]
    wants_tool = self.model == 'researcher' and not any(
        p.function_response for p in last.parts or ()
    )
    if wants_tool:
      part = types.Part(
          function_call=types.FunctionCall(
              name='search', args={'query': f'{len(llm_request.contents)}'}
          )
      )
    else:
      part = types.Part(
          text=f'{self.model} read {len(llm_request.contents)} contents'
      )
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def search(query: str) -> dict[str, str]:
  """Finds what the query asks for."""
  return {'result': f'found {query}'}


def _pipeline(calls: _Calls, **callbacks: Any) -> SequentialAgent:
  agents = [
      LlmAgent(
          name=name,
          model=_Scripted(model=name),
          instruction=f'You are the {name}.',
          tools=[search] if name == 'researcher' else [],
          before_model_callback=callbacks.get(name, calls.check),
      )
      for name in ('intake', 'researcher', 'writer')
  ]
  return SequentialAgent(name='pipeline', sub_agents=agents)


async def _converse(runner: Runner, session_id: str, turns: int) -> None:
  for turn in range(turns):
    async for _ in runner.run_async(
        user_id=_USER,
        session_id=session_id,
        new_message=types.UserContent(parts=[types.Part(text=f'ask {turn}')]),
    ):
      pass


@pytest.fixture(params=['in_memory', 'sqlite'])
def session_service(request, tmp_path):
  if request.param == 'in_memory':
    return InMemorySessionService()
  return DatabaseSessionService(f'sqlite+aiosqlite:///{tmp_path}/s.db')


@pytest.mark.asyncio
async def test_every_request_is_the_one_built_from_scratch(session_service):
  calls = _Calls()
  runner = Runner(
      app_name=_APP, agent=_pipeline(calls), session_service=session_service
  )
  session = await session_service.create_session(app_name=_APP, user_id=_USER)
  await _converse(runner, session.id, 8)
  assert calls.compared == 8 * 4
  assert calls.mismatches == []
  await runner.close()


@pytest.mark.asyncio
async def test_an_event_edited_in_place_reaches_the_next_request(
    session_service,
):
  service = session_service
  calls = _Calls()

  def redact_then_check(callback_context, llm_request):
    calls.check(callback_context, llm_request)
    events = callback_context._invocation_context.session.events
    events[0].content.parts[0].text = f'redacted {len(events)}'

  runner = Runner(
      app_name=_APP,
      agent=_pipeline(calls, researcher=redact_then_check),
      session_service=service,
  )
  session = await service.create_session(app_name=_APP, user_id=_USER)
  await _converse(runner, session.id, 3)
  assert calls.compared == 3 * 4
  assert calls.mismatches == []
  await runner.close()


@pytest.mark.asyncio
async def test_a_request_changed_by_a_callback_changes_no_later_request(
    session_service,
):
  calls = _Calls()

  def check_then_change(callback_context, llm_request):
    calls.check(callback_context, llm_request)
    for content in llm_request.contents:
      for part in content.parts or ():
        if part.text:
          part.text = 'changed by the callback'
    llm_request.contents[0].parts.append(types.Part(text='added'))

  runner = Runner(
      app_name=_APP,
      agent=_pipeline(
          calls,
          intake=check_then_change,
          researcher=check_then_change,
          writer=check_then_change,
      ),
      session_service=session_service,
  )
  session = await session_service.create_session(app_name=_APP, user_id=_USER)
  await _converse(runner, session.id, 5)
  assert calls.compared == 5 * 4
  assert calls.mismatches == []
  await runner.close()


@pytest.mark.asyncio
async def test_a_rewind_gives_the_request_built_from_scratch():
  service = InMemorySessionService()
  calls = _Calls()
  runner = Runner(
      app_name=_APP, agent=_pipeline(calls), session_service=service
  )
  session = await service.create_session(app_name=_APP, user_id=_USER)
  await _converse(runner, session.id, 3)
  stored = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  second_turn = stored.events[7].invocation_id
  await service.append_event(
      stored,
      Event(
          author='user',
          invocation_id='rewind',
          actions=EventActions(rewind_before_invocation_id=second_turn),
      ),
  )
  await _converse(runner, session.id, 2)
  assert calls.compared == 5 * 4
  assert calls.mismatches == []
  await runner.close()
