"""A real AG-UI client rebuilds the conversation the fork's adapter serves.

``@ag-ui/client`` 1.0.0 (the client CopilotKit uses), run under Node, talks to
``UserViewADKAgent`` served on a real port by uvicorn. The assistant asks an
``AgentTool`` researcher (which searches), calls a ``'minimal'`` tool, a
``'hidden'`` tool and a tool the client answers, then answers; two turns. The
client must rebuild, per turn, one assistant message holding the answer and
the two visible tool cards in order, the researcher's work as a sub-agent run
grouped by its ``subagentRunId`` (the researcher's call id), streamed while it
works, nothing of the hidden tool, no internal text as chat text; and a reload
(``POST /agents/state``) must give the same messages.

The Node dependencies are installed by ``scripts/test`` (``npm ci`` in
``tests/integration/ag_ui_client``). Without Node or the package the test
skips, except under CI (``CI`` set), where it fails. Scripted models, no
network.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
import contextlib
import json
import os
from pathlib import Path
import shutil
import subprocess
import threading
import time
from typing import Any

from _adk_process import free_port
from _scripted import call
from _scripted import ScriptedLlm
from fastapi import FastAPI
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.run_config import StreamingMode
from google.adk.apps.app import App
from google.adk.apps.app import ResumabilityConfig
from google.adk.integrations.ag_ui_user_view import add_user_view_fastapi_endpoint
from google.adk.integrations.ag_ui_user_view import UserViewADKAgent
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
import httpx
import pytest
import uvicorn

_CLIENT_DIR = Path(__file__).with_name('ag_ui_client')
_TURNS = ('Where do quokkas live?', 'And where do wombats live?')
_ANSWER = 'They live on Rottnest Island; your gold tier covers the ferry.'
# What stays inside: the researcher's own reply, the results of the tools
# shown at 'minimal', everything of the hidden tool.
_FOUND = 'researcher-reply-okapi-3381'
_HIT = 'search-hit-bilby-2290'
_TIER = 'gold-tier-7731'
_AUDIT = 'audit'
_SEARCH_SECONDS = 0.6
"""How long the search takes: the client must hear of it meanwhile."""


async def search(query: str) -> dict[str, Any]:
  """Searches the web."""
  await asyncio.sleep(_SEARCH_SECONDS)
  return {'hits': [_HIT], 'query': query}


def lookup_account(user: str) -> dict[str, str]:
  """Looks up the user's account."""
  return {'tier': _TIER, 'user': user}


def audit(note: str) -> dict[str, str]:
  """Writes an audit note."""
  return {'audit': 'audit-secret-5120', 'note': note}


def ask_user_to_confirm(question: str) -> None:
  """Asks the user, in the client, to confirm."""
  del question


def _assistant() -> tuple[LlmAgent, list[ScriptedLlm]]:
  researcher_model = ScriptedLlm(
      per_turn=True,
      script=[call('search', query='habitat'), types.Part(text=_FOUND)],
  )
  researcher = LlmAgent(
      name='researcher',
      description='Researches a topic.',
      model=researcher_model,
      tools=[search],
  )
  account = FunctionTool(lookup_account)
  account.user_visibility = 'minimal'
  audit_tool = FunctionTool(audit)
  audit_tool.user_visibility = 'hidden'
  assistant_model = ScriptedLlm(
      per_turn=True,
      script=[
          call('researcher', request='Where do they live?'),
          call('lookup_account', user='u1'),
          call('audit', note='researched'),
          call('ask_user_to_confirm', question='Book the ferry?'),
          types.Part(text=_ANSWER),
      ],
  )
  assistant = LlmAgent(
      name='assistant',
      model=assistant_model,
      tools=[
          AgentTool(researcher),
          account,
          audit_tool,
          LongRunningFunctionTool(ask_user_to_confirm),
      ],
  )
  return assistant, [assistant_model, researcher_model]


def _streaming(input_data: Any) -> RunConfig:
  del input_data  # The same for every run.
  return RunConfig(streaming_mode=StreamingMode.SSE)


@contextlib.contextmanager
def _serving(app: FastAPI) -> Iterator[str]:
  """Serves ``app`` with uvicorn on a loopback port until the block ends."""
  port = free_port()
  server = uvicorn.Server(
      uvicorn.Config(app, host='127.0.0.1', port=port, log_level='warning')
  )
  thread = threading.Thread(target=server.run, daemon=True)
  thread.start()
  deadline = time.monotonic() + 30
  while not server.started:
    if time.monotonic() > deadline or not thread.is_alive():
      pytest.fail('uvicorn did not start')
    time.sleep(0.05)
  try:
    yield f'http://127.0.0.1:{port}'
  finally:
    server.should_exit = True
    thread.join(timeout=15)


def _node_client() -> list[str]:
  """The command that runs the client, or a skip (a failure under CI)."""
  node = shutil.which('node')
  reason = None
  if node is None:
    reason = 'node (Node.js 20 or later) is not on PATH.'
  elif not (_CLIENT_DIR / 'node_modules' / '@ag-ui' / 'client').is_dir():
    reason = f'@ag-ui/client is not installed in {_CLIENT_DIR}.'
  if reason is not None:
    hint = f' Run `npm ci` in {_CLIENT_DIR} (scripts/test does).'
    if os.environ.get('CI'):
      pytest.fail(reason + hint, pytrace=False)
    pytest.skip(reason + hint)
  return [str(node), str(_CLIENT_DIR / 'client.mjs')]


def _by_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
  return [event for event in events if event['type'] == kind]


def _drawn(messages: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
  """What a chat client draws: role, owner, text and tool calls by name."""
  return [
      (
          m['role'],
          m.get('subagentRunId'),
          m.get('content') if m['role'] != 'tool' else None,
          [c['function']['name'] for c in m.get('toolCalls') or []],
      )
      for m in messages
  ]


@pytest.mark.parametrize('resumable', [False, True], ids=['plain', 'resumable'])
def test_ag_ui_client_rebuilds_one_message_per_turn_and_the_researchers_run(
    resumable, tmp_path
):
  command = _node_client()
  assistant, models = _assistant()
  options: dict[str, Any] = dict(
      user_id='u1',
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )
  if resumable:
    # ag-ui-adk's recommended way to pause for the client: it resumes the
    # paused invocation instead of starting one.
    agent = UserViewADKAgent.from_app(
        App(
            name='ag_ui_client_app',
            root_agent=assistant,
            resumability_config=ResumabilityConfig(is_resumable=True),
        ),
        **options,
    )
  else:
    agent = UserViewADKAgent(
        adk_agent=assistant, app_name='ag_ui_client_app', **options
    )
  app = FastAPI()
  add_user_view_fastapi_endpoint(app, agent, '/')

  with _serving(app) as base_url:
    result = subprocess.run(
        [*command, base_url + '/', *_TURNS],
        cwd=_CLIENT_DIR,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    state = httpx.post(
        base_url + '/agents/state',
        json={'threadId': 'thread-ag-ui-client'},
        timeout=30,
    )
  (tmp_path / 'client.json').write_text(result.stdout)
  output = json.loads(result.stdout)
  events, runs, messages = output['events'], output['runs'], output['messages']
  assert not _by_type(events, 'RUN_ERROR'), events

  # The researcher's work: one run per turn, attributed to its call.
  started = _by_type(events, 'SUBAGENT_STARTED')
  finished = _by_type(events, 'SUBAGENT_FINISHED')
  assert [e['name'] for e in started] == ['researcher', 'researcher']
  assert [e['subagentRunId'] for e in finished] == [
      e['subagentRunId'] for e in started
  ]
  assert all(e['parentToolCallId'] == e['subagentRunId'] for e in started)
  for start, end in zip(started, finished):
    # Heard while the researcher worked, not with its result.
    assert end['at'] - start['at'] >= _SEARCH_SECONDS * 1000 * 0.8
  steps = [
      e for e in _by_type(events, 'TOOL_CALL_START') if e.get('subagentRunId')
  ]
  assert [(e['toolCallName'], e['subagentRunId']) for e in steps] == [
      ('search', run['subagentRunId']) for run in started
  ]

  # Per turn: the user's message, the researcher's run (its own message,
  # grouped by subagentRunId) and ONE assistant message with the answer and
  # the two visible tool cards in order.
  run_ids = [e['subagentRunId'] for e in started]
  expected = [
      drawn
      for text, run_id in zip(_TURNS, run_ids)
      for drawn in (
          ('user', None, text, []),
          ('assistant', run_id, None, ['search']),
          ('tool', run_id, None, []),
          (
              'assistant',
              None,
              _ANSWER,
              ['lookup_account', 'ask_user_to_confirm'],
          ),
          ('tool', None, None, []),
          ('tool', None, None, []),
      )
  ]
  assert _drawn(messages) == expected
  assert [m['content'] for m in messages if m['role'] == 'tool'][:3] == [
      'null',  # search, at 'minimal'
      'null',  # lookup_account, at 'minimal'
      json.dumps({'answer': 'yes'}),  # what the client answered
  ]

  # Nothing internal reached the client, as chat text or otherwise.
  for secret in (_FOUND, _HIT, _TIER, _AUDIT):
    assert secret not in result.stdout, secret

  # Live and reload agree: the messages the live events built are the ones
  # the run's snapshot and /agents/state send (the client's own answer
  # message aside, which the history gives an id of its own).
  for run in runs:

    def shown(ms: list[dict[str, Any]]) -> list[dict[str, Any]]:
      return [
          m
          for m in ms
          if m['role'] == 'assistant'
          or (m['role'] == 'tool' and m['id'].endswith('-result'))
          and not any(
              c['id'] == m['toolCallId']
              and c['function']['name'] == 'ask_user_to_confirm'
              for a in ms
              for c in a.get('toolCalls') or []
          )
      ]

    assert run['live'] is not None, run['runId']
    assert shown(run['live']) == shown(run['messages']), run['runId']
  assert state.status_code == 200, state.text
  assert state.json()['messages'] == messages

  # Two turns, no replay: each model request was made once.
  assistant_model, researcher_model = models
  assert len(assistant_model.requests) == 5 * len(_TURNS)
  assert len(researcher_model.requests) == 2 * len(_TURNS)
