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

"""Stored records that are missing, damaged or forged show a client less.

Each case is a stored conversation in which a user-facing booker called a
hidden tool (its arguments, result and state write are private) and then
answered; one record of it is damaged as a database edit, a migration or a bug
could damage it. Every client view of the stored events (``user_view``, the
state a session read shows, ``user_messages``) must show nothing private and
must not raise.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
import sqlite3
from typing import Any

from google.adk.events._event_records import records_of
from google.adk.events._state_view import state_for_client
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.user_messages import user_messages
from google.adk.events.user_view import user_view
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.schemas import v0
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types
import pytest
import sqlalchemy

_SECRET = 'walrus-cipher-5150'
_ANSWER = 'Your table is booked.'
_RECORDS = '__adk_internal_visibility'
_INVOCATION = 'e-1'


def _event(author: str, *parts: types.Part, **fields: Any) -> Event:
  return Event(
      invocation_id=fields.pop('invocation_id', _INVOCATION),
      author=author,
      content=types.Content(
          role='user' if author == 'user' else 'model', parts=list(parts)
      ),
      **fields,
  )


def _conversation() -> list[Event]:
  """What a Runner stores for the turn, with its records as written."""
  call = types.Part(
      function_call=types.FunctionCall(
          id='c1', name='note_privately', args={'note': _SECRET}
      )
  )
  response = types.Part(
      function_response=types.FunctionResponse(
          id='c1', name='note_privately', response={'noted': _SECRET}
      )
  )
  return [
      _event('user', types.Part(text='book a table')),
      _event(
          'booker',
          call,
          custom_metadata={_RECORDS: {'tools': {'c1': 'hidden'}}},
      ),
      _event(
          'booker',
          response,
          actions=EventActions(state_delta={'private_note': _SECRET}),
          custom_metadata={
              _RECORDS: {'tools': {'c1': 'hidden'}, 'state': ['private_note']}
          },
      ),
      _event('booker', types.Part(text=_ANSWER)),
  ]


def _client_views(events: list[Event]) -> str:
  """Everything a client is sent of the stored events, serialized."""
  shown = [e.model_dump(mode='json') for e in user_view(events)]
  # The session's state: what the client gave, and what the events wrote.
  session_state = {'guest': 'Ada'}
  for event in events:
    session_state.update(event.actions.state_delta)
  state = state_for_client(session_state, events)
  messages = [m.model_dump(mode='json') for m in user_messages(events)]
  return json.dumps([shown, state, messages])


def _damage(index: int, **entries: Any) -> list[Event]:
  events = _conversation()
  event = events[index]
  metadata = copy.deepcopy(event.custom_metadata or {})
  metadata.setdefault(_RECORDS, {}).update(entries)
  event.custom_metadata = metadata
  return events


def test_the_records_as_written_show_only_the_answer():
  events = _conversation()

  sent = _client_views(events)

  assert _SECRET not in sent
  assert 'note_privately' not in sent
  assert _ANSWER in sent
  assert json.loads(sent)[1] == {'guest': 'Ada'}


@pytest.mark.parametrize(
    'level', [None, 3, 'secret', ['full'], {'level': 'full'}]
)
def test_an_unreadable_tool_level_is_hidden(level: Any):
  events = _conversation()
  for event in events[1:3]:
    event.custom_metadata = {_RECORDS: {'tools': {'c1': level}}}

  sent = _client_views(events)

  assert _SECRET not in sent
  assert 'note_privately' not in sent
  assert _ANSWER in sent


@pytest.mark.parametrize('levels', [['c1'], 'hidden', 7, {3: 'full'}])
def test_an_unreadable_levels_record_hides_every_call(levels: Any):
  events = _conversation()
  for event in events[1:3]:
    event.custom_metadata = {_RECORDS: {'tools': levels}}

  sent = _client_views(events)

  assert _SECRET not in sent
  assert 'note_privately' not in sent
  assert _ANSWER in sent


@pytest.mark.parametrize(
    'state', ['private_note', [{'key': 'private_note'}], 5, {'a': 1}]
)
def test_an_unreadable_state_record_withholds_every_key(state: Any):
  events = _damage(2, state=state)

  sent = _client_views(events)

  assert _SECRET not in sent
  assert _ANSWER in sent
  assert json.loads(sent)[1] == {'guest': 'Ada'}


@pytest.mark.parametrize('agents', [[{'id': 'c1'}], 'c1', 9])
def test_an_unreadable_agents_record_draws_no_agent(agents: Any):
  events = _damage(3, agents=agents)

  sent = _client_views(events)

  assert _SECRET not in sent
  assert _ANSWER in sent


@pytest.mark.parametrize('nested', [[{'c1': 'x'}], 'c1', {'c1': [1, 2]}])
def test_an_unreadable_nested_record_adds_nothing(nested: Any):
  events = _damage(3, nested=nested)

  sent = _client_views(events)

  assert _SECRET not in sent
  assert _ANSWER in sent


@pytest.mark.parametrize('inside', ['hidden', 'bogus', 1])
def test_an_answer_marked_inside_a_hidden_tool_is_not_shown(inside: Any):
  events = _conversation()
  events[3].custom_metadata = {_RECORDS: {'inside': inside}}

  sent = _client_views(events)

  # Less, never more: the answer is gone, and nothing stands in for it.
  assert _ANSWER not in sent
  assert _SECRET not in sent


@pytest.mark.parametrize('records', [42, ['tools'], True])
def test_an_unreadable_visibility_entry_shows_nothing_of_the_event(
    records: Any,
):
  events = _conversation()
  for event in events[1:3]:
    event.custom_metadata = {_RECORDS: records}

  sent = _client_views(events)

  assert _SECRET not in sent
  assert 'note_privately' not in sent
  assert _ANSWER in sent


@pytest.mark.parametrize('visibility', ['bogus', 3, ['user'], 'USER'])
def test_a_visibility_adk_does_not_write_reads_as_internal(visibility: Any):
  stored = _event('classifier', types.Part(text=_SECRET)).model_dump(
      mode='json'
  )
  stored['visibility'] = visibility

  event = Event.model_validate(stored)

  assert event.visibility == 'internal'
  assert not event.is_user_facing
  assert _SECRET not in _client_views([_conversation()[0], event])


def test_a_progress_update_without_the_runners_mark_is_not_progress():
  internal = _event(
      'classifier',
      types.Part(text=_SECRET),
      visibility='internal',
      custom_metadata={'adk_progress': {'run': 'x', 'status': 'step'}},
  )

  sent = _client_views([_conversation()[0], internal])

  assert records_of(internal).progress is None
  assert _SECRET not in sent
  assert 'adk_progress' not in sent


def test_a_turn_record_naming_no_event_shows_nothing():
  internal = _event(
      'classifier', types.Part(text=_SECRET), visibility='internal'
  )
  record = Event(
      invocation_id=_INVOCATION,
      author='pipeline',
      visibility='internal',
      custom_metadata={_RECORDS: {'turn': {'answer': 'not-an-event'}}},
  )

  shown = user_view([_conversation()[0], internal, record])

  assert _SECRET not in json.dumps([e.model_dump(mode='json') for e in shown])
  assert [e.author for e in shown if e.is_final_response()] == ['user']


def test_each_answer_follows_its_own_question_when_turns_ran_at_once():
  first = _event('user', types.Part(text='first?'), invocation_id='e-a')
  second = _event('user', types.Part(text='second?'), invocation_id='e-b')
  # Both turns were sent at once; the second one's answer was stored first.
  events = [
      first,
      second,
      _event(
          'booker', types.Part(text='answer to second'), invocation_id='e-b'
      ),
      _event('booker', types.Part(text='answer to first'), invocation_id='e-a'),
  ]

  messages = user_messages(events)

  assert [(m.role, m.parts[0].text) for m in messages] == [
      ('user', 'first?'),
      ('assistant', 'answer to first'),
      ('user', 'second?'),
      ('assistant', 'answer to second'),
  ]


def _v0_database(path: Path) -> str:
  """Creates the legacy tables, which makes the service use that schema."""
  engine = sqlalchemy.create_engine(f'sqlite:///{path}')
  v0.Base.metadata.create_all(engine)
  engine.dispose()
  return f'sqlite+aiosqlite:///{path}'


@pytest.mark.parametrize('schema', ['sqlite', 'database_v1', 'database_v0'])
@pytest.mark.asyncio
async def test_a_stored_visibility_adk_does_not_write_reads_back_internal(
    schema: str, tmp_path: Path
):
  path = tmp_path / 'sessions.db'
  if schema == 'sqlite':
    factory = lambda: SqliteSessionService(str(path))
  else:
    url = (
        _v0_database(path)
        if schema == 'database_v0'
        else f'sqlite+aiosqlite:///{path}'
    )
    factory = lambda: DatabaseSessionService(url)
  writer = factory()
  session = await writer.create_session(app_name='app', user_id='u')
  await writer.append_event(
      session,
      _event('classifier', types.Part(text=_SECRET), visibility='internal'),
  )
  await writer.close()
  # A damaged row, or a word a later version writes.
  with sqlite3.connect(path) as db:
    columns = [row[1] for row in db.execute('PRAGMA table_info(events)')]
    for column in columns:
      db.execute(
          f'UPDATE events SET {column} = replace({column}, ?, ?)'
          f' WHERE typeof({column}) = "text"',
          ('"internal"', '"bogus"'),
      )
    damaged = sum(
        db.execute(
            f'SELECT count(*) FROM events WHERE {column} LIKE ?',
            ('%"bogus"%',),
        ).fetchone()[0]
        for column in columns
    )
  assert damaged == 1

  reader = factory()
  stored = await reader.get_session(
      app_name='app', user_id='u', session_id=session.id
  )
  await reader.close()

  assert stored is not None
  assert [(e.author, e.visibility) for e in stored.events] == [
      ('classifier', 'internal')
  ]
  assert _SECRET not in _client_views(stored.events)
