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

"""``Event.visibility`` survives the in-memory, SQLite and database services.

A pipeline whose first agent is internal runs through a Runner into each
service; a new service instance then reads the session back from storage.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Callable
import json
from pathlib import Path
import sqlite3
from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.base_session_service import BaseSessionService
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.schemas import v0
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types
import pytest
import sqlalchemy

_APP = 'visibility_app'
_USER = 'user'
_SESSION = 'session'
_INTERNAL_TEXT = 'classifier says: booking'
_USER_TEXT = 'booker says: booked'
_RUN_METADATA = {'ticket': 'T-1'}
_MODEL_METADATA = {'confidence': 0.9}


class _ScriptedLlm(BaseLlm):
  """Answers every request with the same text and metadata."""

  model: str = 'scripted-llm'
  reply: str = ''
  metadata: dict[str, Any] | None = None

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)]),
        custom_metadata=self.metadata,
    )


def _pipeline() -> SequentialAgent:
  return SequentialAgent(
      name='pipeline',
      sub_agents=[
          LlmAgent(
              name='classifier',
              model=_ScriptedLlm(
                  reply=_INTERNAL_TEXT, metadata=dict(_MODEL_METADATA)
              ),
              visibility='internal',
          ),
          LlmAgent(name='booker', model=_ScriptedLlm(reply=_USER_TEXT)),
      ],
  )


async def _run(service: BaseSessionService, agent: LlmAgent | SequentialAgent):
  """Runs one turn through a Runner and returns the events it yielded."""
  runner = Runner(app_name=_APP, agent=agent, session_service=service)
  await service.create_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  return [
      event
      async for event in runner.run_async(
          user_id=_USER,
          session_id=_SESSION,
          new_message=types.UserContent('book it'),
          run_config=RunConfig(custom_metadata=dict(_RUN_METADATA)),
      )
  ]


async def _read_back(service: BaseSessionService) -> list[Event]:
  session = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  assert session is not None
  return session.events


async def _close(service: BaseSessionService) -> None:
  if isinstance(service, (SqliteSessionService, DatabaseSessionService)):
    await service.close()


def _make_v0_database(path: Path) -> str:
  """Creates the legacy tables, which makes the service use that schema."""
  engine = sqlalchemy.create_engine(f'sqlite:///{path}')
  v0.Base.metadata.create_all(engine)
  engine.dispose()
  return f'sqlite+aiosqlite:///{path}'


_ServiceFactory = Callable[[], BaseSessionService]


@pytest.fixture(params=['in_memory', 'sqlite', 'database_v1', 'database_v0'])
def service_factory(request, tmp_path: Path) -> _ServiceFactory:
  """Returns a factory of services that share one store."""
  path = tmp_path / 'sessions.db'
  if request.param == 'in_memory':
    shared = InMemorySessionService()
    return lambda: shared
  if request.param == 'sqlite':
    return lambda: SqliteSessionService(str(path))
  if request.param == 'database_v1':
    url = f'sqlite+aiosqlite:///{path}'
  else:
    url = _make_v0_database(path)
  return lambda: DatabaseSessionService(url)


async def _run_and_read_back(
    factory: _ServiceFactory, agent: LlmAgent | SequentialAgent
) -> tuple[list[Event], list[Event]]:
  writer = factory()
  yielded = await _run(writer, agent)
  await _close(writer)
  reader = factory()
  stored = await _read_back(reader)
  await _close(reader)
  return yielded, stored


async def test_internal_events_read_back_internal_with_user_metadata(
    service_factory: _ServiceFactory,
):
  yielded, stored = await _run_and_read_back(service_factory, _pipeline())

  assert [
      (e.author, e.content.parts[0].text, e.is_user_facing) for e in stored
  ] == [
      ('user', 'book it', True),
      ('classifier', _INTERNAL_TEXT, False),
      ('booker', _USER_TEXT, True),
  ]
  assert [e.visibility for e in stored] == [None, 'internal', None]
  assert [e.visibility for e in yielded] == ['internal', None]
  # Nothing the user stored in custom_metadata is lost or changed.
  by_id = {event.id: event for event in stored}
  for event in yielded:
    assert by_id[event.id].custom_metadata == event.custom_metadata
  assert by_id[yielded[0].id].custom_metadata == {
      **_RUN_METADATA,
      **_MODEL_METADATA,
  }
  assert by_id[yielded[1].id].custom_metadata == _RUN_METADATA


async def test_single_agent_events_serialize_without_the_field(
    service_factory: _ServiceFactory,
):
  yielded, stored = await _run_and_read_back(
      service_factory, LlmAgent(name='solo', model=_ScriptedLlm(reply='hi'))
  )

  assert len(stored) == 2
  for event in yielded + stored:
    assert event.is_user_facing
    assert 'visibility' not in event.model_dump()
    assert 'visibility' not in event.model_dump_json(by_alias=True)


async def test_direct_append_keeps_the_flag_and_empty_metadata(
    service_factory: _ServiceFactory,
):
  writer = service_factory()
  session = await writer.create_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  for visibility, metadata in [
      ('internal', None),
      ('internal', {'note': {'nested': [1, 2]}}),
      (None, {'note': 'plain'}),
  ]:
    await writer.append_event(
        session,
        Event(
            author='agent',
            invocation_id='inv',
            visibility=visibility,
            custom_metadata=metadata,
        ),
    )
  await _close(writer)
  reader = service_factory()
  stored = await _read_back(reader)
  await _close(reader)

  assert [(e.visibility, e.custom_metadata) for e in stored] == [
      ('internal', None),
      ('internal', {'note': {'nested': [1, 2]}}),
      (None, {'note': 'plain'}),
  ]


async def test_v0_rows_carry_the_flag_in_custom_metadata(tmp_path: Path):
  path = tmp_path / 'legacy.db'
  service = DatabaseSessionService(_make_v0_database(path))
  await _run(service, _pipeline())
  await service.close()

  with sqlite3.connect(path) as connection:
    columns = {
        row[1] for row in connection.execute('PRAGMA table_info(events)')
    }
    rows = connection.execute(
        'SELECT author, custom_metadata FROM events ORDER BY timestamp'
    ).fetchall()
  # The legacy layout has one column per field and none for the flag.
  assert 'event_data' not in columns and 'visibility' not in columns
  metadata = {author: json.loads(value) for author, value in rows}
  assert metadata['classifier'] == {
      **_RUN_METADATA,
      **_MODEL_METADATA,
      '__adk_internal_visibility': {'event': 'internal'},
  }
  assert metadata['booker'] == _RUN_METADATA
