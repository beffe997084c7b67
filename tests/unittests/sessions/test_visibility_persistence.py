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

"""``Event.visibility`` in storage, and compatibility with upstream 2.13.0.

Round trips go through the in-memory, SQLite and database session services,
each read back by a fresh service instance where the service persists.

The cross-version tests run pristine upstream google-adk 2.13.0 in a separate
interpreter, because both versions import as ``google.adk``. That interpreter
is taken from the ``ADK_UPSTREAM_PYTHON`` environment variable when it is set.
Otherwise the session-scoped ``upstream_python`` fixture creates a virtual
environment under the system temp directory, named after the version
(``adk-upstream-2.13.0-venv``), and runs ``pip install google-adk==2.13.0``
into it; later sessions reuse it. Creating it needs network access to the
package index.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
import sqlite3
import subprocess
import sys
import tempfile
from typing import Any
from typing import AsyncGenerator

import google.adk
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.base_session_service import BaseSessionService
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_UPSTREAM_VERSION = '2.13.0'
_APP = 'compat_app'
_USER = 'compat_user'
_SESSION = 'compat_session'
_INTERNAL_TEXT = 'classifier says: booking'
_USER_TEXT = 'booker says: booked'
_SUBPROCESS_TIMEOUT_S = 300
_VENV_CREATION_TIMEOUT_S = 1800


class ScriptedLlm(BaseLlm):
  """Always answers with the same text."""

  model: str = 'scripted-llm'
  reply: str = ''

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)])
    )


def _pipeline() -> SequentialAgent:
  return SequentialAgent(
      name='pipeline',
      sub_agents=[
          LlmAgent(name='classifier', model=ScriptedLlm(reply=_INTERNAL_TEXT)),
          LlmAgent(name='booker', model=ScriptedLlm(reply=_USER_TEXT)),
      ],
  )


async def _run_pipeline(session_service: BaseSessionService) -> None:
  runner = Runner(
      app_name=_APP, agent=_pipeline(), session_service=session_service
  )
  await session_service.create_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  async for _ in runner.run_async(
      user_id=_USER,
      session_id=_SESSION,
      new_message=types.UserContent(parts=[types.Part(text='book it')]),
  ):
    pass


async def _read_session(session_service: BaseSessionService) -> Session:
  session = await session_service.get_session(
      app_name=_APP, user_id=_USER, session_id=_SESSION
  )
  assert session is not None
  return session


async def _write_then_read(url: str) -> Session:
  """Runs the pipeline into a database, then reads it with a new service."""
  from google.adk.sessions.database_session_service import DatabaseSessionService

  writer = DatabaseSessionService(url)
  await _run_pipeline(writer)
  await writer.close()
  reader = DatabaseSessionService(url)
  session = await _read_session(reader)
  await reader.close()
  return session


def _flag_by_text(events: list[Event]) -> dict[str, bool]:
  return {
      part.text: event.is_user_facing
      for event in events
      if event.content
      for part in event.content.parts or []
      if part.text
  }


_EXPECTED_FLAGS = {'book it': True, _INTERNAL_TEXT: False, _USER_TEXT: True}


@pytest.mark.asyncio
async def test_in_memory_session_keeps_the_flag():
  service = InMemorySessionService()

  await _run_pipeline(service)

  assert _flag_by_text((await _read_session(service)).events) == (
      _EXPECTED_FLAGS
  )


@pytest.mark.asyncio
async def test_sqlite_session_service_round_trip(tmp_path: Path):
  db_path = tmp_path / 'sessions.db'
  writer = SqliteSessionService(str(db_path))
  await _run_pipeline(writer)
  await writer.close()

  reader = SqliteSessionService(str(db_path))
  session = await _read_session(reader)
  await reader.close()

  assert _flag_by_text(session.events) == _EXPECTED_FLAGS
  with sqlite3.connect(db_path) as connection:
    rows = [
        json.loads(r[0])
        for r in connection.execute(
            'SELECT event_data FROM events ORDER BY timestamp'
        )
    ]
  assert [row.get('visibility') for row in rows] == [None, 'internal', None]


@pytest.mark.asyncio
async def test_database_session_service_round_trip(tmp_path: Path):
  pytest.importorskip('sqlalchemy')

  session = await _write_then_read(
      f'sqlite+aiosqlite:///{tmp_path / "sessions.db"}'
  )

  assert _flag_by_text(session.events) == _EXPECTED_FLAGS


@pytest.mark.asyncio
async def test_legacy_database_schema_keeps_the_flag(tmp_path: Path):
  sqlalchemy = pytest.importorskip('sqlalchemy')
  from google.adk.events._visibility_metadata import VISIBILITY_METADATA_KEY
  from google.adk.sessions.schemas import v0

  db_path = tmp_path / 'legacy.db'
  engine = sqlalchemy.create_engine(f'sqlite:///{db_path}')
  v0.Base.metadata.create_all(engine)
  engine.dispose()
  session = await _write_then_read(f'sqlite+aiosqlite:///{db_path}')

  # The legacy layout has one column per field and no column for the flag.
  assert _flag_by_text(session.events) == _EXPECTED_FLAGS
  assert all(e.custom_metadata is None for e in session.events)
  with sqlite3.connect(db_path) as connection:
    metadata = [
        json.loads(r[0]) if r[0] else None
        for r in connection.execute(
            'SELECT custom_metadata FROM events ORDER BY timestamp'
        )
    ]
  assert metadata == [None, {VISIBILITY_METADATA_KEY: 'internal'}, None]


def test_single_agent_events_serialize_without_the_new_field():
  async def run() -> list[Event]:
    service = InMemorySessionService()
    runner = Runner(
        app_name=_APP,
        agent=LlmAgent(name='solo', model=ScriptedLlm(reply='hi there')),
        session_service=service,
    )
    await service.create_session(
        app_name=_APP, user_id=_USER, session_id=_SESSION
    )
    events = [
        e
        async for e in runner.run_async(
            user_id=_USER,
            session_id=_SESSION,
            new_message=types.UserContent(parts=[types.Part(text='hello')]),
        )
    ]
    return events + (await _read_session(service)).events

  events = asyncio.run(run())

  assert events
  for event in events:
    assert event.is_user_facing
    assert 'visibility' not in event.model_dump(exclude_none=True)
    assert 'visibility' not in event.model_dump()
    assert 'visibility' not in event.model_dump_json(by_alias=True)
  internal = Event(author='x', visibility='internal')
  assert internal.model_dump(exclude_none=True)['visibility'] == 'internal'


# --- Cross-version compatibility with pristine upstream --------------------

# Runs under either interpreter. It only uses APIs that exist upstream.
_COMPAT_SCRIPT = r'''
import asyncio
import json
import sys
import warnings

warnings.simplefilter('ignore')

import google.adk
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.runners import Runner
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types


class ScriptedLlm(BaseLlm):
  model: str = 'scripted-llm'
  script: list = []
  calls: int = 0

  async def generate_content_async(self, llm_request, stream=False):
    reply = self.script[min(self.calls, len(self.script) - 1)]
    self.calls += 1
    if isinstance(reply, dict):
      part = types.Part(function_call=types.FunctionCall(**reply))
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _message(text):
  return types.UserContent(parts=[types.Part(text=text)])


def _texts(event):
  parts = event.content.parts if event.content and event.content.parts else []
  return [p.text for p in parts if p.text]


async def write(db_path, internal_text, user_text):
  service = SqliteSessionService(db_path)
  root = SequentialAgent(
      name='pipeline',
      sub_agents=[
          LlmAgent(
              name='classifier', model=ScriptedLlm(script=[internal_text])
          ),
          LlmAgent(name='booker', model=ScriptedLlm(script=[user_text])),
      ],
  )
  runner = Runner(app_name=APP, agent=root, session_service=service)
  await service.create_session(app_name=APP, user_id=USER, session_id=SESSION)
  async for _ in runner.run_async(
      user_id=USER, session_id=SESSION, new_message=_message('book it')
  ):
    pass
  await service.close()
  return {}


async def read(db_path):
  service = SqliteSessionService(db_path)
  session = await service.get_session(
      app_name=APP, user_id=USER, session_id=SESSION
  )
  await service.close()
  return {
      'events': [
          {
              'author': e.author,
              'texts': _texts(e),
              'fields': sorted(e.model_dump(exclude_none=True)),
          }
          for e in session.events
      ]
  }


_VARYING_KEYS = ('id', 'invocation_id', 'invocationId', 'timestamp')


def _normalized(value):
  if isinstance(value, dict):
    return {
        k: '<varies>' if k in _VARYING_KEYS else _normalized(v)
        for k, v in value.items()
    }
  if isinstance(value, list):
    return [_normalized(v) for v in value]
  return value


async def single_agent():
  def get_weather(city: str) -> dict:
    """Returns the weather."""
    return {'forecast': f'sunny in {city}'}

  agent = LlmAgent(
      name='assistant',
      model=ScriptedLlm(script=[
          {'name': 'get_weather', 'args': {'city': 'Oslo'}},
          'It is sunny in Oslo.',
      ]),
      tools=[get_weather],
  )
  runner = InMemoryRunner(agent=agent, app_name=APP)
  await runner.session_service.create_session(
      app_name=APP, user_id=USER, session_id=SESSION
  )
  yielded = [
      e async for e in runner.run_async(
          user_id=USER, session_id=SESSION, new_message=_message('weather?')
      )
  ]
  session = await runner.session_service.get_session(
      app_name=APP, user_id=USER, session_id=SESSION
  )
  def dumps(events):
    return [
        {
            'full': _normalized(e.model_dump(mode='json')),
            'exclude_none': _normalized(
                e.model_dump(mode='json', exclude_none=True)
            ),
            'json_by_alias': _normalized(
                json.loads(e.model_dump_json(by_alias=True, exclude_none=True))
            ),
        }
        for e in events
    ]
  return {'yielded': dumps(yielded), 'stored': dumps(session.events)}


APP, USER, SESSION = sys.argv[2], sys.argv[3], sys.argv[4]
mode = sys.argv[1]
if mode == 'write':
  result = asyncio.run(write(*sys.argv[5:8]))
elif mode == 'read':
  result = asyncio.run(read(sys.argv[5]))
else:
  result = asyncio.run(single_agent())
result['adk_version'] = google.adk.__version__
result['adk_file'] = google.adk.__file__
print(json.dumps(result))
'''


def _fork_package_dir() -> Path:
  return Path(google.adk.__file__).resolve().parent


def _clean_env() -> dict[str, str]:
  """An environment that cannot point an interpreter at this source tree."""
  return {
      k: v
      for k, v in os.environ.items()
      if k not in ('PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP')
  }


def _adk_location(python: str) -> tuple[str, Path] | None:
  if not Path(python).exists():
    return None
  result = subprocess.run(
      [
          python,
          '-c',
          (
              'import google.adk, sys; print(google.adk.__version__);'
              ' print(google.adk.__file__)'
          ),
      ],
      capture_output=True,
      text=True,
      env=_clean_env(),
      timeout=_SUBPROCESS_TIMEOUT_S,
      check=False,
  )
  if result.returncode != 0:
    return None
  version, location = result.stdout.split()
  return version, Path(location).resolve().parent


def _is_pristine_upstream(python: str) -> bool:
  found = _adk_location(python)
  return (
      found is not None
      and found[0] == _UPSTREAM_VERSION
      and found[1] != _fork_package_dir()
  )


@pytest.fixture(scope='session')
def upstream_python() -> str:
  """Path of a Python interpreter that has pristine google-adk 2.13.0."""
  configured = os.environ.get('ADK_UPSTREAM_PYTHON')
  if configured:
    if not _is_pristine_upstream(configured):
      pytest.fail(
          f'ADK_UPSTREAM_PYTHON={configured} does not import pristine'
          f' google-adk {_UPSTREAM_VERSION}.'
      )
    return configured
  venv = Path(tempfile.gettempdir()) / f'adk-upstream-{_UPSTREAM_VERSION}-venv'
  bin_dir = 'Scripts' if os.name == 'nt' else 'bin'
  python = str(venv / bin_dir / ('python.exe' if os.name == 'nt' else 'python'))
  if not _is_pristine_upstream(python):
    subprocess.run(
        [sys.executable, '-m', 'venv', '--clear', str(venv)],
        check=True,
        timeout=_VENV_CREATION_TIMEOUT_S,
    )
    subprocess.run(
        [
            python,
            '-m',
            'pip',
            'install',
            '--quiet',
            f'google-adk=={_UPSTREAM_VERSION}',
        ],
        check=True,
        env=_clean_env(),
        timeout=_VENV_CREATION_TIMEOUT_S,
    )
  if not _is_pristine_upstream(python):
    pytest.fail(f'Could not set up google-adk {_UPSTREAM_VERSION} in {venv}.')
  return python


def _run_compat_script(
    python: str, tmp_path: Path, mode: str, *args: str
) -> dict[str, Any]:
  script = tmp_path / 'compat_script.py'
  script.write_text(_COMPAT_SCRIPT)
  result = subprocess.run(
      [python, str(script), mode, _APP, _USER, _SESSION, *args],
      capture_output=True,
      text=True,
      env=_clean_env(),
      cwd=tmp_path,
      timeout=_SUBPROCESS_TIMEOUT_S,
      check=False,
  )
  assert result.returncode == 0, result.stderr
  output = json.loads(result.stdout.strip().splitlines()[-1])
  return output


def test_upstream_reads_a_session_the_fork_wrote(
    upstream_python: str, tmp_path: Path
):
  db_path = tmp_path / 'shared.db'
  fork = _run_compat_script(
      sys.executable,
      tmp_path,
      'write',
      str(db_path),
      _INTERNAL_TEXT,
      _USER_TEXT,
  )
  assert Path(fork['adk_file']).resolve().parent == _fork_package_dir()
  with sqlite3.connect(db_path) as connection:
    stored = [
        json.loads(r[0])
        for r in connection.execute('SELECT event_data FROM events')
    ]
  assert 'internal' in [row.get('visibility') for row in stored]

  upstream = _run_compat_script(upstream_python, tmp_path, 'read', str(db_path))

  assert upstream['adk_version'] == _UPSTREAM_VERSION
  assert Path(upstream['adk_file']).resolve().parent != _fork_package_dir()
  assert [(e['author'], e['texts']) for e in upstream['events']] == [
      ('user', ['book it']),
      ('classifier', [_INTERNAL_TEXT]),
      ('booker', [_USER_TEXT]),
  ]
  # Upstream's Event ignores the field it does not know.
  assert all('visibility' not in e['fields'] for e in upstream['events'])


@pytest.mark.asyncio
async def test_events_upstream_wrote_read_back_as_user_facing(
    upstream_python: str, tmp_path: Path
):
  db_path = tmp_path / 'upstream.db'
  upstream = _run_compat_script(
      upstream_python,
      tmp_path,
      'write',
      str(db_path),
      _INTERNAL_TEXT,
      _USER_TEXT,
  )
  assert upstream['adk_version'] == _UPSTREAM_VERSION

  reader = SqliteSessionService(str(db_path))
  session = await _read_session(reader)
  await reader.close()

  # Upstream stored no flag, so the fork shows everything, as upstream did.
  assert _flag_by_text(session.events) == {
      'book it': True,
      _INTERNAL_TEXT: True,
      _USER_TEXT: True,
  }


def test_single_agent_app_serializes_exactly_as_upstream(
    upstream_python: str, tmp_path: Path
):
  fork = _run_compat_script(sys.executable, tmp_path, 'single_agent')
  upstream = _run_compat_script(upstream_python, tmp_path, 'single_agent')

  assert Path(fork['adk_file']).resolve().parent == _fork_package_dir()
  assert upstream['adk_version'] == _UPSTREAM_VERSION
  assert len(fork['yielded']) == 3  # call, response, answer
  assert fork['yielded'] == upstream['yielded']
  assert fork['stored'] == upstream['stored']
