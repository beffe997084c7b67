"""``Event.visibility`` in ``DatabaseSessionService`` on a real PostgreSQL.

Both schemas: a new database gets the current (v1) schema; a database whose
legacy (v0) tables already exist keeps that schema.
"""

from __future__ import annotations

import json
from typing import Any

from _scripted import ScriptedLlm
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events._event_records import records_of
from google.adk.events._internal_metadata import public_metadata
from google.adk.events.event import Event
from google.adk.runners import Runner
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.schemas import v0
from google.genai import types
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

pytestmark = pytest.mark.filterwarnings('ignore::DeprecationWarning')

_APP, _USER, _SESSION = 'pg_app', 'pg_user', 'pg_session'
_INTERNAL_TEXT = 'classifier says: booking'
_USER_TEXT = 'booker says: booked'
_RUN_METADATA = {'ticket': 'T-1', 'nested': {'list': [1, 'two']}}


async def _write_and_read(url: str) -> tuple[list[Event], list[Event]]:
  writer = DatabaseSessionService(url)
  runner = Runner(
      app_name=_APP,
      agent=SequentialAgent(
          name='pipeline',
          sub_agents=[
              LlmAgent(
                  name='classifier', model=ScriptedLlm(script=[_INTERNAL_TEXT])
              ),
              LlmAgent(name='booker', model=ScriptedLlm(script=[_USER_TEXT])),
          ],
      ),
      session_service=writer,
  )
  await writer.create_session(app_name=_APP, user_id=_USER, session_id=_SESSION)
  yielded = [
      event
      async for event in runner.run_async(
          user_id=_USER,
          session_id=_SESSION,
          new_message=types.UserContent(parts=[types.Part(text='book it')]),
          run_config=RunConfig(custom_metadata=_RUN_METADATA),
      )
  ]
  await writer.close()
  reader = DatabaseSessionService(url)
  session = await reader.get_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  await reader.close()
  assert session is not None
  return yielded, session.events


def _assert_read_back(yielded: list[Event], stored: list[Event]) -> None:
  assert [(e.author, e.is_user_facing, e.visibility) for e in stored] == [
      ('user', True, None),
      ('classifier', False, 'internal'),
      ('booker', True, None),
  ]
  by_id = {event.id: event for event in stored}
  for event in yielded:
    assert by_id[event.id].custom_metadata == event.custom_metadata
    assert by_id[event.id].custom_metadata == _RUN_METADATA
  for event in stored[::2]:
    assert 'visibility' not in event.model_dump()


async def _query(url: str, sql: str) -> list[Any]:
  engine = create_async_engine(url)
  try:
    async with engine.connect() as connection:
      return list((await connection.execute(text(sql))).all())
  finally:
    await engine.dispose()


async def test_v1_schema_on_postgres(postgres_server):
  url = postgres_server.new_database()

  yielded, stored = await _write_and_read(url)

  _assert_read_back(yielded, stored)
  [[version]] = await _query(
      url,
      "SELECT value FROM adk_internal_metadata WHERE key = 'schema_version'",
  )
  assert version == '1'
  rows = await _query(
      url,
      "SELECT event_data->>'author', event_data->>'visibility' FROM events"
      ' ORDER BY timestamp',
  )
  assert [tuple(row) for row in rows] == [
      ('user', None),
      ('classifier', 'internal'),
      ('booker', None),
  ]


async def test_v0_schema_on_postgres(postgres_server):
  url = postgres_server.new_database()
  engine = create_async_engine(url)
  async with engine.begin() as connection:
    await connection.run_sync(v0.Base.metadata.create_all)
  await engine.dispose()

  yielded, stored = await _write_and_read(url)

  _assert_read_back(yielded, stored)
  tables = await _query(
      url,
      'SELECT table_name FROM information_schema.tables WHERE table_schema ='
      " 'public'",
  )
  assert 'adk_internal_metadata' not in {row[0] for row in tables}
  rows = await _query(
      url, 'SELECT author, custom_metadata FROM events ORDER BY timestamp'
  )
  metadata = {author: value for author, value in rows}
  assert metadata['booker'] == _RUN_METADATA
  assert metadata['classifier'] == {
      **_RUN_METADATA,
      '__adk_internal_visibility': {'event': 'internal'},
  }


async def test_v0_rows_of_earlier_builds_read_back_on_postgres(
    postgres_server,
):
  url = postgres_server.new_database()
  engine = create_async_engine(url)
  async with engine.begin() as connection:
    await connection.run_sync(v0.Base.metadata.create_all)
  await _write_and_read(url)
  # The form earlier builds of the fork wrote: the visibility as a string,
  # the tool levels under a second key.
  old_metadata = {
      **_RUN_METADATA,
      '__adk_internal_visibility': 'internal',
      '__adk_internal_tool_visibility': {'c1': 'hidden'},
  }
  async with engine.begin() as connection:
    await connection.execute(
        text(
            'UPDATE events SET custom_metadata = CAST(:old AS jsonb)'
            " WHERE author = 'classifier'"
        ),
        {'old': json.dumps(old_metadata)},
    )
  await engine.dispose()

  reader = DatabaseSessionService(url)
  session = await reader.get_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  await reader.close()

  assert session is not None
  classifier = session.events[1]
  assert (classifier.author, classifier.visibility) == (
      'classifier',
      'internal',
  )
  assert records_of(classifier).levels == {'c1': 'hidden'}
  assert public_metadata(classifier.custom_metadata) == _RUN_METADATA
