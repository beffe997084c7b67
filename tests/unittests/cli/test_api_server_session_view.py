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

"""``visibility_mode`` on the session reads: a reloaded chat shows the user's view.

The app serves a ``SequentialAgent`` whose internal first agent replies with
words that the user-facing agent never repeats, and writes them to
``state['verdict']``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Iterator
import json
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
                name='classifier',
                model=_ScriptedLlm(reply=_INTERNAL_TEXT),
                output_key='verdict',
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


def _create_session(client: TestClient, session_id: str, **extra) -> None:
  response = client.post(
      f'/apps/{_APP}/users/{_USER}/sessions',
      json={'session_id': session_id, **extra},
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


def _session_events(client: TestClient, session_id: str, **params: str):
  response = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions/{session_id}', params=params
  )
  assert response.status_code == 200, response.text
  return response.json()['events']


@pytest.mark.parametrize('streaming', [False, True])
def test_reloaded_session_shows_what_the_run_streamed(
    client: TestClient, streaming: bool
):
  _create_session(client, 'reloaded')
  if streaming:
    response = client.post(
        '/run_sse',
        json=_request('reloaded', visibility_mode='filter', streaming=True),
    )
    live = [
        json.loads(line[len('data: ') :])
        for line in response.text.splitlines()
        if line.startswith('data: ')
    ]
    # The booker's streaming chunks are not stored; everything else is.
    live = [
        event
        for event in live
        if not event.get('partial') or event['author'] == 'classifier'
    ]
  else:
    response = client.post(
        '/run', json=_request('reloaded', visibility_mode='filter')
    )
    live = response.json()
  assert response.status_code == 200

  reloaded = _session_events(client, 'reloaded', visibility_mode='filter')

  assert not any(
      word.decode() in json.dumps(reloaded) for word in _INTERNAL_WORDS
  )
  assert _USER_TEXT in json.dumps(reloaded)
  assert reloaded[0]['author'] == 'user'
  by_id = {event['id']: event for event in live}
  assert [event['id'] for event in reloaded[1:]] == list(by_id)
  for event in reloaded[1:]:
    assert event == by_id[event['id']]


def test_session_read_defaults_to_every_event_as_stored(client: TestClient):
  _create_session(client, 'stored')
  client.post('/run', json=_request('stored', visibility_mode='filter'))

  events = _session_events(client, 'stored')

  assert _INTERNAL_TEXT in json.dumps(events)
  assert events == _session_events(client, 'stored', visibility_mode='annotate')


@pytest.mark.parametrize('suffix', ['/stored', ''])
@pytest.mark.parametrize('mode', ['hide', 'FILTER', ''])
def test_bad_visibility_mode_on_session_reads_is_rejected(
    client: TestClient, suffix: str, mode: str
):
  _create_session(client, 'stored')

  response = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions{suffix}',
      params={'visibility_mode': mode},
  )

  assert response.status_code == 422
  assert "'annotate'" in response.text and "'filter'" in response.text
  assert 'visibility_mode' in response.text
  assert _INTERNAL_TEXT not in response.text


def test_session_list_accepts_filter_mode(client: TestClient):
  _create_session(client, 'listed')

  response = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions',
      params={'visibility_mode': 'filter'},
  )

  assert response.status_code == 200
  assert [session['id'] for session in response.json()] == ['listed']


def _session(client: TestClient, session_id: str, **params) -> dict:
  response = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions/{session_id}', params=params
  )
  assert response.status_code == 200, response.text
  return response.json()


@pytest.mark.parametrize('endpoint', ['/run', '/run_sse'])
def test_internal_state_reaches_neither_the_run_nor_the_session_read(
    client: TestClient, endpoint: str
):
  _create_session(client, 'state', state={'guest': 'Ada'})

  response = client.post(
      endpoint, json=_request('state', visibility_mode='filter')
  )

  assert response.status_code == 200
  assert _USER_TEXT in response.text
  assert not any(word in response.content for word in _INTERNAL_WORDS)
  shown = _session(client, 'state', visibility_mode='filter')
  assert shown['state'] == {'guest': 'Ada'}
  assert not any(word.decode() in json.dumps(shown) for word in _INTERNAL_WORDS)
  stored = _session(client, 'state')
  assert stored['state'] == {'guest': 'Ada', 'verdict': _INTERNAL_TEXT}


def test_client_state_keys_name_what_the_client_sees(client: TestClient):
  _create_session(client, 'named')

  response = client.post(
      '/run',
      json=_request(
          'named', visibility_mode='filter', client_state_keys=['verdict']
      ),
  )

  classifier = [e for e in response.json() if e['author'] == 'classifier']
  assert [e['actions']['stateDelta'] for e in classifier] == [
      {'verdict': _INTERNAL_TEXT}
  ]
  assert 'content' not in classifier[0]
  shown = _session(
      client, 'named', visibility_mode='filter', client_state_keys='verdict'
  )
  assert shown['state'] == {'verdict': _INTERNAL_TEXT}
  listed = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions',
      params={'visibility_mode': 'filter', 'client_state_keys': 'verdict'},
  ).json()
  assert [s['state'] for s in listed] == [{'verdict': _INTERNAL_TEXT}]


def test_session_list_in_filter_mode_sends_only_named_state(client: TestClient):
  # Listed sessions come without their events, which say who wrote a key.
  _create_session(client, 'listed', state={'guest': 'Ada'})
  client.post('/run', json=_request('listed', visibility_mode='filter'))

  listed = client.get(
      f'/apps/{_APP}/users/{_USER}/sessions',
      params={'visibility_mode': 'filter'},
  ).json()

  assert [s['state'] for s in listed] == [{}]


def test_client_state_keys_must_be_a_list(client: TestClient):
  _create_session(client, 'bad')

  response = client.post(
      '/run',
      json=_request('bad', visibility_mode='filter', client_state_keys='x'),
  )

  assert response.status_code == 422
  assert 'client_state_keys' in response.text
