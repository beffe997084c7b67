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

"""Tests that a run's event copies are handed to the next run, and only then."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any
from typing import Callable

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
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
  """Keeps, at each model call, the events of the session the run read."""

  def __init__(
      self,
      change: Callable[[list[Event]], None] | None = None,
      change_at_call: int = 0,
  ):
    self.seen: list[list[Event]] = []
    self._change = change
    self._change_at_call = change_at_call

  def __call__(self, callback_context: CallbackContext, llm_request: Any):
    del llm_request
    events = callback_context.session.events
    self.seen.append(list(events))
    if self._change is not None and len(self.seen) == self._change_at_call:
      self._change(events)


def _agent(sessions: _Sessions) -> LlmAgent:
  return LlmAgent(
      name='assistant', model=_ReplyLlm(), before_model_callback=sessions
  )


_ROOTS: dict[str, Callable[[_Sessions], BaseAgent | Workflow]] = {
    'llm_agent': _agent,
    'sequential_agent': lambda s: SequentialAgent(
        name='pipeline', sub_agents=[_agent(s)]
    ),
    'workflow': lambda s: Workflow(name='flow', edges=[(START, _agent(s))]),
}


async def _runner(root: str, sessions: _Sessions) -> tuple[Runner, str]:
  agent = _ROOTS[root](sessions)
  service = InMemorySessionService()
  if isinstance(agent, Workflow):
    runner = Runner(app_name=_APP, node=agent, session_service=service)
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


@pytest.mark.parametrize('root', sorted(_ROOTS))
@pytest.mark.asyncio
async def test_a_run_gets_the_copies_the_previous_run_gave_back(root: str):
  sessions = _Sessions()
  runner, session_id = await _runner(root, sessions)

  for text in ('one', 'two', 'three'):
    await _turn(runner, session_id, text)

  second, third = sessions.seen[1], sessions.seen[2]
  # The first turn's message and reply, which the second run read as copies,
  # are handed to the third run as they are, not copied again.
  assert [e.author for e in second[:2]] == ['user', 'assistant']
  assert third[0] is second[0]
  assert third[1] is second[1]


@pytest.mark.parametrize('root', sorted(_ROOTS))
@pytest.mark.asyncio
async def test_an_event_a_run_changed_is_copied_again(root: str):
  def edit_first_text(events: list[Event]) -> None:
    events[0].content.parts[0].text = 'changed'

  # In the first run the user's message is the event the run appended, which
  # the store holds too; from the second run on it is a copy.
  sessions = _Sessions(change=edit_first_text, change_at_call=2)
  runner, session_id = await _runner(root, sessions)

  for text in ('one', 'two', 'three'):
    await _turn(runner, session_id, text)

  second, third = sessions.seen[1], sessions.seen[2]
  assert third[0] is not second[0]
  # What the third run read is the stored event, as the user sent it.
  assert third[0].content.parts[0].text == 'one'
  assert (await _stored(runner, session_id))[0].content.parts[0].text == 'one'


@pytest.mark.asyncio
async def test_a_session_a_caller_keeps_is_not_handed_to_a_run():
  sessions = _Sessions()
  runner, session_id = await _runner('llm_agent', sessions)
  await _turn(runner, session_id, 'one')
  await _turn(runner, session_id, 'two')

  # This read takes the copies the second run gave back, and keeps them.
  held = await _stored(runner, session_id)
  await _turn(runner, session_id, 'three')
  held[0].content.parts[0].text = 'changed by the caller'
  await _turn(runner, session_id, 'four')

  third, fourth = sessions.seen[2], sessions.seen[3]
  assert not {id(event) for event in held} & {id(event) for event in third}
  assert fourth[0].content.parts[0].text == 'one'
  assert (await _stored(runner, session_id))[0].content.parts[0].text == 'one'


@pytest.mark.asyncio
async def test_reads_without_a_run_between_share_no_event():
  sessions = _Sessions()
  runner, session_id = await _runner('llm_agent', sessions)
  await _turn(runner, session_id, 'one')

  first = await _stored(runner, session_id)
  second = await _stored(runner, session_id)

  assert first == second
  assert all(a is not b for a, b in zip(first, second))
