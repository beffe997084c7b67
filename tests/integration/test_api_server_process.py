"""``visibility_mode``, and a session read as messages, against ``adk api_server``.

The unit tests drive the same endpoints through FastAPI's ``TestClient``; this
checks the real server: the console script, uvicorn and a SQLite session store.

The server is started on loopback with an agent folder written by the test: a
``SequentialAgent`` whose scripted model streams its reply word by word. The
internal agent speaks a word that the user-facing agent never says, and
writes it to ``state['verdict']``. Beside it, ``_assistant_app``: an assistant
with an ``AgentTool`` researcher, a minimal, a hidden and a client tool, whose
session is read as chat messages (``.../sessions/{id}/messages``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
import json
from pathlib import Path
import textwrap
from typing import Any

from _adk_process import serving
import _assistant_app
from google.adk.events.event import Event
from google.adk.events.user_messages import user_messages
from google.adk.sessions.sqlite_session_service import SqliteSessionService
import httpx
import pytest

_APP = 'pipeline_app'
_INTERNAL_TEXT = 'verdict quokka-4471 premium-fare'
_INTERNAL_WORDS = [w.encode() for w in _INTERNAL_TEXT.split(' ')]
_USER_TEXT = 'your flight to Oslo is booked'
_REQUEST_TIMEOUT_S = 60

_AGENT_PY = textwrap.dedent(f"""
    import warnings

    from google.adk.agents.llm_agent import LlmAgent
    from google.adk.agents.sequential_agent import SequentialAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.genai import types


    class ScriptedLlm(BaseLlm):
      model: str = 'scripted-llm'
      reply: str = ''

      async def generate_content_async(self, llm_request, stream=False):
        if stream:
          for word in self.reply.split(' '):
            yield LlmResponse(
                content=types.ModelContent(parts=[types.Part(text=word + ' ')]),
                partial=True,
            )
        yield LlmResponse(
            content=types.ModelContent(parts=[types.Part(text=self.reply)])
        )


    with warnings.catch_warnings():
      warnings.simplefilter('ignore', DeprecationWarning)
      root_agent = SequentialAgent(
          name='pipeline',
          sub_agents=[
              LlmAgent(
                  name='classifier',
                  model=ScriptedLlm(reply={_INTERNAL_TEXT!r}),
                  # Its reply is in state too: kept from the client as well.
                  output_key='verdict',
              ),
              LlmAgent(
                  name='booker',
                  model=ScriptedLlm(reply={_USER_TEXT!r}),
              ),
          ],
      )
""")


@pytest.fixture(name='server_dir', scope='module')
def _server_dir_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
  return tmp_path_factory.mktemp('api_server')


@pytest.fixture(name='server_url', scope='module')
def _server_url_fixture(server_dir: Path) -> Iterator[str]:
  tmp_path = server_dir
  agents_dir = tmp_path / 'agents'
  app_dir = agents_dir / _APP
  app_dir.mkdir(parents=True)
  (app_dir / '__init__.py').write_text('from . import agent\n')
  (app_dir / 'agent.py').write_text(_AGENT_PY)
  _assistant_app.write(agents_dir)
  with serving(
      [
          'api_server',
          f'--session_service_uri=sqlite:///{tmp_path / "sessions.db"}',
          '--artifact_service_uri=memory://',
          '--memory_service_uri=memory://',
          str(agents_dir),
      ],
      workdir=tmp_path,
  ) as base_url:
    yield base_url


def _create_session(base_url: str, user_id: str, session_id: str) -> None:
  response = httpx.post(
      f'{base_url}/apps/{_APP}/users/{user_id}/sessions/{session_id}',
      json={},
      timeout=_REQUEST_TIMEOUT_S,
  )
  assert response.status_code == 200, response.text


def _run_request(
    user_id: str, session_id: str, text: str = 'book Oslo', **extra: object
) -> dict[str, object]:
  return {
      'app_name': _APP,
      'user_id': user_id,
      'session_id': session_id,
      'new_message': {'role': 'user', 'parts': [{'text': text}]},
      **extra,
  }


def _run_sse(
    base_url: str, user_id: str, session_id: str, **extra: object
) -> bytes:
  request = _run_request(user_id, session_id, streaming=True, **extra)
  with httpx.stream(
      'POST',
      f'{base_url}/run_sse',
      json=request,
      timeout=_REQUEST_TIMEOUT_S,
  ) as response:
    assert response.status_code == 200
    return response.read()


def _stored_session_bytes(
    base_url: str, user_id: str, session_id: str
) -> bytes:
  response = httpx.get(
      f'{base_url}/apps/{_APP}/users/{user_id}/sessions/{session_id}',
      timeout=_REQUEST_TIMEOUT_S,
  )
  assert response.status_code == 200
  return response.content


def test_run_sse_filter_mode_over_http(server_url: str):
  _create_session(server_url, 'http_user', 'filtered')
  _create_session(server_url, 'http_user', 'annotated')

  filtered = _run_sse(
      server_url, 'http_user', 'filtered', visibility_mode='filter'
  )
  annotated = _run_sse(server_url, 'http_user', 'annotated')

  assert not [w for w in _INTERNAL_WORDS if w in filtered]
  assert b'"author":"classifier"' in filtered  # Its event still arrives.
  assert _USER_TEXT.encode() in filtered
  assert all(w in annotated for w in _INTERNAL_WORDS)
  stored = _stored_session_bytes(server_url, 'http_user', 'filtered')
  assert _INTERNAL_TEXT.encode() in stored
  assert _USER_TEXT.encode() in stored


def test_run_filter_mode_over_http(server_url: str):
  _create_session(server_url, 'http_user', 'unary')

  response = httpx.post(
      f'{server_url}/run',
      json=_run_request('http_user', 'unary', visibility_mode='filter'),
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 200
  assert not [w for w in _INTERNAL_WORDS if w in response.content]
  assert _USER_TEXT.encode() in response.content
  assert [e.get('visibility') for e in response.json()] == ['internal', None]
  stored = _stored_session_bytes(server_url, 'http_user', 'unary')
  assert _INTERNAL_TEXT.encode() in stored


def test_invalid_visibility_mode_is_rejected_over_http(server_url: str):
  _create_session(server_url, 'http_user', 'invalid')

  response = httpx.post(
      f'{server_url}/run_sse',
      json=_run_request('http_user', 'invalid', 'hi', visibility_mode='hide'),
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 422
  assert 'annotate' in response.text and 'filter' in response.text


def _final_texts(events: list[dict[str, object]]) -> list[str]:
  """What a client following ADK's final-response loop shows, over JSON."""
  shown = []
  for event in events:
    final = not event.get('partial') and not any(
        'functionCall' in part or 'functionResponse' in part
        for part in (event.get('content') or {}).get('parts', [])
    )
    if final:
      shown.append(event['content']['parts'][0]['text'])
  return shown


def test_reloaded_session_shows_what_the_run_sent_over_http(server_url: str):
  _create_session(server_url, 'http_user', 'reloaded')
  streamed = _run_sse(
      server_url, 'http_user', 'reloaded', visibility_mode='filter'
  )
  live = [
      json.loads(line[len(b'data: ') :])
      for line in streamed.splitlines()
      if line.startswith(b'data: ')
  ]

  response = httpx.get(
      f'{server_url}/apps/{_APP}/users/http_user/sessions/reloaded',
      params={'visibility_mode': 'filter'},
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 200
  assert not [w for w in _INTERNAL_WORDS if w in response.content]
  reloaded = response.json()['events']
  stored_live = [
      e for e in live if not (e.get('partial') and e['author'] == 'booker')
  ]
  assert [e['id'] for e in reloaded[1:]] == [e['id'] for e in stored_live]
  assert _final_texts(live) == [_USER_TEXT]
  assert _final_texts(reloaded[1:]) == [_USER_TEXT]
  assert _INTERNAL_TEXT.encode() in _stored_session_bytes(
      server_url, 'http_user', 'reloaded'
  )


def test_invalid_visibility_mode_on_session_read_over_http(server_url: str):
  _create_session(server_url, 'http_user', 'read_invalid')

  response = httpx.get(
      f'{server_url}/apps/{_APP}/users/http_user/sessions/read_invalid',
      params={'visibility_mode': 'hide'},
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 422
  assert "'annotate'" in response.text and "'filter'" in response.text


def _assistant_run(
    base_url: str, session_id: str, message: dict[str, Any], **extra: Any
) -> list[dict[str, Any]]:
  response = httpx.post(
      f'{base_url}/run_sse',
      json={
          'appName': _assistant_app.APP,
          'userId': 'http_user',
          'sessionId': session_id,
          'newMessage': message,
          **extra,
      },
      timeout=_REQUEST_TIMEOUT_S,
  )
  assert response.status_code == 200, response.text
  return [
      json.loads(line[len('data: ') :])
      for line in response.text.splitlines()
      if line.startswith('data: ')
  ]


def _stored_events(server_dir: Path, session_id: str) -> list[Event]:
  service = SqliteSessionService(db_path=str(server_dir / 'sessions.db'))
  session = asyncio.run(
      service.get_session(
          app_name=_assistant_app.APP,
          user_id='http_user',
          session_id=session_id,
      )
  )
  assert session is not None
  return session.events


def test_session_read_as_messages_over_http(server_url: str, server_dir: Path):
  session = httpx.post(
      f'{server_url}/apps/{_assistant_app.APP}/users/http_user/sessions',
      json={},
      timeout=_REQUEST_TIMEOUT_S,
  ).json()['id']
  options = {'visibilityMode': 'filter', 'nestedProgress': 'minimal'}
  question = {'role': 'user', 'parts': [{'text': _assistant_app.QUESTION}]}
  live = _assistant_run(server_url, session, question, **options)
  [asked] = [
      part['functionCall']
      for event in live
      for part in (event.get('content') or {}).get('parts', [])
      if part.get('functionCall', {}).get('name') == 'ask_user_to_confirm'
  ]
  answer = {
      'role': 'user',
      'parts': [{
          'functionResponse': {
              'id': asked['id'],
              'name': asked['name'],
              'response': {'answer': 'yes'},
          }
      }],
  }
  live += _assistant_run(server_url, session, answer, **options)

  response = httpx.get(
      f'{server_url}/apps/{_assistant_app.APP}/users/http_user/sessions'
      f'/{session}/messages',
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 200
  messages = response.json()
  assert messages == [
      m.model_dump(by_alias=True, exclude_none=True, mode='json')
      for m in user_messages(_stored_events(server_dir, session))
  ]
  assert [m['role'] for m in messages] == ['user', 'assistant']
  parts = messages[1]['parts']
  assert [p['type'] for p in parts] == ['agent', 'tool', 'tool', 'text']
  assert parts[0]['agent']['agent'] == 'researcher'
  assert [s['name'] for s in parts[0]['agent']['steps']] == ['search']
  assert [p['tool']['name'] for p in parts[1:3]] == [
      'lookup_account',
      'ask_user_to_confirm',
  ]
  assert parts[3]['text'] == _assistant_app.ANSWER
  assert 'audit' not in response.text
  # While the researcher ran, the stream said so, attributed to its call.
  progress = [
      e['customMetadata']['adk_progress']
      for e in live
      if 'adk_progress' in (e.get('customMetadata') or {})
  ]
  assert {p['run'] for p in progress} == {parts[0]['agent']['run']}
  # The same parts, in the same order, as the run sent.
  sent = user_messages(Event.model_validate(e) for e in live)
  assert [
      p.text or (p.tool and p.tool.call_id) or (p.agent and p.agent.run)
      for p in sent[0].parts
  ] == [
      p.get('text')
      or p.get('tool', {}).get('callId')
      or p.get('agent', {}).get('run')
      for p in parts
  ]


def test_bad_nested_progress_is_rejected_over_http(server_url: str):
  response = httpx.post(
      f'{server_url}/run',
      json=_run_request('http_user', 'bad', nested_progress='loud'),
      timeout=_REQUEST_TIMEOUT_S,
  )

  assert response.status_code == 422
  assert response.headers['content-type'] == 'application/json'
  assert "'hidden'" in response.text and "'full'" in response.text
