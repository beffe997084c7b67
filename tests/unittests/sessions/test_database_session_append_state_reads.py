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

"""Tests that DatabaseSessionService reads the state rows only for state changes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.genai import types
import pytest
from sqlalchemy import delete
from sqlalchemy import event as sqlalchemy_event

_APP = 'state_reads_app'
_USER = 'user'


class _Statements:
  """The SQL statements the service's engine runs, as it runs them."""

  def __init__(self, service: DatabaseSessionService):
    self.texts: list[str] = []
    sqlalchemy_event.listen(
        service.db_engine.sync_engine, 'before_cursor_execute', self._note
    )

  def _note(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
    del conn, cursor, args
    self.texts.append(statement)

  def reading(self, table: str) -> list[str]:
    return [
        text
        for text in self.texts
        if text.lstrip().upper().startswith('SELECT')
        and f'FROM {table}' in text
    ]


@pytest.fixture
async def service(tmp_path: Any) -> AsyncIterator[DatabaseSessionService]:
  service = DatabaseSessionService(f'sqlite+aiosqlite:///{tmp_path}/s.db')
  yield service
  await service.close()


def _reply(text: str, state_delta: dict[str, Any] | None = None) -> Event:
  return Event(
      invocation_id='inv',
      author='assistant',
      content=types.Content(role='model', parts=[types.Part(text=text)]),
      actions=EventActions(state_delta=state_delta or {}),
  )


@pytest.mark.asyncio
async def test_event_without_state_delta_reads_no_state_row(service):
  session = await service.create_session(app_name=_APP, user_id=_USER)
  statements = _Statements(service)

  await service.append_event(session, _reply('hello'))

  assert statements.reading('app_states') == []
  assert statements.reading('user_states') == []
  stored = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  assert [event.content.parts[0].text for event in stored.events] == ['hello']


@pytest.mark.asyncio
@pytest.mark.parametrize(
    'state_delta',
    [{'app:mode': 'a'}, {'user:name': 'b'}, {'topic': 'c'}],
    ids=['app', 'user', 'session'],
)
async def test_event_with_state_delta_reads_both_state_rows(
    service, state_delta
):
  session = await service.create_session(app_name=_APP, user_id=_USER)
  statements = _Statements(service)

  await service.append_event(session, _reply('hello', state_delta))

  assert len(statements.reading('app_states')) == 1
  assert len(statements.reading('user_states')) == 1
  stored = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  assert stored.state.items() >= state_delta.items()


@pytest.mark.asyncio
async def test_state_delta_after_events_without_one_is_stored(service):
  session = await service.create_session(
      app_name=_APP, user_id=_USER, state={'app:count': 1, 'user:count': 1}
  )

  await service.append_event(session, _reply('one'))
  await service.append_event(
      session, _reply('two', {'app:count': 2, 'user:count': 2, 'count': 2})
  )
  await service.append_event(session, _reply('three'))

  stored = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  assert stored.state == {'app:count': 2, 'user:count': 2, 'count': 2}
  assert len(stored.events) == 3


@pytest.mark.asyncio
async def test_missing_state_row_is_reported_only_for_a_state_change(service):
  session = await service.create_session(app_name=_APP, user_id=_USER)
  schema = service._get_schema_classes()
  async with service.database_session_factory() as sql_session:
    await sql_session.execute(
        delete(schema.StorageAppState).where(
            schema.StorageAppState.app_name == _APP
        )
    )
    await sql_session.commit()

  # Nothing is merged into the missing row, so the event is stored.
  await service.append_event(session, _reply('hello'))
  with pytest.raises(ValueError, match='App state missing'):
    await service.append_event(session, _reply('again', {'topic': 'x'}))

  stored = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  assert [event.content.parts[0].text for event in stored.events] == ['hello']
  assert stored.state == {}
