"""Sessions the fork writes read in pristine google-adk 2.13.0, and back.

Both versions import as ``google.adk``, so upstream runs in its own
interpreter (the ``upstream_python`` fixture) on a script written here; the
fork runs the same script under this interpreter.
"""

from __future__ import annotations

import json
from pathlib import Path
import sqlite3
import subprocess
import sys
from typing import Any

import google.adk
import pytest

_UPSTREAM_VERSION = '2.13.0'
_INTERNAL_TEXT = 'classifier says: booking'
_USER_TEXT = 'booker says: booked'
_TIMEOUT_S = 300

# Runs under either version; it only uses what 2.13.0 has.
_SCRIPT = r'''
import asyncio
import json
import sys

import google.adk
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.runners import Runner
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types

APP, USER, SESSION = 'compat_app', 'compat_user', 'compat_session'


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


def message(text):
  return types.UserContent(parts=[types.Part(text=text)])


def texts(event):
  parts = event.content.parts if event.content and event.content.parts else []
  return [p.text for p in parts if p.text]


async def write(db_path, internal_text, user_text):
  service = SqliteSessionService(db_path)
  root = SequentialAgent(
      name='pipeline',
      sub_agents=[
          LlmAgent(name='classifier', model=ScriptedLlm(script=[internal_text])),
          LlmAgent(name='booker', model=ScriptedLlm(script=[user_text])),
      ],
  )
  runner = Runner(app_name=APP, agent=root, session_service=service)
  await service.create_session(app_name=APP, user_id=USER, session_id=SESSION)
  async for _ in runner.run_async(
      user_id=USER,
      session_id=SESSION,
      new_message=message('book it'),
      run_config=RunConfig(custom_metadata={'ticket': 'T-1'}),
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
              'texts': texts(e),
              'custom_metadata': e.custom_metadata,
              'user_facing': getattr(e, 'is_user_facing', None),
              'fields': sorted(e.model_dump(exclude_none=True)),
          }
          for e in session.events
      ]
  }


VARYING = ('id', 'invocation_id', 'invocationId', 'timestamp')


def normalized(value):
  if isinstance(value, dict):
    return {
        k: '<varies>' if k in VARYING else normalized(v)
        for k, v in value.items()
    }
  if isinstance(value, list):
    return [normalized(v) for v in value]
  return value


async def single_agent(db_path):
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
  service = SqliteSessionService(db_path)
  runner = Runner(app_name=APP, agent=agent, session_service=service)
  await service.create_session(app_name=APP, user_id=USER, session_id=SESSION)
  yielded = [
      e async for e in runner.run_async(
          user_id=USER, session_id=SESSION, new_message=message('weather?')
      )
  ]
  session = await service.get_session(
      app_name=APP, user_id=USER, session_id=SESSION
  )
  await service.close()

  def dumps(events):
    return [
        {
            'full': normalized(e.model_dump(mode='json')),
            'exclude_none': normalized(
                e.model_dump(mode='json', exclude_none=True)
            ),
            'json_by_alias': normalized(
                json.loads(e.model_dump_json(by_alias=True, exclude_none=True))
            ),
        }
        for e in events
    ]

  return {'yielded': dumps(yielded), 'stored': dumps(session.events)}


mode, args = sys.argv[1], sys.argv[2:]
result = asyncio.run({'write': write, 'read': read, 'single_agent': single_agent}[mode](*args))
result['adk_version'] = google.adk.__version__
result['adk_file'] = google.adk.__file__
print(json.dumps(result))
'''


def _fork_package_dir() -> Path:
  return Path(google.adk.__file__).resolve().parent


def _run(
    python: str, tmp_path: Path, env: dict[str, str], *args: str
) -> dict[str, Any]:
  script = tmp_path / 'compat_script.py'
  script.write_text(_SCRIPT)
  result = subprocess.run(
      [python, str(script), *args],
      capture_output=True,
      text=True,
      env=env,
      cwd=tmp_path,
      timeout=_TIMEOUT_S,
      check=False,
  )
  assert result.returncode == 0, result.stderr
  output = json.loads(result.stdout.strip().splitlines()[-1])
  is_fork = Path(output['adk_file']).resolve().parent == _fork_package_dir()
  assert is_fork == (python == sys.executable), output['adk_file']
  if not is_fork:
    assert output['adk_version'] == _UPSTREAM_VERSION
  return output


def _stored_rows(db_path: Path) -> list[dict[str, Any]]:
  with sqlite3.connect(db_path) as connection:
    return [
        json.loads(row[0])
        for row in connection.execute(
            'SELECT event_data FROM events ORDER BY timestamp'
        )
    ]


@pytest.fixture(name='env')
def _env_fixture(child_env: dict[str, str]) -> dict[str, str]:
  return child_env


def test_upstream_reads_a_session_the_fork_wrote(
    upstream_python: str, tmp_path: Path, env: dict[str, str]
):
  db = str(tmp_path / 'fork.db')
  _run(sys.executable, tmp_path, env, 'write', db, _INTERNAL_TEXT, _USER_TEXT)
  assert [row.get('visibility') for row in _stored_rows(Path(db))] == [
      None,
      'internal',
      None,
  ]

  upstream = _run(upstream_python, tmp_path, env, 'read', db)

  assert [(e['author'], e['texts']) for e in upstream['events']] == [
      ('user', ['book it']),
      ('classifier', [_INTERNAL_TEXT]),
      ('booker', [_USER_TEXT]),
  ]
  # 2.13.0's Event ignores the field it does not know; metadata is intact.
  assert all('visibility' not in e['fields'] for e in upstream['events'])
  assert [e['custom_metadata'] for e in upstream['events'][1:]] == [
      {'ticket': 'T-1'},
      {'ticket': 'T-1'},
  ]


def test_the_fork_reads_a_session_upstream_wrote_as_user_facing(
    upstream_python: str, tmp_path: Path, env: dict[str, str]
):
  db = str(tmp_path / 'upstream.db')
  _run(upstream_python, tmp_path, env, 'write', db, _INTERNAL_TEXT, _USER_TEXT)

  fork = _run(sys.executable, tmp_path, env, 'read', db)

  # Nothing upstream stored says internal, so the fork shows everything.
  assert [(e['author'], e['user_facing']) for e in fork['events']] == [
      ('user', True),
      ('classifier', True),
      ('booker', True),
  ]


def test_single_agent_app_serializes_exactly_as_upstream(
    upstream_python: str, tmp_path: Path, env: dict[str, str]
):
  fork = _run(
      sys.executable, tmp_path, env, 'single_agent', str(tmp_path / 'f.db')
  )
  upstream = _run(
      upstream_python, tmp_path, env, 'single_agent', str(tmp_path / 'u.db')
  )

  assert len(fork['yielded']) == 3  # call, response, answer
  assert fork['yielded'] == upstream['yielded']
  assert fork['stored'] == upstream['stored']
  fork_rows = _normalized(_stored_rows(tmp_path / 'f.db'))
  assert len(fork_rows) == 4
  assert fork_rows == _normalized(_stored_rows(tmp_path / 'u.db'))


def _normalized(value: Any) -> Any:
  """Replaces the values that differ on every run (ids, times)."""
  if isinstance(value, dict):
    return {
        k: (
            '<varies>'
            if k in ('id', 'invocation_id', 'timestamp')
            else _normalized(v)
        )
        for k, v in value.items()
    }
  if isinstance(value, list):
    return [_normalized(v) for v in value]
  return value
