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

"""DatabaseSessionService converts only the rows added since its last read.

Every read must still return what reading every row returns: each test
compares the service's sessions with those of a second service on the same
database, which has read nothing before.
"""

from __future__ import annotations

from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.errors._stale_session_error import StaleSessionError
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.schemas import v1
from google.genai import types
import pytest

_APP = 'app'
_USER = 'user'


@pytest.fixture
def db_url(tmp_path):
  return f'sqlite+aiosqlite:///{tmp_path}/sessions.db'


@pytest.fixture
def conversions(monkeypatch):
  """How many stored rows were converted into events."""
  counted = {'rows': 0}
  to_event = v1.StorageEvent.to_event

  def counting_to_event(self):
    counted['rows'] += 1
    return to_event(self)

  monkeypatch.setattr(v1.StorageEvent, 'to_event', counting_to_event)
  return counted


async def _read(service, session_id):
  return await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )


async def _read_fresh(db_url, session_id):
  """The session as a service that has read nothing before returns it."""
  fresh = DatabaseSessionService(db_url)
  try:
    return await _read(fresh, session_id)
  finally:
    await fresh.close()


def _said(author, text, **fields):
  return Event(
      author=author,
      invocation_id='inv',
      content=types.Content(
          role='user' if author == 'user' else 'model',
          parts=[types.Part(text=text)],
      ),
      **fields,
  )


class _Replier(BaseLlm):
  """Answers every request with the number of contents it was sent."""

  model: str = 'scripted'

  async def generate_content_async(
      self, llm_request, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream
    yield LlmResponse(
        content=types.ModelContent(
            parts=[types.Part(text=f'{len(llm_request.contents)} contents')]
        )
    )


@pytest.mark.asyncio
async def test_a_conversation_reads_as_a_fresh_service_reads_it(
    db_url, conversions
):
  service = DatabaseSessionService(db_url)
  runner = Runner(
      app_name=_APP,
      agent=LlmAgent(name='helper', model=_Replier(), output_key='last'),
      session_service=service,
  )
  session = await service.create_session(app_name=_APP, user_id=_USER)
  for turn in range(6):
    conversions['rows'] = 0
    async for _ in runner.run_async(
        user_id=_USER,
        session_id=session.id,
        new_message=types.UserContent(parts=[types.Part(text=f'turn {turn}')]),
    ):
      pass
    # The reads of the turn and the one below converted only the turn's two
    # rows, the user's message and the reply.
    read = await _read(service, session.id)
    assert conversions['rows'] == 2
    fresh = await _read_fresh(db_url, session.id)
    assert read.model_dump() == fresh.model_dump()
    assert [e.content.parts[0].text for e in read.events][-1] == (
        f'{2 * turn + 1} contents'
    )
  await runner.close()
  await service.close()


@pytest.mark.asyncio
async def test_changing_a_returned_session_changes_no_later_read(db_url):
  service = DatabaseSessionService(db_url)
  session = await service.create_session(app_name=_APP, user_id=_USER)
  await service.append_event(
      session,
      _said('helper', 'kept', actions=EventActions(state_delta={'k': [1]})),
  )
  handed = await _read(service, session.id)
  handed.events[0].content.parts[0].text = 'changed'
  handed.events[0].actions.state_delta['k'].append(2)
  handed.events.append(_said('helper', 'added'))

  again = await _read(service, session.id)
  assert again.events[0].content.parts[0].text == 'kept'
  assert again.events[0].actions.state_delta == {'k': [1]}
  assert len(again.events) == 1
  assert (
      again.model_dump() == (await _read_fresh(db_url, session.id)).model_dump()
  )
  # Two reads share nothing either.
  assert again.events[0] is not handed.events[0]
  assert again.events[0].content is not handed.events[0].content
  await service.close()


@pytest.mark.asyncio
async def test_another_writers_rows_are_read(db_url, conversions):
  service = DatabaseSessionService(db_url)
  other = DatabaseSessionService(db_url)
  session = await service.create_session(app_name=_APP, user_id=_USER)
  await service.append_event(session, _said('user', 'one'))
  await _read(service, session.id)

  theirs = await _read(other, session.id)
  await other.append_event(theirs, _said('helper', 'two'))
  await other.append_event(theirs, _said('user', 'three'))

  conversions['rows'] = 0
  read = await _read(service, session.id)
  assert conversions['rows'] == 2
  assert [e.content.parts[0].text for e in read.events] == [
      'one',
      'two',
      'three',
  ]
  assert (
      read.model_dump() == (await _read_fresh(db_url, session.id)).model_dump()
  )
  # The session read before the other writer wrote is stale, as before.
  with pytest.raises(StaleSessionError):
    await service.append_event(session, _said('user', 'four'))
  await service.close()
  await other.close()


@pytest.mark.asyncio
async def test_a_row_written_with_an_earlier_time_is_read(db_url):
  service = DatabaseSessionService(db_url)
  other = DatabaseSessionService(db_url)
  session = await service.create_session(app_name=_APP, user_id=_USER)
  first = _said('user', 'first')
  await service.append_event(session, first)
  await service.append_event(session, _said('helper', 'second'))
  await _read(service, session.id)

  # Another writer whose clock is behind: its row sorts between the two.
  theirs = await _read(other, session.id)
  await other.append_event(
      theirs, _said('helper', 'late', timestamp=first.timestamp + 1e-4)
  )

  read = await _read(service, session.id)
  assert [e.content.parts[0].text for e in read.events] == [
      'first',
      'late',
      'second',
  ]
  assert (
      read.model_dump() == (await _read_fresh(db_url, session.id)).model_dump()
  )
  await service.close()
  await other.close()


@pytest.mark.asyncio
async def test_a_session_deleted_and_made_again_reads_its_own_rows(db_url):
  service = DatabaseSessionService(db_url)
  session = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  await service.append_event(session, _said('user', 'old'))
  await _read(service, 's')

  await service.delete_session(app_name=_APP, user_id=_USER, session_id='s')
  remade = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  await service.append_event(remade, _said('user', 'new'))
  read = await _read(service, 's')
  assert [e.content.parts[0].text for e in read.events] == ['new']
  await service.close()


@pytest.mark.asyncio
async def test_rows_deleted_by_another_writer_are_gone(db_url):
  service = DatabaseSessionService(db_url)
  other = DatabaseSessionService(db_url)
  session = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  await service.append_event(session, _said('user', 'old'))
  await _read(service, 's')

  await other.delete_session(app_name=_APP, user_id=_USER, session_id='s')
  remade = await other.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  await other.append_event(remade, _said('user', 'new'))
  read = await _read(service, 's')
  assert [e.content.parts[0].text for e in read.events] == ['new']
  await service.close()
  await other.close()


@pytest.mark.asyncio
async def test_rows_replaced_by_as_many_earlier_rows_are_read(db_url):
  service = DatabaseSessionService(db_url)
  other = DatabaseSessionService(db_url)
  session = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  first = _said('user', 'a')
  await service.append_event(session, first)
  await service.append_event(session, _said('helper', 'b'))
  await _read(service, 's')

  # The session made again with as many rows before the last one read as
  # there were, and one after it: the number of rows alone looks right.
  await other.delete_session(app_name=_APP, user_id=_USER, session_id='s')
  remade = await other.create_session(
      app_name=_APP, user_id=_USER, session_id='s'
  )
  for text, timestamp in (
      ('x1', first.timestamp - 2),
      ('x2', first.timestamp - 1),
      ('y', None),
  ):
    extra = {'timestamp': timestamp} if timestamp else {}
    await other.append_event(remade, _said('user', text, **extra))

  read = await _read(service, 's')
  assert [e.content.parts[0].text for e in read.events] == ['x1', 'x2', 'y']
  await service.close()
  await other.close()
