"""A long conversation's reads and writes on a real PostgreSQL.

`DatabaseSessionService` reads only the rows added since its last read (with
their count, in one statement) and appends an event that changes no state
without reading the state rows. On PostgreSQL the service locks the rows it
changes (`SELECT ... FOR UPDATE`), so these paths run there as they run for
users, beside another writer of the same session.
"""

from __future__ import annotations

from typing import Any

from _scripted import ScriptedLlm
from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.runners import Runner
from google.adk.sessions.database_session_service import DatabaseSessionService
from google.adk.sessions.session import Session
from google.genai import types
import pytest
from sqlalchemy import event as sqlalchemy_event

pytestmark = pytest.mark.filterwarnings('ignore::DeprecationWarning')

_APP, _USER, _SESSION = 'pg_reads_app', 'pg_user', 'pg_session'


class _Statements:
  """The statements a service's engine runs."""

  def __init__(self, service: DatabaseSessionService):
    self.texts: list[str] = []
    sqlalchemy_event.listen(
        service.db_engine.sync_engine, 'before_cursor_execute', self._note
    )

  def _note(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
    del conn, cursor, args
    self.texts.append(' '.join(statement.split()))

  def reading(self, table: str) -> list[str]:
    return [
        text
        for text in self.texts
        if text.upper().startswith('SELECT') and f'FROM {table} ' in text + ' '
    ]


def _comparable(session: Session) -> tuple[Any, ...]:
  return (
      [event.model_dump(mode='json') for event in session.events],
      session.state,
  )


async def _read(service: DatabaseSessionService) -> Session:
  session = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  assert session is not None
  return session


async def test_conversation_reads_as_a_fresh_service_reads_it(
    postgres_server,
):
  url = postgres_server.new_database()
  service = DatabaseSessionService(url)
  other_writer = DatabaseSessionService(url)
  try:
    agent = LlmAgent(
        name='assistant',
        model=ScriptedLlm(script=[f'reply {turn}' for turn in range(8)]),
        output_key='last_reply',
    )
    runner = Runner(app_name=_APP, agent=agent, session_service=service)
    await service.create_session(
        app_name=_APP, user_id=_USER, session_id=_SESSION
    )
    for turn in range(8):
      if turn == 4:
        # Another writer's event, between two of the service's reads.
        theirs = await _read(other_writer)
        await other_writer.append_event(
            theirs,
            Event(
                invocation_id='other',
                author='user',
                content=types.UserContent(parts=[types.Part(text='aside')]),
                actions=EventActions(state_delta={'user:seen_aside': True}),
            ),
        )
      async for _ in runner.run_async(
          user_id=_USER,
          session_id=_SESSION,
          new_message=types.UserContent(
              parts=[types.Part(text=f'turn {turn}')]
          ),
      ):
        pass

    kept = await _read(service)
    fresh = DatabaseSessionService(url)
    try:
      assert _comparable(kept) == _comparable(await _read(fresh))
    finally:
      await fresh.close()
    texts = [event.content.parts[0].text for event in kept.events]
    assert 'aside' in texts
    assert texts[-2:] == ['turn 7', 'reply 7']
    assert len(kept.events) == 17
    assert kept.state['last_reply'] == 'reply 7'
    assert kept.state['user:seen_aside'] is True
  finally:
    await service.close()
    await other_writer.close()


async def test_state_rows_are_read_and_locked_only_for_state_changes(
    postgres_server,
):
  url = postgres_server.new_database()
  service = DatabaseSessionService(url)
  try:
    session = await service.create_session(
        app_name=_APP, user_id=_USER, session_id=_SESSION
    )
    statements = _Statements(service)

    await service.append_event(
        session,
        Event(
            invocation_id='one',
            author='assistant',
            content=types.ModelContent(parts=[types.Part(text='no state')]),
        ),
    )
    assert statements.reading('app_states') == []
    assert statements.reading('user_states') == []

    await service.append_event(
        session,
        Event(
            invocation_id='two',
            author='assistant',
            actions=EventActions(state_delta={'user:plan': 'gold'}),
        ),
    )
    [app_read] = statements.reading('app_states')
    [user_read] = statements.reading('user_states')
    assert not app_read.upper().endswith('FOR UPDATE')
    assert user_read.upper().endswith('FOR UPDATE')

    stored = await _read(service)
    assert stored.state == {'user:plan': 'gold'}
    assert [event.invocation_id for event in stored.events] == ['one', 'two']
  finally:
    await service.close()
