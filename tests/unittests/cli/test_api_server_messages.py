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

"""The API server reads a session as chat messages; runs take nestedProgress.

An assistant calls an ``AgentTool`` researcher (which searches), a
``'minimal'`` tool, a ``'hidden'`` tool and a tool the client answers, then
answers. The app is served by the real app factory on a SQLite session store,
which the test also reads directly to compare with the stored events.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Iterator
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.cli.fast_api import get_fast_api_app
from google.adk.cli.utils._session_messages import dump_messages
from google.adk.cli.utils.base_agent_loader import BaseAgentLoader
from google.adk.events.event import Event
from google.adk.events.user_messages import MessagePart
from google.adk.events.user_messages import ToolCard
from google.adk.events.user_messages import user_messages
from google.adk.events.user_messages import UserMessage
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
import pytest

_APP = 'assistant_app'
_USER = 'user'
_QUESTION = 'Where do quokkas live?'
_FOUND = 'Quokkas live on Rottnest Island.'
_ANSWER = 'Quokkas live on Rottnest Island; your gold tier covers the ferry.'
_AUDIT_SECRET = 'audit-secret-5120'


class _ScriptedLlm(BaseLlm):
  """Answers its n-th request in a turn with ``script[n]``."""

  model: str = 'scripted'
  script: list[types.Part]

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    replies = sum(1 for c in llm_request.contents if c.role == 'model')
    part = self.script[min(replies, len(self.script) - 1)]
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _call(name: str, **args: Any) -> types.Part:
  return types.Part(function_call=types.FunctionCall(name=name, args=args))


def search(query: str) -> dict[str, Any]:
  """Searches the web."""
  return {'hits': [_FOUND], 'query': query}


def lookup_account(user: str) -> dict[str, str]:
  """Looks up the user's account."""
  return {'tier': 'gold-7731', 'user': user}


def audit(note: str) -> dict[str, str]:
  """Writes an audit note."""
  return {'audit': _AUDIT_SECRET, 'note': note}


def ask_user_to_confirm(question: str) -> None:
  """Asks the user, in the client, to confirm."""
  del question


def _assistant() -> LlmAgent:
  researcher = LlmAgent(
      name='researcher',
      description='Researches a topic.',
      model=_ScriptedLlm(
          script=[
              _call('search', query='quokka habitat'),
              types.Part(text=_FOUND),
          ]
      ),
      tools=[search],
  )
  account = FunctionTool(lookup_account)
  account.user_visibility = 'minimal'
  audit_tool = FunctionTool(audit)
  audit_tool.user_visibility = 'hidden'
  return LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('researcher', request=_QUESTION),
              _call('lookup_account', user='u1'),
              _call('audit', note='researched'),
              _call('ask_user_to_confirm', question='Book the ferry?'),
              types.Part(text=_ANSWER),
          ]
      ),
      tools=[
          AgentTool(researcher),
          account,
          audit_tool,
          LongRunningFunctionTool(ask_user_to_confirm),
      ],
  )


class _Loader(BaseAgentLoader):

  def load_agent(self, agent_name: str) -> BaseAgent:
    assert agent_name == _APP
    return _assistant()

  def list_agents(self) -> list[str]:
    return [_APP]


@pytest.fixture(name='db_path')
def _db_path_fixture(tmp_path: Path) -> Path:
  return tmp_path / 'sessions.db'


@pytest.fixture(name='client')
def _client_fixture(tmp_path: Path, db_path: Path) -> Iterator[TestClient]:
  app = get_fast_api_app(
      agents_dir=str(tmp_path),
      agent_loader=_Loader(),
      session_service_uri=f'sqlite:///{db_path}',
      artifact_service_uri='memory://',
      memory_service_uri='memory://',
      web=False,
  )
  with TestClient(app) as client:
    yield client


def _create_session(client: TestClient, session_id: str) -> None:
  response = client.post(
      f'/apps/{_APP}/users/{_USER}/sessions', json={'session_id': session_id}
  )
  assert response.status_code == 200, response.text


def _request(
    session_id: str, message: dict[str, Any], **extra: Any
) -> dict[str, Any]:
  return {
      'appName': _APP,
      'userId': _USER,
      'sessionId': session_id,
      'newMessage': message,
      **extra,
  }


def _question() -> dict[str, Any]:
  return {'role': 'user', 'parts': [{'text': _QUESTION}]}


def _answer_to(call: dict[str, Any]) -> dict[str, Any]:
  return {
      'role': 'user',
      'parts': [{
          'functionResponse': {
              'id': call['id'],
              'name': call['name'],
              'response': {'answer': 'yes'},
          }
      }],
  }


def _calls(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
  return [
      part['functionCall']
      for event in events
      for part in (event.get('content') or {}).get('parts', [])
      if part.get('functionCall', {}).get('name') == name
  ]


def _sse_events(text: str) -> list[dict[str, Any]]:
  return [
      json.loads(line[len('data: ') :])
      for line in text.splitlines()
      if line.startswith('data: ')
  ]


def _run_turn(
    client: TestClient, session_id: str, **extra: Any
) -> list[dict[str, Any]]:
  """Runs the turn over /run, answering the client tool; returns the events."""
  first = client.post('/run', json=_request(session_id, _question(), **extra))
  assert first.status_code == 200, first.text
  [asked] = _calls(first.json(), 'ask_user_to_confirm')
  second = client.post(
      '/run', json=_request(session_id, _answer_to(asked), **extra)
  )
  assert second.status_code == 200, second.text
  return first.json() + second.json()


def _messages(client: TestClient, session_id: str, **params: Any) -> Any:
  response = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions/{session_id}/messages',
      params=params,
  )
  assert response.status_code == 200, response.text
  return response.json()


async def _stored_events(db_path: Path, session_id: str) -> list[Event]:
  session = await SqliteSessionService(db_path=str(db_path)).get_session(
      app_name=_APP, user_id=_USER, session_id=session_id
  )
  assert session is not None
  return session.events


def _dumped(messages: Any) -> list[dict[str, Any]]:
  return [
      m.model_dump(by_alias=True, exclude_none=True, mode='json')
      for m in messages
  ]


def _drawn(messages: list[dict[str, Any]]) -> list[tuple[str, list[Any]]]:
  """What a chat client draws of each message, without ids."""
  drawn = []
  for message in messages:
    parts = []
    for part in message['parts']:
      if part['type'] == 'tool':
        tool = part['tool']
        parts.append(('tool', tool['name'], tool['level'], tool['status']))
      elif part['type'] == 'agent':
        agent = part['agent']
        steps = [(s['name'], s['status']) for s in agent['steps']]
        parts.append(('agent', agent['agent'], agent['status'], steps))
      else:
        parts.append((part['type'], part['text']))
    drawn.append((message['role'], parts))
  return drawn


@pytest.mark.asyncio
async def test_messages_are_the_stored_turn_as_one_assistant_message(
    client: TestClient, db_path: Path
):
  _create_session(client, 'turn')
  _run_turn(client, 'turn', visibilityMode='filter', nestedProgress='minimal')

  messages = _messages(client, 'turn')

  assert messages == _dumped(
      user_messages(await _stored_events(db_path, 'turn'))
  )
  assert _drawn(messages) == [
      ('user', [('text', _QUESTION)]),
      (
          'assistant',
          [
              ('agent', 'researcher', 'finished', [('search', 'done')]),
              ('tool', 'lookup_account', 'minimal', 'done'),
              ('tool', 'ask_user_to_confirm', 'full', 'done'),
              ('text', _ANSWER),
          ],
      ),
  ]
  client_card = messages[1]['parts'][2]['tool']
  assert client_card['client'] is True
  assert client_card['args'] == {'question': 'Book the ferry?'}
  assert client_card['result'] == {'answer': 'yes'}
  # A minimal card has neither arguments nor result.
  assert 'args' not in messages[1]['parts'][1]['tool']
  assert 'audit' not in json.dumps(messages)


@pytest.mark.asyncio
async def test_messages_hold_the_parts_the_filtered_run_sent_in_its_order(
    client: TestClient,
):
  _create_session(client, 'live')
  live = _run_turn(client, 'live', visibilityMode='filter')

  messages = _messages(client, 'live')

  # The events of a run over HTTP carry no ADK-internal metadata (tool
  # levels, the record of an agent tool's run), so a client that turns them
  # into messages itself gets the same parts in the same order, but cannot
  # tell a minimal card or an agent's work from a full card.
  # /run does not send back the user's own messages.
  from_live = user_messages(Event.model_validate(e) for e in live)
  assert [_ids(m['parts']) for m in _dumped(from_live)] == [
      _ids(m['parts']) for m in messages if m['role'] == 'assistant'
  ]
  assert len(from_live) == 1 and len(from_live[0].parts) == 4
  assert _AUDIT_SECRET not in json.dumps(live)


def _ids(parts: list[dict[str, Any]]) -> list[str]:
  return [
      part.get('text')
      or (part.get('tool') or {}).get('callId')
      or (part.get('agent') or {}).get('run')
      for part in parts
  ]


def test_run_sse_streams_the_researchers_progress_when_asked(
    client: TestClient,
):
  _create_session(client, 'progress')
  _create_session(client, 'quiet')

  asked = client.post(
      '/run_sse',
      json=_request(
          'progress',
          _question(),
          visibilityMode='filter',
          nestedProgress='minimal',
      ),
  )
  quiet = client.post(
      '/run_sse', json=_request('quiet', _question(), visibilityMode='filter')
  )

  assert asked.status_code == 200 and quiet.status_code == 200
  events = _sse_events(asked.text)
  [researcher_call] = _calls(events, 'researcher')
  progress = [
      e['customMetadata']['adk_progress']
      for e in events
      if 'adk_progress' in (e.get('customMetadata') or {})
  ]
  assert progress
  assert {p['run'] for p in progress} == {researcher_call['id']}
  assert [p['step']['name'] for p in progress if p['status'] == 'step'] == [
      'search',
      'search',
  ]
  assert not any('content' in e for e in events if e.get('partial'))
  assert 'adk_progress' not in quiet.text


@pytest.mark.parametrize('endpoint', ['/run', '/run_sse'])
@pytest.mark.parametrize('level', ['loud', 'FULL', ''])
def test_a_bad_nested_progress_is_a_422_naming_the_levels(
    client: TestClient, endpoint: str, level: str
):
  _create_session(client, 'bad')

  response = client.post(
      endpoint, json=_request('bad', _question(), nestedProgress=level)
  )

  assert response.status_code == 422
  assert response.headers['content-type'] == 'application/json'
  assert 'nestedProgress' in response.text
  for name in ('hidden', 'minimal', 'full'):
    assert f"'{name}'" in response.text


def test_unknown_session_is_a_404(client: TestClient):
  response = client.get(f'/apps/{_APP}/users/{_USER}/sessions/nowhere/messages')

  assert response.status_code == 404
  assert response.json() == {'detail': 'Session not found'}


def test_a_session_without_a_turn_has_no_messages(client: TestClient):
  _create_session(client, 'empty')

  assert not _messages(client, 'empty')


def test_a_credential_in_a_client_card_is_redacted():
  card = ToolCard(
      call_id='c1',
      name='adk_request_credential',
      level='full',
      client=True,
      status='done',
      args={
          'authConfig': {
              'exchangedAuthCredential': {
                  'authType': 'oauth2',
                  'oauth2': {'clientId': 'app-7', 'clientSecret': 's3cret-77'},
              }
          }
      },
      result={
          'exchangedAuthCredential': {
              'authType': 'oauth2',
              'oauth2': {'accessToken': 'token-4242'},
          }
      },
  )
  message = UserMessage(
      id='m1',
      role='assistant',
      invocation_id='i1',
      parts=[MessagePart(type='tool', tool=card)],
  )

  [sent] = dump_messages([message])

  assert 's3cret-77' not in json.dumps(sent)
  assert 'token-4242' not in json.dumps(sent)
  assert sent['parts'][0]['tool']['args']['authConfig'][
      'exchangedAuthCredential'
  ]['oauth2'] == {'clientId': 'app-7'}
