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

"""InMemorySessionService.append_event's duplicate check.

An equal re-delivery of a stored event is ignored, distinct events that share
an id are kept, and finding out costs the same whatever the session's length:
the check does not read the stored events.
"""

from __future__ import annotations

from typing import Any

from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.genai import types

_APP = 'dedup_app'
_USER = 'user'

# Invocation ids of the counting events whose id was read, while counting.
_ID_READS: list[str] | None = None


class _CountedEvent(Event):
  """An event that notes each read of its id while `_ID_READS` is a list."""

  def __getattribute__(self, name: str) -> Any:
    if name == 'id' and _ID_READS is not None:
      _ID_READS.append(object.__getattribute__(self, 'invocation_id'))
    return super().__getattribute__(name)


def _event(number: int, *, cls: type[Event] = Event, **extra: Any) -> Event:
  return cls(
      invocation_id=f'inv-{number}',
      author='agent',
      content=types.ModelContent(parts=[types.Part(text=f'reply {number}')]),
      **extra,
  )


async def _stored_events(
    service: InMemorySessionService, session_id: str
) -> list[Event]:
  session = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  assert session is not None
  return session.events


async def test_equal_redelivery_is_stored_and_applied_once():
  service = InMemorySessionService()
  session = await service.create_session(app_name=_APP, user_id=_USER)
  event = _event(1, actions=EventActions(state_delta={'count': 1}))
  await service.append_event(session, event)
  await service.append_event(session, event)
  await service.append_event(session, event.model_copy(deep=True))

  events = await _stored_events(service, session.id)
  assert [e.id for e in events] == [event.id]
  assert session.events == [event]
  fetched = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session.id
  )
  assert fetched is not None and fetched.state == {'count': 1}


async def test_distinct_events_that_share_an_id_are_kept():
  service = InMemorySessionService()
  session = await service.create_session(app_name=_APP, user_id=_USER)
  first = _event(1, id='fixed-id')
  second = _event(2, id='fixed-id')
  await service.append_event(session, first)
  await service.append_event(session, second)
  await service.append_event(session, second.model_copy(deep=True))

  events = await _stored_events(service, session.id)
  assert [e.invocation_id for e in events] == ['inv-1', 'inv-2']


async def test_a_recreated_session_does_not_inherit_the_old_events():
  service = InMemorySessionService()
  session = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s1'
  )
  event = _event(1)
  await service.append_event(session, event)
  await service.delete_session(app_name=_APP, user_id=_USER, session_id='s1')
  session = await service.create_session(
      app_name=_APP, user_id=_USER, session_id='s1'
  )
  await service.append_event(session, event)

  assert [e.id for e in await _stored_events(service, 's1')] == [event.id]


async def test_the_check_does_not_read_the_stored_events():
  global _ID_READS
  service = InMemorySessionService()
  session = await service.create_session(app_name=_APP, user_id=_USER)
  for number in range(50):
    await service.append_event(session, _event(number, cls=_CountedEvent))

  _ID_READS = []
  try:
    for number in range(50, 60):
      await service.append_event(session, _event(number, cls=_CountedEvent))
    reads = _ID_READS
  finally:
    _ID_READS = None

  # Each append may read the id of the event appended just before it, once;
  # none of the history before that.
  earlier = {f'inv-{number}' for number in range(49)}
  assert not earlier & set(reads)
  assert len(reads) < 60
  assert len(await _stored_events(service, session.id)) == 60
