"""Filter mode under faults: nothing internal reaches a client, whatever breaks.

A real ``adk api_server`` serves ``_faults_app`` (a classifier whose reply and
state hold SECRET, then a booker with a ``'hidden'`` and a ``'minimal'`` tool
whose values hold SECRET) on SQLite and, where the ``postgres_server`` fixture
provides one, on PostgreSQL. Each case breaks something: the client goes
away, the server is killed, the database fails, the client sends crafted
fields, the stored rows are damaged, two turns race. Afterwards every client
channel (the live stream, the filtered session read with its state, the raw
read's status, ``.../messages``; the AG-UI adapter's ``MESSAGES_SNAPSHOT``,
``RUN_ERROR`` and ``/agents/state``) must hold no SECRET and answer below
500, and a next turn on the same session must get the booker's answer.

Many of these fail on today's build: they are the acceptance check for the
fixes to the user's view (``events/``, ``tools/``, ``runners.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from collections.abc import Iterator
import concurrent.futures
import contextlib
import dataclasses
import json
import os
from pathlib import Path
import signal
import socket
import sqlite3
import subprocess
import time
from typing import Any
import urllib.parse
import uuid

from _adk_process import adk_command
from _adk_process import free_port
import _faults_app
from _faults_app import APP
from _faults_app import SECRET
import httpx
import pytest

pytestmark = pytest.mark.filterwarnings('ignore::DeprecationWarning')

_USER = 'fault_user'
_TIMEOUT_S = 30
_STARTUP_TIMEOUT_S = 60
_RUN_FAILED = 'RUN_FAILED'


# --- The server ------------------------------------------------------------


class _Server:
  """An ``adk api_server`` process that a test may kill and start again."""

  def __init__(self, workdir: Path, agents_dir: Path, db_url: str, env):
    self._workdir = workdir
    self._agents_dir = agents_dir
    self._db_url = db_url
    self._env = env
    self._process: subprocess.Popen[bytes] | None = None
    self.url = ''
    self.log = workdir / 'adk_api_server.log'

  def start(self) -> None:
    port = free_port()
    with self.log.open('ab') as log:
      self._process = subprocess.Popen(
          adk_command()
          + [
              'api_server',
              f'--session_service_uri={self._db_url}',
              '--artifact_service_uri=memory://',
              '--memory_service_uri=memory://',
              str(self._agents_dir),
              '--host=127.0.0.1',
              f'--port={port}',
          ],
          stdout=log,
          stderr=subprocess.STDOUT,
          cwd=self._workdir,
          env=self._env,
      )
    self.url = f'http://127.0.0.1:{port}'
    deadline = time.monotonic() + _STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
      if self._process.poll() is not None:
        pytest.fail('adk api_server exited:\n' + self.log.read_text())
      try:
        if httpx.get(f'{self.url}/list-apps', timeout=2).status_code == 200:
          return
      except httpx.TransportError:
        pass
      time.sleep(0.1)
    pytest.fail('adk api_server did not start:\n' + self.log.read_text())

  def kill(self) -> None:
    """SIGKILL: no shutdown handler runs."""
    assert self._process is not None
    self._process.send_signal(signal.SIGKILL)
    self._process.wait(timeout=_TIMEOUT_S)

  def stop(self) -> None:
    if self._process is None or self._process.poll() is not None:
      return
    self._process.terminate()
    try:
      self._process.wait(timeout=10)
    except subprocess.TimeoutExpired:
      self._process.kill()
      self._process.wait(timeout=10)


@dataclasses.dataclass
class _Backend:
  """The server and a handle on its database, to break it from outside."""

  kind: str
  server: _Server
  control: Path
  sqlite_path: Path | None = None
  pg_url: str | None = None
  psql: Path | None = None

  @property
  def url(self) -> str:
    return self.server.url

  def block_tool(self) -> None:
    (self.control / 'block').write_text('')
    for running in self.control.glob('running-*'):
      running.unlink()

  def unblock_tool(self) -> None:
    (self.control / 'block').unlink(missing_ok=True)

  def wait_until_tool_runs(self, token: str) -> None:
    marker = self.control / f'running-{token}'
    deadline = time.monotonic() + _TIMEOUT_S
    while not marker.exists():
      assert time.monotonic() < deadline, 'the hidden tool never ran'
      time.sleep(0.02)

  @contextlib.contextmanager
  def failing_database(self) -> Iterator[None]:
    """While the block runs, the server's next write fails."""
    if self.kind == 'sqlite':
      assert self.sqlite_path is not None
      holder = sqlite3.connect(self.sqlite_path, isolation_level=None)
      holder.execute('BEGIN EXCLUSIVE')
      try:
        yield
      finally:
        holder.execute('ROLLBACK')
        holder.close()
    else:
      # The events table is gone while the turn writes: its next write fails
      # (killed connections are not enough, the pool opens new ones).
      self._sql('ALTER TABLE events RENAME TO events_unavailable')
      try:
        yield
      finally:
        self._sql('ALTER TABLE events_unavailable RENAME TO events')

  def _sql(self, statement: str) -> None:
    assert self.pg_url is not None and self.psql is not None
    parsed = urllib.parse.urlparse(self.pg_url)
    subprocess.run(
        [
            str(self.psql),
            f'--host={parsed.hostname}',
            f'--port={parsed.port}',
            '--username=postgres',
            f'--dbname={parsed.path.lstrip("/")}',
            '--quiet',
            '--command',
            statement,
        ],
        check=True,
        capture_output=True,
        timeout=_TIMEOUT_S,
    )

  def edit_events(
      self, session_id: str, edit: Callable[[dict[str, Any]], bool]
  ) -> int:
    """Rewrites the stored ``event_data`` of a session's events in place.

    ``edit`` changes an event's JSON and says whether it did; returns how
    many rows changed.
    """
    if self.kind == 'sqlite':
      with sqlite3.connect(self.sqlite_path) as db:
        rows = db.execute(
            'SELECT id, event_data FROM events WHERE session_id = ?',
            (session_id,),
        ).fetchall()
        changed = 0
        for event_id, data in rows:
          event = json.loads(data)
          if edit(event):
            changed += 1
            db.execute(
                'UPDATE events SET event_data = ? WHERE id = ? AND'
                ' session_id = ?',
                (json.dumps(event), event_id, session_id),
            )
        return changed
    return asyncio.run(self._edit_pg(session_id, edit))

  async def _edit_pg(self, session_id: str, edit) -> int:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(self.pg_url)
    changed = 0
    try:
      async with engine.begin() as connection:
        rows = (
            await connection.execute(
                text('SELECT id, event_data FROM events WHERE session_id = :s'),
                {'s': session_id},
            )
        ).all()
        for event_id, data in rows:
          event = data if isinstance(data, dict) else json.loads(data)
          if edit(event):
            changed += 1
            await connection.execute(
                text(
                    'UPDATE events SET event_data = CAST(:d AS jsonb)'
                    ' WHERE id = :i AND session_id = :s'
                ),
                {'d': json.dumps(event), 'i': event_id, 's': session_id},
            )
    finally:
      await engine.dispose()
    return changed


@pytest.fixture(name='backend', scope='module', params=['sqlite', 'postgres'])
def _backend_fixture(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[_Backend]:
  workdir = tmp_path_factory.mktemp(f'faults_{request.param}')
  agents_dir = workdir / 'agents'
  _faults_app.write(agents_dir)
  control = workdir / 'control'
  control.mkdir()
  env = {
      k: v
      for k, v in os.environ.items()
      if k != 'PYTHONSTARTUP' and not k.startswith(('GOOGLE_', 'GEMINI_'))
  }
  env['PYTHONWARNINGS'] = 'ignore::DeprecationWarning'
  env[_faults_app.CONTROL_ENV] = str(control)
  if request.param == 'sqlite':
    path = workdir / 'sessions.db'
    server = _Server(workdir, agents_dir, f'sqlite:///{path}', env)
    backend = _Backend('sqlite', server, control, sqlite_path=path)
  else:
    postgres = request.getfixturevalue('postgres_server')
    db_url = postgres.new_database()
    server = _Server(workdir, agents_dir, db_url, env)
    backend = _Backend(
        'postgres',
        server,
        control,
        pg_url=db_url,
        psql=postgres.bin_dir / 'psql',
    )
  server.start()
  try:
    yield backend
  finally:
    backend.unblock_tool()
    server.stop()


# --- The client ------------------------------------------------------------


def _new_session(backend: _Backend) -> str:
  session_id = 's-' + uuid.uuid4().hex[:10]
  response = httpx.post(
      f'{backend.url}/apps/{APP}/users/{_USER}/sessions/{session_id}',
      json={},
      timeout=_TIMEOUT_S,
  )
  assert response.status_code == 200, response.text
  return session_id


def _run_body(session_id: str, token: str, **extra: Any) -> dict[str, Any]:
  return {
      'app_name': APP,
      'user_id': _USER,
      'session_id': session_id,
      'new_message': {'role': 'user', 'parts': [{'text': f'book {token}'}]},
      'streaming': True,
      'visibility_mode': 'filter',
      **extra,
  }


def _sse(
    url: str, session_id: str, token: str, **extra: Any
) -> tuple[int, str, list[dict[str, Any]]]:
  response = httpx.post(
      f'{url}/run_sse',
      json=_run_body(session_id, token, **extra),
      timeout=_TIMEOUT_S,
  )
  events = [
      json.loads(line[len('data:') :])
      for line in response.text.splitlines()
      if line.startswith('data:')
  ]
  return response.status_code, response.text, events


def _open_raw_sse(url: str, session_id: str, token: str) -> socket.socket:
  """Sends a ``/run_sse`` request on a bare socket, which the test may drop."""
  parsed = urllib.parse.urlparse(url)
  body = json.dumps(_run_body(session_id, token)).encode()
  sock = socket.create_connection((parsed.hostname, parsed.port), timeout=5)
  sock.sendall(
      b'POST /run_sse HTTP/1.1\r\n'
      + f'Host: {parsed.netloc}\r\n'.encode()
      + b'Content-Type: application/json\r\n'
      + f'Content-Length: {len(body)}\r\n\r\n'.encode()
      + body
  )
  return sock


def _is_final(event: dict[str, Any]) -> bool:
  parts = (event.get('content') or {}).get('parts') or []
  return (
      not event.get('partial')
      and bool(parts)
      and not any('functionCall' in p or 'functionResponse' in p for p in parts)
  )


def _final_texts(events: list[dict[str, Any]]) -> list[str]:
  return [
      ''.join(p.get('text') or '' for p in e['content']['parts'])
      for e in events
      if _is_final(e)
  ]


@dataclasses.dataclass
class _Reads:
  filtered: dict[str, Any]
  messages: list[dict[str, Any]]


def _read_channels(backend: _Backend, session_id: str) -> _Reads:
  """Reads every client channel; each answers below 500 and shows no SECRET."""
  base = f'{backend.url}/apps/{APP}/users/{_USER}/sessions/{session_id}'
  raw = httpx.get(base, timeout=_TIMEOUT_S)
  assert raw.status_code < 500, f'raw read: {raw.status_code} {raw.text}'
  filtered = httpx.get(
      base, params={'visibility_mode': 'filter'}, timeout=_TIMEOUT_S
  )
  assert filtered.status_code == 200, filtered.text
  assert SECRET not in filtered.text, _secret_context(filtered.text)
  messages = httpx.get(f'{base}/messages', timeout=_TIMEOUT_S)
  assert messages.status_code == 200, messages.text
  assert SECRET not in messages.text, _secret_context(messages.text)
  listed = httpx.get(
      f'{backend.url}/apps/{APP}/users/{_USER}/sessions',
      params={'visibility_mode': 'filter'},
      timeout=_TIMEOUT_S,
  )
  assert listed.status_code < 500, listed.text
  assert SECRET not in listed.text, _secret_context(listed.text)
  return _Reads(filtered.json(), messages.json())


def _secret_context(text: str) -> str:
  at = text.find(SECRET)
  return f'SECRET reached the client: ...{text[max(0, at - 300) : at + 80]}...'


def _assert_next_turn_answers(backend: _Backend, session_id: str) -> None:
  token = 'next-' + uuid.uuid4().hex[:6]
  status, raw, events = _sse(backend.url, session_id, token)
  assert status == 200, raw
  assert SECRET not in raw, _secret_context(raw)
  assert not [e for e in events if 'error' in e], raw
  assert _final_texts(events) == [_faults_app.answer(token)], raw
  reads = _read_channels(backend, session_id)
  assert _assistant_text(reads.messages[-1]) == _faults_app.answer(token)


def _assistant_text(message: dict[str, Any]) -> str:
  assert message['role'] == 'assistant', message
  return ''.join(
      p.get('text') or '' for p in message['parts'] if p['type'] == 'text'
  )


def _assert_turn_has_no_answer(reads: _Reads, token: str) -> None:
  """The interrupted turn shows no assistant text, nor a final response."""
  [question] = [
      m
      for m in reads.messages
      if m['role'] == 'user'
      and any(token in (p.get('text') or '') for p in m['parts'])
  ]
  invocation = question['invocationId']
  for message in reads.messages:
    if message['role'] == 'assistant' and message['invocationId'] == invocation:
      assert not _assistant_text(message), message
  turn = [
      e
      for e in reads.filtered['events']
      if e.get('invocationId') == invocation and e['author'] != 'user'
  ]
  assert not _final_texts(turn), turn


# --- 0. A clean turn --------------------------------------------------------


def test_a_clean_turn_shows_no_secret(backend):
  """The baseline every case builds on: one turn, nothing broken."""
  session_id = _new_session(backend)
  token = 'plain-' + uuid.uuid4().hex[:6]

  status, raw, events = _sse(backend.url, session_id, token)

  assert status == 200, raw
  assert SECRET not in raw, _secret_context(raw)
  assert _final_texts(events) == [_faults_app.answer(token)], raw
  reads = _read_channels(backend, session_id)
  assert _assistant_text(reads.messages[-1]) == _faults_app.answer(token)


# --- 1. Interruptions ------------------------------------------------------


def test_client_closes_the_stream_while_a_hidden_tool_runs(backend):
  session_id = _new_session(backend)
  token = 'closed-' + uuid.uuid4().hex[:6]
  backend.block_tool()
  try:
    sock = _open_raw_sse(backend.url, session_id, token)
    backend.wait_until_tool_runs(token)
    sock.close()
    time.sleep(0.3)  # The server notices the disconnect.
  finally:
    backend.unblock_tool()
  time.sleep(0.3)

  reads = _read_channels(backend, session_id)
  _assert_turn_has_no_answer(reads, token)
  _assert_next_turn_answers(backend, session_id)


def test_server_killed_while_a_hidden_tool_runs(backend):
  session_id = _new_session(backend)
  token = 'killed-' + uuid.uuid4().hex[:6]
  backend.block_tool()
  try:
    sock = _open_raw_sse(backend.url, session_id, token)
    backend.wait_until_tool_runs(token)
    backend.server.kill()
    sock.close()
  finally:
    backend.unblock_tool()
    if backend.server._process and backend.server._process.poll() is not None:
      backend.server.start()  # On the same database.

  reads = _read_channels(backend, session_id)
  _assert_turn_has_no_answer(reads, token)
  _assert_next_turn_answers(backend, session_id)


def _run_while_database_fails(
    backend: _Backend, send: Callable[[], Any], token: str
) -> Any:
  """Runs ``send`` in a thread; the database fails while the tool blocks."""
  backend.block_tool()
  with concurrent.futures.ThreadPoolExecutor(1) as pool:
    try:
      pending = pool.submit(send)
      backend.wait_until_tool_runs(token)
      with backend.failing_database():
        backend.unblock_tool()
        result = pending.result(timeout=_TIMEOUT_S)
    finally:
      backend.unblock_tool()
  return result


def test_database_fails_mid_turn_over_run_sse(backend):
  session_id = _new_session(backend)
  token = 'dbfail-' + uuid.uuid4().hex[:6]

  status, raw, events = _run_while_database_fails(
      backend, lambda: _sse(backend.url, session_id, token), token
  )

  assert status == 200, raw
  assert SECRET not in raw, _secret_context(raw)
  # 3. The error is a stable code and a generic sentence.
  errors = [e for e in events if 'error' in e]
  assert errors, raw
  assert errors[-1].get('errorCode') == _RUN_FAILED, errors[-1]
  assert set(errors[-1]) == {'error', 'errorCode'}, errors[-1]
  reads = _read_channels(backend, session_id)
  _assert_turn_has_no_answer(reads, token)
  _assert_next_turn_answers(backend, session_id)


def test_database_fails_mid_turn_over_run(backend):
  session_id = _new_session(backend)
  token = 'dbrun-' + uuid.uuid4().hex[:6]

  def send() -> httpx.Response:
    return httpx.post(
        f'{backend.url}/run',
        json=_run_body(session_id, token, streaming=False),
        timeout=_TIMEOUT_S,
    )

  response = _run_while_database_fails(backend, send, token)

  assert SECRET not in response.text, _secret_context(response.text)
  assert response.headers['content-type'] == 'application/json', response.text
  detail = response.json()['detail']
  assert detail['errorCode'] == _RUN_FAILED, response.text
  assert set(detail) == {'error', 'errorCode'}, response.text
  reads = _read_channels(backend, session_id)
  _assert_turn_has_no_answer(reads, token)
  _assert_next_turn_answers(backend, session_id)


# --- 2. Crafted client fields ----------------------------------------------

_CRAFTED = {
    'empty_progress': {'custom_metadata': {'adk_progress': {}}},
    'fake_progress': {
        'custom_metadata': {'adk_progress': {'run': 'x', 'status': 'step'}}
    },
    'internal_key': {
        'custom_metadata': {'__adk_internal_visibility': {'tools': {}}}
    },
    # The user writes the keys first; the classifier and the hidden tool
    # overwrite them with internal values.
    'state_delta': {
        'state_delta': {'intent': 'mine', 'secret_note': 'mine', 'seat': 'w'}
    },
}


@pytest.mark.parametrize('fields', list(_CRAFTED), ids=list(_CRAFTED))
def test_crafted_client_fields_show_no_secret(backend, fields):
  session_id = _new_session(backend)
  token = 'crafted-' + uuid.uuid4().hex[:6]

  status, raw, events = _sse(backend.url, session_id, token, **_CRAFTED[fields])

  assert status < 500, raw
  assert SECRET not in raw, _secret_context(raw)
  if status == 200:
    assert _final_texts(events) == [_faults_app.answer(token)], raw
  _read_channels(backend, session_id)
  _assert_next_turn_answers(backend, session_id)


# --- 4. Damaged rows -------------------------------------------------------


def _metadata(event: dict[str, Any]) -> dict[str, Any] | None:
  for key in ('custom_metadata', 'customMetadata'):
    if isinstance(event.get(key), dict):
      return event[key].get('__adk_internal_visibility')
  return None


def _set_entries(event: dict[str, Any], **entries: Any) -> None:
  key = 'customMetadata' if 'customMetadata' in event else 'custom_metadata'
  metadata = event.setdefault(key, None) or {}
  event[key] = metadata
  record = metadata.setdefault('__adk_internal_visibility', {})
  if not isinstance(record, dict):
    record = metadata['__adk_internal_visibility'] = {}
  record.update(entries)


def _call_parts(event: dict[str, Any]) -> list[dict[str, Any]]:
  parts = (event.get('content') or {}).get('parts') or []
  return [
      p.get('function_call')
      or p.get('functionCall')
      or p.get('function_response')
      or p.get('functionResponse')
      for p in parts
      if any(
          k in p
          for k in (
              'function_call',
              'functionCall',
              'function_response',
              'functionResponse',
          )
      )
  ]


def _names(event: dict[str, Any]) -> set[str]:
  return {c.get('name') for c in _call_parts(event)}


def _hidden_level(value: Any) -> Callable[[dict[str, Any]], bool]:
  def edit(event: dict[str, Any]) -> bool:
    if 'stash_note' not in _names(event):
      return False
    record = _metadata(event) or {}
    tools = record.get('tools')
    levels = dict(tools) if isinstance(tools, dict) else {}
    for call in _call_parts(event):
      if call.get('name') == 'stash_note':
        levels[call['id']] = value
    _set_entries(event, tools=levels)
    return True

  return edit


def _tools_entry_list(event: dict[str, Any]) -> bool:
  if 'stash_note' not in _names(event):
    return False
  _set_entries(event, tools=['hidden'])
  return True


def _on_state_write(**entries: Any) -> Callable[[dict[str, Any]], bool]:
  def edit(event: dict[str, Any]) -> bool:
    delta = (event.get('actions') or {}).get('state_delta') or (
        event.get('actions') or {}
    ).get('stateDelta')
    if not delta or event.get('author') == 'user':
      return False
    _set_entries(event, **entries)
    return True

  return edit


def _inside_hidden_on_answer(event: dict[str, Any]) -> bool:
  if event.get('author') != 'booker' or _call_parts(event):
    return False
  _set_entries(event, inside='hidden')
  return True


def _agents_of_dicts(event: dict[str, Any]) -> bool:
  if not _call_parts(event) or event.get('author') != 'booker':
    return False
  _set_entries(event, agents=[{'id': 'x'}, {'call': ['y']}])
  return True


def _bogus_visibility(event: dict[str, Any]) -> bool:
  if event.get('author') != 'classifier':
    return False
  event['visibility'] = 'bogus'
  return True


_DAMAGE = {
    'level_none': _hidden_level(None),
    'level_number': _hidden_level(3),
    'level_unknown_word': _hidden_level('invisible'),
    'level_list': _hidden_level(['hidden']),
    'tools_entry_list': _tools_entry_list,
    'state_entry_string': _on_state_write(state='secret_note'),
    'state_entry_dicts': _on_state_write(state=[{'key': 'secret_note'}]),
    'agents_entry_dicts': _agents_of_dicts,
    'inside_hidden_on_answer': _inside_hidden_on_answer,
    'visibility_bogus': _bogus_visibility,
}


@pytest.mark.parametrize('damage', list(_DAMAGE), ids=list(_DAMAGE))
def test_damaged_rows_show_no_secret(backend, damage):
  session_id = _new_session(backend)
  token = 'clean-' + uuid.uuid4().hex[:6]
  status, raw, _ = _sse(backend.url, session_id, token)
  assert status == 200 and SECRET not in raw, raw

  assert backend.edit_events(session_id, _DAMAGE[damage]) > 0

  _read_channels(backend, session_id)
  _assert_next_turn_answers(backend, session_id)


# --- 5. Racing turns -------------------------------------------------------


def test_racing_turns_answer_their_own_questions(backend):
  session_id = _new_session(backend)
  tokens = ['race-a-' + uuid.uuid4().hex[:6], 'race-b-' + uuid.uuid4().hex[:6]]

  with concurrent.futures.ThreadPoolExecutor(2) as pool:
    results = list(pool.map(lambda t: _sse(backend.url, session_id, t), tokens))

  for status, raw, _ in results:
    assert status < 500, raw
    assert SECRET not in raw, _secret_context(raw)
  reads = _read_channels(backend, session_id)
  by_invocation: dict[str, dict[str, str]] = {}
  for message in reads.messages:
    texts = ''.join(p.get('text') or '' for p in message['parts'])
    by_invocation.setdefault(message['invocationId'], {})[
        message['role']
    ] = texts
  answered = {
      turn['user'].split()[-1]: turn.get('assistant')
      for turn in by_invocation.values()
      if 'user' in turn
  }
  # Every answer follows its own question. A turn that the server refused
  # must say so to its client (an error event), never vanish in silence.
  for token, answer in answered.items():
    assert answer in (None, '', _faults_app.answer(token)), by_invocation
  assert any(answered.get(t) == _faults_app.answer(t) for t in tokens)
  for token, (_, raw, events) in zip(tokens, results):
    if answered.get(token) != _faults_app.answer(token):
      assert [e for e in events if 'error' in e], (token, raw)
  _assert_next_turn_answers(backend, session_id)


# --- The AG-UI adapter -----------------------------------------------------


@pytest.fixture(name='ag_ui_app', scope='module')
def _ag_ui_app_fixture(tmp_path_factory: pytest.TempPathFactory):
  """The same agents behind ``UserViewADKAgent``, on a SQLite session store."""
  pytest.importorskip('ag_ui_adk')
  import importlib.util

  workdir = tmp_path_factory.mktemp('faults_ag_ui')
  _faults_app.write(workdir / 'agents')
  control = workdir / 'control'
  control.mkdir()
  previous = os.environ.get(_faults_app.CONTROL_ENV)
  os.environ[_faults_app.CONTROL_ENV] = str(control)
  try:
    spec = importlib.util.spec_from_file_location(
        'faults_app_agent', workdir / 'agents' / APP / 'agent.py'
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
  finally:
    if previous is None:
      os.environ.pop(_faults_app.CONTROL_ENV, None)
    else:
      os.environ[_faults_app.CONTROL_ENV] = previous
  return module.root_agent, workdir / 'ag_ui.db', control


@contextlib.asynccontextmanager
async def _ag_ui_client(ag_ui_app):
  from ag_ui_adk import ADKAgent  # noqa: F401  (the adapter needs it)
  from fastapi import FastAPI
  from google.adk.agents.run_config import RunConfig
  from google.adk.agents.run_config import StreamingMode
  from google.adk.integrations.ag_ui_user_view import add_user_view_fastapi_endpoint
  from google.adk.integrations.ag_ui_user_view import UserViewADKAgent
  from google.adk.sessions.sqlite_session_service import SqliteSessionService

  root_agent, db_path, _ = ag_ui_app
  agent = UserViewADKAgent(
      adk_agent=root_agent,
      app_name=APP,
      user_id=_USER,
      session_service=SqliteSessionService(db_path=str(db_path)),
      run_config_factory=lambda _: RunConfig(streaming_mode=StreamingMode.SSE),
      emit_messages_snapshot=True,
  )
  app = FastAPI()
  add_user_view_fastapi_endpoint(app, agent, '/')
  try:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url='http://agui.test',
        timeout=_TIMEOUT_S,
    ) as client:
      yield client
  finally:
    await agent.close()


async def _ag_ui_turn(
    client: httpx.AsyncClient, thread: str, tokens: list[str]
) -> tuple[str, list[dict[str, Any]]]:
  response = await client.post(
      '/',
      json={
          'threadId': thread,
          'runId': 'run-' + uuid.uuid4().hex[:6],
          'state': {},
          'messages': [
              {'id': f'u-{i}', 'role': 'user', 'content': f'book {token}'}
              for i, token in enumerate(tokens)
          ],
          'tools': [],
          'context': [],
          'forwardedProps': {},
      },
      headers={'Accept': 'text/event-stream'},
  )
  assert response.status_code < 500, response.text
  events = [
      json.loads(line[len('data:') :])
      for line in response.text.splitlines()
      if line.startswith('data:')
  ]
  return response.text, events


async def _ag_ui_state(client: httpx.AsyncClient, thread: str) -> str:
  response = await client.post('/agents/state', json={'threadId': thread})
  assert response.status_code < 500, response.text
  assert SECRET not in response.text, _secret_context(response.text)
  return response.text


def _snapshot_text(events: list[dict[str, Any]]) -> str:
  return json.dumps([e for e in events if e['type'] == 'MESSAGES_SNAPSHOT'])


async def test_ag_ui_clean_turn_and_damaged_rows_show_no_secret(ag_ui_app):
  thread = 'agui-' + uuid.uuid4().hex[:6]
  token = 'agui-' + uuid.uuid4().hex[:6]
  async with _ag_ui_client(ag_ui_app) as client:
    raw, events = await _ag_ui_turn(client, thread, [token])
    assert SECRET not in raw, _secret_context(raw)
    assert 'RUN_ERROR' not in [e['type'] for e in events], raw
    assert _faults_app.answer(token) in _snapshot_text(events)
    await _ag_ui_state(client, thread)

    # Damage the stored hidden tool's level, then read and run again.
    _, db_path, _ = ag_ui_app
    with sqlite3.connect(db_path) as db:
      rows = db.execute('SELECT id, event_data FROM events').fetchall()
      for event_id, data in rows:
        event = json.loads(data)
        if _hidden_level('invisible')(event):
          db.execute(
              'UPDATE events SET event_data = ? WHERE id = ?',
              (json.dumps(event), event_id),
          )
    await _ag_ui_state(client, thread)
    nxt = 'agui-next-' + uuid.uuid4().hex[:6]
    raw, events = await _ag_ui_turn(client, thread, [token, nxt])
    assert SECRET not in raw, _secret_context(raw)
    assert _faults_app.answer(nxt) in _snapshot_text(events), raw


async def test_ag_ui_database_failure_is_a_generic_run_error(ag_ui_app):
  _, db_path, control = ag_ui_app
  thread = 'agui-fail-' + uuid.uuid4().hex[:6]
  token = 'agui-fail-' + uuid.uuid4().hex[:6]
  (control / 'block').write_text('')
  async with _ag_ui_client(ag_ui_app) as client:
    try:
      pending = asyncio.ensure_future(_ag_ui_turn(client, thread, [token]))
      deadline = time.monotonic() + _TIMEOUT_S
      while not (control / f'running-{token}').exists():
        assert time.monotonic() < deadline and not pending.done()
        await asyncio.sleep(0.02)
      holder = sqlite3.connect(db_path, isolation_level=None)
      holder.execute('BEGIN EXCLUSIVE')
      try:
        (control / 'block').unlink()
        raw, events = await pending
      finally:
        holder.execute('ROLLBACK')
        holder.close()
    finally:
      (control / 'block').unlink(missing_ok=True)

    assert SECRET not in raw, _secret_context(raw)
    errors = [e for e in events if e['type'] == 'RUN_ERROR']
    assert errors, raw
    assert errors[-1]['code'] == _RUN_FAILED, errors[-1]
    await _ag_ui_state(client, thread)
    nxt = 'agui-after-' + uuid.uuid4().hex[:6]
    raw, events = await _ag_ui_turn(client, thread, [token, nxt])
    assert SECRET not in raw, _secret_context(raw)
    assert _faults_app.answer(nxt) in _snapshot_text(events), raw
