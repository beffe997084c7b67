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

"""What InMemorySessionService hands out is the caller's own.

A caller that mutates a session it was handed (its events list, an event at
any depth, its state at any depth) changes neither what is stored nor another
caller's session. Whatever makes `get_session` cheaper for long sessions must
keep this: these tests hold it through the public API. (Upstream's opt-in
`ADK_ENABLE_IN_MEMORY_SESSION_SERVICE_LIGHT_COPY` shares the events and the
state's values, and does not keep it for an event's fields or a nested state
value.)
"""

from __future__ import annotations

from typing import Any
from typing import Callable

from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.genai import types
import pytest

_APP = 'copies_app'
_USER = 'user'


def _mutations() -> dict[str, Callable[[Session], Any]]:
  """Ways a caller may change the session it holds, by name."""

  def first(session: Session) -> Event:
    return session.events[0]

  return {
      'append an event': lambda s: s.events.append(
          Event(invocation_id='inv-x', author='intruder')
      ),
      'remove an event': lambda s: s.events.pop(),
      'replace an event': lambda s: s.events.__setitem__(
          0, Event(invocation_id='inv-x', author='intruder')
      ),
      "set an event's field": lambda s: setattr(first(s), 'author', 'intruder'),
      "edit an event's text": lambda s: setattr(
          first(s).content.parts[0], 'text', 'changed'
      ),
      "add a part to an event's content": (
          lambda s: first(s).content.parts.append(types.Part(text='added'))
      ),
      "edit an event's state delta": (
          lambda s: first(s).actions.state_delta.__setitem__(
              'cart', ['changed']
          )
      ),
      "edit an event's nested state delta value": (
          lambda s: first(s).actions.state_delta['cart'].append('added')
      ),
      'set a state key': lambda s: s.state.__setitem__('cart', ['changed']),
      'edit a nested state value': lambda s: s.state['cart'].append('added'),
      'edit a user state value': lambda s: s.state['user:tags'].append('x'),
      'delete a state key': lambda s: s.state.pop('cart'),
  }


async def _service_with_history() -> tuple[InMemorySessionService, str]:
  service = InMemorySessionService()
  session = await service.create_session(app_name=_APP, user_id=_USER)
  for number, cart in enumerate((['tea'], ['tea', 'cake'])):
    await service.append_event(
        session,
        Event(
            invocation_id=f'inv-{number}',
            author='agent',
            content=types.ModelContent(
                parts=[types.Part(text=f'reply {number}')]
            ),
            actions=EventActions(
                state_delta={'cart': list(cart), 'user:tags': ['regular']}
            ),
        ),
    )
  return service, session.id


async def _get(service: InMemorySessionService, session_id: str) -> Session:
  session = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  assert session is not None
  return session


def _snapshot(session: Session) -> dict[str, Any]:
  return session.model_dump(mode='json')


@pytest.mark.parametrize('mutation', sorted(_mutations()))
async def test_a_mutated_session_changes_nothing_stored(mutation: str):
  service, session_id = await _service_with_history()
  before = _snapshot(await _get(service, session_id))
  held = await _get(service, session_id)

  _mutations()[mutation](held)

  assert _snapshot(held) != before
  assert _snapshot(await _get(service, session_id)) == before


@pytest.mark.parametrize('mutation', sorted(_mutations()))
async def test_a_mutated_session_changes_no_other_callers_session(
    mutation: str,
):
  service, session_id = await _service_with_history()
  mine = await _get(service, session_id)
  theirs = await _get(service, session_id)
  before = _snapshot(theirs)

  _mutations()[mutation](mine)

  assert _snapshot(theirs) == before


async def test_an_appended_event_reaches_the_store_and_later_sessions():
  service, session_id = await _service_with_history()
  held = await _get(service, session_id)
  event = Event(
      invocation_id='inv-2',
      author='agent',
      actions=EventActions(state_delta={'cart': ['tea', 'cake', 'jam']}),
  )
  await service.append_event(held, event)

  stored = await _get(service, session_id)
  assert [e.invocation_id for e in stored.events] == [
      'inv-0',
      'inv-1',
      'inv-2',
  ]
  assert stored.state['cart'] == ['tea', 'cake', 'jam']
