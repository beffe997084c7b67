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

"""Tests that DatabaseSessionService hands a run the copies the last run gave back."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

_APP = 'copies_app'
_USER = 'user'


class _ReplyLlm(BaseLlm):
  """Replies 'reply'."""

  model: str = 'reply'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text='reply')])
    )


class _Sessions:
  """Keeps the session's events at each model call; edits one at call 2."""

  def __init__(self, edit: bool = False):
    self.seen: list[list[Event]] = []
    self._edit = edit

  def __call__(self, callback_context: CallbackContext, llm_request: Any):
    del llm_request
    events = callback_context.session.events
    self.seen.append(list(events))
    if self._edit and len(self.seen) == 2:
      events[0].content.parts[0].text = 'changed'


async def _runner(
    tmp_path: Any, sessions: _Sessions, workflow: bool
) -> tuple[Runner, str]:
  agent = LlmAgent(
      name='assistant', model=_ReplyLlm(), before_model_callback=sessions
  )
  service = DatabaseSessionService(f'sqlite+aiosqlite:///{tmp_path}/s.db')
  if workflow:
    runner = Runner(
        app_name=_APP,
        node=Workflow(name='flow', edges=[(START, agent)]),
        session_service=service,
    )
  else:
    runner = Runner(app_name=_APP, agent=agent, session_service=service)
  session = await service.create_session(app_name=_APP, user_id=_USER)
  return runner, session.id


async def _turn(runner: Runner, session_id: str, text: str) -> None:
  async for _ in runner.run_async(
      user_id=_USER,
      session_id=session_id,
      new_message=types.Content(role='user', parts=[types.Part(text=text)]),
  ):
    pass


async def _stored(runner: Runner, session_id: str) -> list[Event]:
  session = await runner.session_service.get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  assert session is not None
  return session.events


@pytest.mark.parametrize('workflow', [False, True])
@pytest.mark.asyncio
async def test_a_run_gets_the_copies_the_previous_run_gave_back(
    tmp_path, workflow: bool
):
  sessions = _Sessions()
  runner, session_id = await _runner(tmp_path, sessions, workflow)

  for text in ('one', 'two', 'three'):
    await _turn(runner, session_id, text)

  second, third = sessions.seen[1], sessions.seen[2]
  assert [e.author for e in second[:2]] == ['user', 'assistant']
  assert third[0] is second[0]
  assert third[1] is second[1]
  await runner.close()


@pytest.mark.parametrize('workflow', [False, True])
@pytest.mark.asyncio
async def test_an_event_a_run_changed_is_copied_again(tmp_path, workflow: bool):
  sessions = _Sessions(edit=True)
  runner, session_id = await _runner(tmp_path, sessions, workflow)

  for text in ('one', 'two', 'three'):
    await _turn(runner, session_id, text)

  assert sessions.seen[2][0] is not sessions.seen[1][0]
  assert sessions.seen[2][0].content.parts[0].text == 'one'
  assert (await _stored(runner, session_id))[0].content.parts[0].text == 'one'
  await runner.close()


@pytest.mark.asyncio
async def test_a_session_a_caller_keeps_is_not_handed_to_a_run(tmp_path):
  sessions = _Sessions()
  runner, session_id = await _runner(tmp_path, sessions, workflow=False)
  await _turn(runner, session_id, 'one')
  await _turn(runner, session_id, 'two')

  held = await _stored(runner, session_id)
  await _turn(runner, session_id, 'three')
  held[0].content.parts[0].text = 'changed by the caller'
  await _turn(runner, session_id, 'four')

  third, fourth = sessions.seen[2], sessions.seen[3]
  assert not {id(event) for event in held} & {id(event) for event in third}
  assert fourth[0].content.parts[0].text == 'one'
  assert (await _stored(runner, session_id))[0].content.parts[0].text == 'one'
  await runner.close()
