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

"""The samples in contributing/samples, loaded the way the adk CLI loads them.

Each sample is loaded by upstream's AgentLoader (what ``adk run``, ``adk web``
and ``adk api_server`` use) and run offline through a Runner on its scripted
model; the conversation must read as the sample's docstring says. The
``adk run`` command, the ``api_server`` app and the main-job demo are run as
users run them.
"""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys
from typing import Any
import warnings

from _scripted import run_turns
from fastapi.testclient import TestClient
from google.adk.cli.fast_api import get_fast_api_app
from google.adk.cli.utils.agent_loader import AgentLoader
from google.adk.runners import InMemoryRunner
import pytest

_SAMPLES = Path(__file__).resolve().parents[2] / 'contributing' / 'samples'
_BOOKING_TURNS = (
    'Hi! Could I get a table for two tomorrow at 7pm?',
    'Do you have vegetarian options?',
    'Great. Can we make it 8pm instead?',
)
_BOOKED = 'You are booked: a table for two tomorrow at 7pm. See you then!'
_VEGETARIAN = (
    'Yes: about a third of our menu is vegetarian, and the kitchen can make'
    ' most pasta dishes vegan.'
)
_CHANGED = (
    'Done: I have changed your booking to a table for two tomorrow at 8pm.'
)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
  monkeypatch.setenv('ADK_SAMPLES_OFFLINE', '1')
  warnings.filterwarnings('ignore', category=DeprecationWarning)


def _load(name: str) -> Any:
  """Loads a sample the way ``adk run contributing/samples/<name>`` does."""
  agent = AgentLoader(agents_dir=str(_SAMPLES)).load_agent(name)
  # The loader caches modules: reset what the scripted models recorded.
  for model in _scripted_models(agent):
    model.requests.clear()
  return agent


def _scripted_models(agent: Any) -> list[Any]:
  models = []
  model = getattr(agent, 'model', None)
  if model is not None and hasattr(model, 'requests'):
    models.append(model)
  children = list(getattr(agent, 'sub_agents', []) or [])
  graph = getattr(agent, 'graph', None)
  if graph is not None:
    children += [node for node in graph.nodes if node is not agent]
  for child in children:
    models.extend(_scripted_models(child))
  return models


async def _converse(
    agent: Any, turns: tuple[str, ...]
) -> list[list[tuple[str, str, bool]]]:
  """(author, text, is_user_facing) of each turn's final responses."""
  runner = InMemoryRunner(agent=agent, app_name='samples')
  session = await runner.session_service.create_session(
      app_name='samples', user_id='guest'
  )
  transcript = []
  for text in turns:
    replies = []
    for event in await run_turns(
        runner, text, user_id='guest', session_id=session.id
    ):
      if event.is_final_response() and event.content and event.content.parts:
        reply = ''.join(part.text or '' for part in event.content.parts)
        if reply:
          replies.append((event.author, reply, event.is_user_facing))
    transcript.append(replies)
  return transcript


def _request_lines(llm_request: Any) -> list[str]:
  return [
      part.text
      for content in llm_request.contents
      for part in content.parts or []
      if part.text
  ]


@pytest.mark.asyncio
async def test_booking_router_conversation_and_visibility():
  agent = _load('booking_router')

  transcript = await _converse(agent, _BOOKING_TURNS)

  assert transcript == [
      [('classifier', 'booking', False), ('booker', _BOOKED, True)],
      [('classifier', 'info', False), ('info', _VEGETARIAN, True)],
      [('classifier', 'booking', False), ('booker', _CHANGED, True)],
  ]


@pytest.mark.asyncio
async def test_booking_router_booker_sees_the_user_and_itself_only():
  agent = _load('booking_router')
  booker = agent.find_agent('booker')
  classifier = agent.find_agent('classifier')

  await _converse(agent, _BOOKING_TURNS)

  assert _request_lines(booker.model.requests[-1]) == [
      _BOOKING_TURNS[0],
      _BOOKED,
      _BOOKING_TURNS[1],
      _BOOKING_TURNS[2],
  ]
  # include_contents='none' with ['user']: the latest message alone.
  assert [_request_lines(r) for r in classifier.model.requests] == [
      [turn] for turn in _BOOKING_TURNS
  ]


@pytest.mark.asyncio
async def test_drafting_loop_only_the_presenter_speaks():
  agent = _load('drafting_loop')

  transcript = await _converse(
      agent,
      (
          (
              'Please write an announcement that our cafe opens on Saturday at'
              ' 9am.'
          ),
          'Make it a bit more playful.',
      ),
  )

  first, second = transcript
  assert [author for author, _, _ in first] == [
      'drafter',
      'reviewer',
      'drafter',
      'presenter',
  ]
  assert [facing for _, _, facing in first] == [False, False, False, True]
  assert first[-1][1] == (
      'Here is your announcement:\n\nBig news: Our cafe opens on Saturday,'
      ' from 9am! We look forward to seeing you.'
  )
  # The drafter revises its own latest draft, keeping the time.
  assert [author for author, _, _ in second] == ['drafter', 'presenter']
  assert second[-1][1].endswith('from 9am! Come hungry, leave happy.')


@pytest.mark.asyncio
async def test_research_team_writer_sees_its_windows_only():
  agent = _load('research_team')
  turns = tuple(f'Question {n} about heat pumps.' for n in range(1, 5))

  transcript = await _converse(agent, turns)

  # Only the writer, the last of the sequence, speaks to the user.
  assert [
      [(author, facing) for author, _, facing in turn] for turn in transcript
  ] == [[('planner', False), ('researcher', False), ('writer', True)]] * 4
  _, researcher, writer = agent.sub_agents
  # The researcher searched once a turn.
  assert len(researcher.model.requests) == 8
  lines = _request_lines(writer.model.requests[-1])
  text = '\n'.join(lines)
  # The user's first and latest messages, the latest plan, every finding.
  assert [line for line in lines if line.startswith('Question')] == [
      turns[0],
      turns[-1],
  ]
  assert 'Plan 4:' in text and 'Plan 3:' not in text
  assert all(f'Finding {n}:' in text for n in range(1, 5))
  assert 'called tool' not in text and 'tool returned' not in text
  assert 'Here is the revised guide' not in text
  # The writer follows the latest plan and uses every finding.
  assert transcript[-1][-1][1].startswith(
      'Here is the revised guide (following plan 4, drawing on 4 findings).'
  )


@pytest.mark.asyncio
async def test_booking_workflow_conversation_and_visibility():
  agent = _load('booking_workflow')

  transcript = await _converse(agent, _BOOKING_TURNS)

  assert transcript == [
      [('classifier', 'booking', False), ('booker', _BOOKED, True)],
      [('classifier', 'info', False), ('info', _VEGETARIAN, True)],
      [('classifier', 'booking', False), ('booker', _CHANGED, True)],
  ]


@pytest.mark.asyncio
async def test_booking_workflow_booker_sees_the_user_and_itself_only():
  # The Workflow form of the booking router sends the same requests as the
  # SequentialAgent form, as docs/include-sources.md says.
  requests = {}
  for sample in ('booking_workflow', 'booking_router'):
    agent = _load(sample)
    await _converse(agent, _BOOKING_TURNS)
    models = {model.model: model for model in _scripted_models(agent)}
    requests[sample] = {
        name: [_request_lines(r) for r in model.requests]
        for name, model in models.items()
    }

  workflow = requests['booking_workflow']
  assert workflow == requests['booking_router']
  assert workflow['scripted-booker'][-1] == [
      _BOOKING_TURNS[0],
      _BOOKED,
      _BOOKING_TURNS[1],
      _BOOKING_TURNS[2],
  ]
  assert workflow['scripted-classifier'] == [[turn] for turn in _BOOKING_TURNS]


def _sample_python_env(**extra: str) -> dict[str, str]:
  env = {
      k: v
      for k, v in os.environ.items()
      if not k.startswith(('GOOGLE_', 'GEMINI_', 'ADK_SAMPLES_'))
  }
  env['PYTHONWARNINGS'] = 'ignore::DeprecationWarning'
  env.update(extra)
  return env


@pytest.mark.parametrize(
    'environment, model, announced',
    [
        ({}, 'scripted-booker', 'scripted, offline'),
        (
            {'GOOGLE_API_KEY': 'not-used'},
            'gemini-2.5-flash',
            'gemini-2.5-flash',
        ),
        (
            {
                'GOOGLE_GENAI_USE_VERTEXAI': 'true',
                'GOOGLE_CLOUD_PROJECT': 'a-project',
            },
            'gemini-2.5-flash',
            'gemini-2.5-flash',
        ),
        (
            {'GOOGLE_API_KEY': 'not-used', 'ADK_SAMPLES_OFFLINE': '1'},
            'scripted-booker',
            'scripted, offline',
        ),
    ],
)
def test_samples_choose_gemini_when_configured(
    environment: dict[str, str], model: str, announced: str
):
  # A process of its own: the model is chosen when the sample is imported.
  result = subprocess.run(
      [
          sys.executable,
          '-c',
          (
              'import booking_router.agent as a; m = a.booker.model;'
              ' print(m if isinstance(m, str) else m.model)'
          ),
      ],
      cwd=_SAMPLES,
      env=_sample_python_env(**environment),
      capture_output=True,
      text=True,
      timeout=120,
      check=True,
  )

  assert result.stdout.strip() == model
  assert f'[booking_router] model: {announced}' in result.stderr


def _adk_run(
    *options: str, stdin: str, **environment: str
) -> subprocess.CompletedProcess[str]:
  """Runs the installed `adk run` on the booking router, as a user does."""
  adk = Path(sys.executable).with_name('adk')
  return subprocess.run(
      [str(adk), 'run', *options, str(_SAMPLES / 'booking_router')],
      input=stdin,
      env=_sample_python_env(**environment),
      capture_output=True,
      text=True,
      timeout=180,
      check=True,
  )


def test_adk_run_loads_and_runs_the_sample():
  result = _adk_run(
      # Nothing written into the sample's folder.
      '--session_service_uri=memory://',
      '--artifact_service_uri=memory://',
      stdin=f'{_BOOKING_TURNS[0]}\n{_BOOKING_TURNS[2]}\nexit\n',
  )

  assert f'[booker]: {_BOOKED}' in result.stdout
  assert f'[booker]: {_CHANGED}' in result.stdout


@pytest.mark.parametrize('internal', [None, 'full'])
def test_adk_run_shows_the_users_view(internal):
  result = _adk_run(
      '--in_memory',
      *(['--internal', internal] if internal else []),
      # No exit: the end of the piped input ends the session.
      stdin=f'{_BOOKING_TURNS[0]}\n{_BOOKING_TURNS[1]}\n',
      ADK_SAMPLES_OFFLINE='1',
  )

  assert f'[booker]: {_BOOKED}' in result.stdout
  assert f'[info]: {_VEGETARIAN}' in result.stdout
  if internal == 'full':
    assert '[user]: [classifier]: booking\n' in result.stdout
    assert '(internal)' not in result.stdout
  else:
    assert '[classifier]:' not in result.stdout
    assert '[user]:   classifier (internal): working\n' in result.stdout
  assert 'Traceback' not in result.stderr


def test_api_server_app_lists_and_runs_the_samples(tmp_path: Path):
  app = get_fast_api_app(
      agents_dir=str(_SAMPLES),
      session_service_uri=f'sqlite:///{tmp_path / "sessions.db"}',
      artifact_service_uri='memory://',
      memory_service_uri='memory://',
      web=False,
  )
  with TestClient(app) as client:
    apps = client.get('/list-apps').json()
    client.post(
        '/apps/booking_workflow/users/guest/sessions/s1', json={}
    ).raise_for_status()
    response = client.post(
        '/run',
        json={
            'app_name': 'booking_workflow',
            'user_id': 'guest',
            'session_id': 's1',
            'new_message': {
                'role': 'user',
                'parts': [{'text': _BOOKING_TURNS[0]}],
            },
            'visibility_mode': 'filter',
        },
    )

  assert {
      'booking_router',
      'booking_workflow',
      'drafting_loop',
      'research_team',
  } <= set(apps)
  response.raise_for_status()
  texts = [
      (event['author'], part.get('text'))
      for event in response.json()
      for part in (event.get('content') or {}).get('parts', [])
  ]
  assert ('booker', _BOOKED) in texts
  assert 'classifier' not in {author for author, _ in texts}


@pytest.mark.parametrize(
    'options, second, expected',
    [
        # The Workflow form: upstream's nodes default to 'none'.
        (
            [],
            "upstream 'default'",
            {
                'booker kept the party size': ['no', 'yes', 'yes'],
                "user's messages in it": ['33%', '100%', '100%'],
            },
        ),
        (
            ['--sample', 'booking_router'],
            "upstream 'none'",
            {
                'booker kept the party size': ['yes', 'no', 'yes'],
                "user's messages in it": ['100%', '0%', '100%'],
            },
        ),
    ],
)
def test_main_job_demo_reads_in_80_columns(options, second, expected):
  result = subprocess.run(
      [sys.executable, str(_SAMPLES / 'side_by_side.py'), *options],
      env=_sample_python_env(),
      capture_output=True,
      text=True,
      timeout=180,
      check=True,
  )

  lines = result.stdout.splitlines()
  assert max(len(line) for line in lines + result.stderr.splitlines()) <= 80
  windows_at = lines.index('5. Source windows: the research team, 10 turns')
  figures = {
      line[:26].strip(): line[26:].split()
      for line in lines[
          lines.index('4. Figures over the three turns') : windows_at
      ]
  }
  for figure, values in expected.items():
    assert figures[figure] == values, figure
  assert figures['...from internal agents'] == ['3', '3', '0']
  assert second in result.stdout
  # Every response of every turn has its row: the responder's answer is on
  # its own line, never on the classifier's.
  seen = lines[
      lines.index(
          '1. What the user sees (every final response of a turn)'
      ) : lines.index(
          "2. What each agent's model received (characters, turns 1/2/3)"
      )
  ]
  for answer in ('You are booked: a', 'Yes: about a third of', 'Done: I have'):
    rows = [line for line in seen if answer in line]
    assert rows and all(row.startswith(('booker', 'info')) for row in rows)
  fork_chars = int(figures['characters, all requests'][-1].replace(',', ''))
  assert fork_chars == 415
  _assert_windows_section(lines[windows_at:])


def _assert_windows_section(lines: list[str]) -> None:
  """The demo's last section: the research team's writer, three ways."""
  rows = {line[:26].strip(): line[26:].split() for line in lines}
  assert rows["writer's request"] == [
      'upstream',
      *('fork,', 'plain', 'list'),
      *('fork,', 'windows'),
  ]
  # The windows: the user's first and latest messages, the latest plan,
  # every finding without the search traffic, none of its own drafts.
  assert rows['user messages'] == ['10', '10', '2']
  assert rows["planner's plans"] == ['10', '10', '1']
  assert rows["researcher's answers"] == ['10', '10', '10']
  assert rows['tool calls, with results'] == ['10', '10', '0']
  assert rows['its own earlier drafts'] == ['9', '0', '0']
  contents = [int(n) for n in rows['contents, turn 10']]
  chars = [
      int(n.replace(',', ''))
      for n in rows['characters, turn 10']
      if not n.startswith('(')
  ]
  totals = [int(n.replace(',', '')) for n in rows['characters, turns 1-10']]
  for figures in (contents, chars, totals):
    assert figures[0] > figures[1] > figures[2]
  assert chars[2] < chars[0] / 3
