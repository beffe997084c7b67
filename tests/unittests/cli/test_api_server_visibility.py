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

"""``visibility_mode`` on ``/run`` and ``/run_sse``.

The app serves a ``SequentialAgent`` whose internal first agent streams a reply
that the user-facing agent never repeats.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Iterator
from pathlib import Path

from fastapi.testclient import TestClient
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.cli.fast_api import get_fast_api_app
from google.adk.cli.utils.base_agent_loader import BaseAgentLoader
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
import pytest

_APP = 'pipeline_app'
_USER = 'user'
_INTERNAL_TEXT = 'verdict quokka-4471 premium-fare'
_INTERNAL_WORDS = [word.encode() for word in _INTERNAL_TEXT.split(' ')]
_USER_TEXT = 'your flight to Oslo is booked'


class _ScriptedLlm(BaseLlm):
  """Streams its reply word by word, then sends it whole."""

  model: str = 'scripted-llm'
  reply: str = ''

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request
    if stream:
      for word in self.reply.split(' '):
        yield LlmResponse(
            content=types.ModelContent(parts=[types.Part(text=word + ' ')]),
            partial=True,
        )
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)])
    )


class _PipelineLoader(BaseAgentLoader):

  def load_agent(self, agent_name: str) -> BaseAgent:
    assert agent_name == _APP
    return SequentialAgent(
        name='pipeline',
        sub_agents=[
            LlmAgent(
                name='classifier', model=_ScriptedLlm(reply=_INTERNAL_TEXT)
            ),
            LlmAgent(name='booker', model=_ScriptedLlm(reply=_USER_TEXT)),
        ],
    )

  def list_agents(self) -> list[str]:
    return [_APP]


@pytest.fixture(name='client')
def _client_fixture(tmp_path: Path) -> Iterator[TestClient]:
  app = get_fast_api_app(
      agents_dir=str(tmp_path),
      agent_loader=_PipelineLoader(),
      session_service_uri='memory://',
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


def _request(session_id: str, **extra: object) -> dict[str, object]:
  return {
      'app_name': _APP,
      'user_id': _USER,
      'session_id': session_id,
      'new_message': {'role': 'user', 'parts': [{'text': 'book Oslo'}]},
      **extra,
  }


def _stored_session(client: TestClient, session_id: str) -> bytes:
  response = client.get(f'/apps/{_APP}/users/{_USER}/sessions/{session_id}')
  assert response.status_code == 200
  return response.content


def _internal_words_in(body: bytes) -> list[bytes]:
  return [word for word in _INTERNAL_WORDS if word in body]


def test_run_sse_filter_mode_holds_no_internal_text(client: TestClient):
  _create_session(client, 'filtered')

  response = client.post(
      '/run_sse',
      json=_request('filtered', streaming=True, visibility_mode='filter'),
  )

  assert response.status_code == 200
  assert _internal_words_in(response.content) == []
  assert b'"author":"classifier"' in response.content
  assert _USER_TEXT.encode() in response.content
  stored = _stored_session(client, 'filtered')
  assert _INTERNAL_TEXT.encode() in stored
  assert _USER_TEXT.encode() in stored


def test_run_sse_annotate_mode_streams_everything(client: TestClient):
  _create_session(client, 'annotated')

  response = client.post('/run_sse', json=_request('annotated', streaming=True))

  assert response.status_code == 200
  assert _internal_words_in(response.content) == _INTERNAL_WORDS
  assert _INTERNAL_TEXT.encode() in response.content


def test_run_filter_mode_holds_no_internal_text(client: TestClient):
  _create_session(client, 'unary')

  response = client.post(
      '/run', json=_request('unary', visibility_mode='filter')
  )

  assert response.status_code == 200
  assert _internal_words_in(response.content) == []
  events = response.json()
  assert [(e['author'], e.get('visibility')) for e in events] == [
      ('classifier', 'internal'),
      ('booker', None),
  ]
  assert _INTERNAL_TEXT.encode() in _stored_session(client, 'unary')


def test_run_annotate_mode_returns_internal_text(client: TestClient):
  _create_session(client, 'unary_annotated')

  response = client.post('/run', json=_request('unary_annotated'))

  assert response.status_code == 200
  texts = [e['content']['parts'][0]['text'] for e in response.json()]
  assert texts == [_INTERNAL_TEXT, _USER_TEXT]


@pytest.mark.parametrize('path', ['/run', '/run_sse'])
def test_unknown_visibility_mode_is_rejected(client: TestClient, path: str):
  _create_session(client, 'invalid')

  response = client.post(path, json=_request('invalid', visibility_mode='hide'))

  assert response.status_code == 422
  assert "'annotate'" in response.text and "'filter'" in response.text
  assert 'visibility_mode' in response.text
