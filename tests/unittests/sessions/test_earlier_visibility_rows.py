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

"""Events stored by earlier builds read back with their visibility.

Earlier builds stored the visibility as a bare string under the ADK-internal
visibility key where a layout has no field for it, and a tool's levels under a
key of their own.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
import sqlite3

from agentplatform import types as ap_types
from google.adk.events._event_records import records_of
from google.adk.events._internal_metadata import public_metadata
from google.adk.events.event import Event
from google.adk.sessions import vertex_ai_session_service
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.schemas import v0
import sqlalchemy

_APP = 'visibility_app'
_USER = 'user'
_USER_METADATA = {'ticket': 'T-1', 'note': {'nested': [1, 2]}}
_EARLIER_LEVELS = {'__adk_internal_tool_visibility': {'c1': 'hidden'}}
# What an earlier build stored for an internal event in a layout without a
# field for the flag.
_EARLIER_METADATA = {
    **_USER_METADATA,
    **_EARLIER_LEVELS,
    '__adk_internal_visibility': 'internal',
}


def _v0_database(path: Path) -> str:
  engine = sqlalchemy.create_engine(f'sqlite:///{path}')
  v0.Base.metadata.create_all(engine)
  engine.dispose()
  return f'sqlite+aiosqlite:///{path}'


async def _store_and_read(url: str, event: Event, session_id: str) -> Event:
  """Appends `event` to a new session, then reads it back with a new service."""
  writer = DatabaseSessionService(url)
  session = await writer.create_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  await writer.append_event(session, event)
  await writer.close()
  reader = DatabaseSessionService(url)
  stored = await reader.get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  await reader.close()
  assert stored is not None
  [read_back] = stored.events
  return read_back


async def test_v0_row_in_the_earlier_form_reads_back_internal(tmp_path: Path):
  path = tmp_path / 'legacy.db'
  url = _v0_database(path)

  event = await _store_and_read(
      url,
      Event(
          author='classifier',
          invocation_id='inv',
          custom_metadata=dict(_EARLIER_METADATA),
      ),
      'earlier',
  )

  assert event.visibility == 'internal'
  assert records_of(event).levels == {'c1': 'hidden'}
  assert public_metadata(event.custom_metadata) == _USER_METADATA

  # Written again, it is stored in the current form.
  await _store_and_read(url, event, 'again')
  with sqlite3.connect(path) as connection:
    [(stored,)] = connection.execute(
        "SELECT custom_metadata FROM events WHERE session_id = 'again'"
    ).fetchall()
  assert json.loads(stored) == {
      **_USER_METADATA,
      **_EARLIER_LEVELS,
      '__adk_internal_visibility': {'event': 'internal'},
  }


async def test_tool_levels_under_the_earlier_key_read_back(tmp_path: Path):
  url = f'sqlite+aiosqlite:///{tmp_path / "current.db"}'

  event = await _store_and_read(
      url,
      Event(
          author='classifier',
          invocation_id='inv',
          visibility='internal',
          custom_metadata={**_USER_METADATA, **_EARLIER_LEVELS},
      ),
      'earlier',
  )

  assert event.visibility == 'internal'
  assert records_of(event).levels == {'c1': 'hidden'}
  assert public_metadata(event.custom_metadata) == _USER_METADATA


def test_vertex_field_by_field_event_in_the_earlier_form_reads_back_internal():
  # An event as the sessions API returns it when it was appended field by
  # field (an SDK that rejects `raw_event`): the read path of that layout.
  api_event = ap_types.SessionEvent.model_validate({
      'name': 'reasoningEngines/1/sessions/s/events/e1',
      'author': 'classifier',
      'invocation_id': 'inv',
      'timestamp': datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
      'event_metadata': {'custom_metadata': dict(_EARLIER_METADATA)},
  })

  event = vertex_ai_session_service._from_api_event(api_event)

  assert event.visibility == 'internal'
  assert records_of(event).levels == {'c1': 'hidden'}
  assert public_metadata(event.custom_metadata) == _USER_METADATA
