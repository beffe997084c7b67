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

"""``Event.visibility`` through ``VertexAiSessionService``'s two storage paths.

A fake client keeps the SDK's ``SessionEvent`` objects in memory and can reject
``raw_event`` as older SDKs do, which makes the service store field by field.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import datetime
import types as py_types
from typing import Any

from agentplatform import types as ap_types
from google.adk.events.event import Event
from google.adk.sessions.vertex_ai_session_service import VertexAiSessionService
from google.genai import types
import pydantic
import pytest

_ENGINE = '123'
_USER = 'user'
_INTERNAL_TEXT = 'classifier says: booking'
_USER_TEXT = 'booker says: booked'
_RUN_METADATA = {'ticket': 'T-1'}
_USAGE = types.GenerateContentResponseUsageMetadata(total_token_count=7)


class _ConfigBeforeRawEvent(pydantic.BaseModel):
  """The append config of an SDK that predates ``raw_event``."""

  model_config = pydantic.ConfigDict(extra='forbid')

  content: Any = None
  actions: Any = None
  error_code: Any = None
  error_message: Any = None
  event_metadata: Any = None


class _FakeEvents:

  def __init__(self, accepts_raw_event: bool):
    self._accepts_raw_event = accepts_raw_event
    self.stored: dict[str, list[ap_types.SessionEvent]] = {}
    self.rejected_configs = 0

  async def append(
      self,
      *,
      name: str,
      author: str,
      invocation_id: str,
      timestamp: datetime.datetime,
      config: dict[str, Any],
  ) -> None:
    if self._accepts_raw_event:
      ap_types.AppendRuntimeSessionEventConfig.model_validate(config)
    else:
      try:
        _ConfigBeforeRawEvent.model_validate(config)
      except pydantic.ValidationError:
        self.rejected_configs += 1
        raise
    events = self.stored.setdefault(name, [])
    events.append(
        ap_types.SessionEvent.model_validate({
            **config,
            'name': f'{name}/events/{len(events)}',
            'author': author,
            'invocation_id': invocation_id,
            'timestamp': timestamp,
        })
    )

  async def list(
      self, *, name: str, config: Any = None
  ) -> AsyncIterator[ap_types.SessionEvent]:
    del config

    async def events() -> AsyncIterator[ap_types.SessionEvent]:
      for event in self.stored.get(name, []):
        yield event

    return events()


class _FakeSessions:
  """The ``sessions`` surface of the Agent Platform client, in memory."""

  def __init__(self, accepts_raw_event: bool):
    self.events = _FakeEvents(accepts_raw_event)
    self._sessions: dict[str, py_types.SimpleNamespace] = {}

  async def create(
      self, *, name: str, user_id: str, config: dict[str, Any]
  ) -> py_types.SimpleNamespace:
    session = py_types.SimpleNamespace(
        name=f'{name}/sessions/{config["session_id"]}',
        user_id=user_id,
        session_state=config.get('session_state'),
        update_time=datetime.datetime.now(datetime.timezone.utc),
    )
    self._sessions[session.name] = session
    return py_types.SimpleNamespace(response=session)

  async def get(self, *, name: str) -> py_types.SimpleNamespace:
    return self._sessions[name]


class _FakeBackedService(VertexAiSessionService):

  def __init__(self, sessions: _FakeSessions):
    super().__init__(
        project='test-project',
        location='test-location',
        agent_engine_id=_ENGINE,
    )
    self._client = py_types.SimpleNamespace(sessions=sessions)

  def _get_api_client(self) -> Any:
    return self._client


async def _append_turn(service: VertexAiSessionService) -> list[Event]:
  """Appends a user message, an internal reply and a user-facing reply."""
  session = await service.create_session(
      app_name=_ENGINE, user_id=_USER, session_id='s1'
  )
  turn = [
      Event(author='user', content=types.UserContent('book it')),
      Event(
          author='classifier',
          content=types.ModelContent(_INTERNAL_TEXT),
          visibility='internal',
          custom_metadata=dict(_RUN_METADATA),
          usage_metadata=_USAGE,
      ),
      Event(author='booker', content=types.ModelContent(_USER_TEXT)),
  ]
  for event in turn:
    event.invocation_id = 'inv'
    await service.append_event(session, event)
  return turn


async def _read_back(sessions: _FakeSessions) -> list[Event]:
  session = await _FakeBackedService(sessions).get_session(
      app_name=_ENGINE, user_id=_USER, session_id='s1'
  )
  assert session is not None
  return session.events


@pytest.mark.parametrize('accepts_raw_event', [True, False])
async def test_internal_events_read_back_internal(accepts_raw_event: bool):
  sessions = _FakeSessions(accepts_raw_event)
  appended = await _append_turn(_FakeBackedService(sessions))

  stored = await _read_back(sessions)

  assert [
      (e.author, e.content.parts[0].text, e.is_user_facing) for e in stored
  ] == [
      ('user', 'book it', True),
      ('classifier', _INTERNAL_TEXT, False),
      ('booker', _USER_TEXT, True),
  ]
  assert [e.visibility for e in stored] == [None, 'internal', None]
  [written] = sessions.events.stored.values()
  assert [bool(e.raw_event) for e in written] == [accepts_raw_event] * 3
  assert sessions.events.rejected_configs == (0 if accepts_raw_event else 3)
  assert [e.custom_metadata for e in stored] == [
      e.custom_metadata for e in appended
  ]
  # The user's metadata reads back beside the key that keeps usage metadata.
  assert stored[1].usage_metadata == _USAGE
  for event in stored[::2]:
    assert 'visibility' not in event.model_dump()
