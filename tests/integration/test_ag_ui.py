"""A fork app served through ag-ui-adk shows the client the user's view only.

ag-ui-adk 0.11.0 (the AG-UI middleware CopilotKit frontends use) never reads
``Event.is_user_facing``. A classifier (internal) looks the guest up with a
tool and labels the request; a booker (user-facing) answers. The label and the
tool's arguments and result must reach nothing the client receives: not the
live SSE stream, not the ``MESSAGES_SNAPSHOT`` a run ends with, not ``POST
/agents/state``. Plain ag-ui-adk streams them live; with filter mode it keeps
them out of the live stream but not out of the history it sends; the adapter
in ``google.adk.integrations.ag_ui_user_view`` keeps them out of all three.
The session keeps every event whole either way.

Everything runs in process: a real Runner under ag-ui-adk's FastAPI routes,
over httpx's ASGI transport, on scripted models (no network).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from collections.abc import Callable
import contextlib
import json
import subprocess
import sys
from typing import Any

from _scripted import ScriptedLlm
from ag_ui_adk import add_adk_fastapi_endpoint
from ag_ui_adk import ADKAgent
from fastapi import FastAPI
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.run_config import StreamingMode
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.user_messages import user_messages
from google.adk.integrations.ag_ui_user_view import add_user_view_fastapi_endpoint
from google.adk.integrations.ag_ui_user_view import UserViewADKAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import httpx
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:SequentialAgent is deprecated:DeprecationWarning'
)

_APP = 'router_app'
_USER = 'u1'
_THREAD = 'thread-1'
_LABEL = 'booking'
_ANSWER = 'Your table for two is reserved for 7pm tomorrow.'
_UNROUTED = 'Which service do you need?'
_TURNS = (
    'A table for two tomorrow at 7pm, please.',
    'And could you add a high chair?',
)
# What the classifier's tool is called with and answers: internal data too.
_GUEST = 'guest-quokka-4471'
_TIER = 'tier-platinum-0932'
_INTERNAL = (_LABEL, _GUEST, _TIER)


def look_up_guest(guest_id: str) -> dict[str, str]:
  """Looks up a returning guest."""
  del guest_id  # Every guest is the same one here.
  return {'tier': _TIER}


def _classifier_reply(llm_request: LlmRequest) -> types.Part:
  # Looks the guest up, then labels the request.
  last = llm_request.contents[-1]
  if any(part.function_response for part in last.parts or []):
    return types.Part(text=_LABEL)
  return types.Part(
      function_call=types.FunctionCall(
          name='look_up_guest', args={'guest_id': _GUEST}
      )
  )


def _booker_reply(llm_request: LlmRequest) -> types.Part:
  # The booker acts on the label it is given, as a model would.
  instruction = str(llm_request.config.system_instruction or '')
  return types.Part(text=_ANSWER if _LABEL in instruction else _UNROUTED)


def _agents() -> tuple[LlmAgent, LlmAgent]:
  classifier = LlmAgent(
      name='classifier',
      model=ScriptedLlm(script=[_classifier_reply]),
      instruction='Look the guest up, then answer "booking" or "info".',
      tools=[look_up_guest],
      # A plain key: stored in the session, kept from the client by the
      # adapter (STATE_DELTA, STATE_SNAPSHOT, /agents/state).
      output_key='intent',
  )
  booker = LlmAgent(
      name='booker',
      model=ScriptedLlm(script=[_booker_reply]),
      instruction='The request is about {intent}. Help the user.',
      include_sources=['user', 'self'],
  )
  return classifier, booker


def _sequence() -> BaseAgent:
  return SequentialAgent(name='router', sub_agents=list(_agents()))


def _workflow() -> BaseAgent:
  classifier, booker = _agents()
  return Workflow(name='router', edges=[(START, classifier, booker)])


_ROOTS = pytest.mark.parametrize(
    'make_root', [_sequence, _workflow], ids=['sequence', 'workflow']
)


def _filter_mode(input_data: Any) -> RunConfig:
  del input_data  # The same for every run.
  return RunConfig(streaming_mode=StreamingMode.SSE, visibility_mode='filter')


def _streaming(input_data: Any) -> RunConfig:
  """An app's own factory, saying nothing about visibility."""
  del input_data  # The same for every run.
  return RunConfig(streaming_mode=StreamingMode.SSE)


@contextlib.asynccontextmanager
async def _client(
    agent: ADKAgent, add_endpoint: Callable[..., None]
) -> AsyncIterator[httpx.AsyncClient]:
  app = FastAPI()
  add_endpoint(app, agent, '/')
  transport = httpx.ASGITransport(app=app)
  try:
    async with httpx.AsyncClient(
        transport=transport, base_url='http://agui.test', timeout=30
    ) as client:
      yield client
  finally:
    await agent.close()


async def _run_turn(
    client: httpx.AsyncClient, turn: int, state: dict[str, Any] | None = None
) -> tuple[str, list[dict[str, Any]]]:
  """Sends the user's messages up to ``turn``; returns the raw and parsed SSE."""
  messages = [
      {'id': f'user-{i}', 'role': 'user', 'content': text}
      for i, text in enumerate(_TURNS[: turn + 1])
  ]
  response = await client.post(
      '/',
      json={
          'threadId': _THREAD,
          'runId': f'run-{turn}',
          'state': state or {},
          'messages': messages,
          'tools': [],
          'context': [],
          'forwardedProps': {},
      },
      headers={'Accept': 'text/event-stream'},
  )
  assert response.status_code == 200, response.text
  events = [
      json.loads(line[len('data:') :])
      for line in response.text.splitlines()
      if line.startswith('data:')
  ]
  types_seen = [event['type'] for event in events]
  assert 'RUN_ERROR' not in types_seen, events
  assert types_seen[-1] == 'RUN_FINISHED', types_seen
  return response.text, events


async def _agents_state(client: httpx.AsyncClient) -> tuple[str, list[Any]]:
  """The raw ``/agents/state`` answer and its messages."""
  body = await _agents_state_body(client)
  return json.dumps(body), body['messages']


async def _agents_state_body(client: httpx.AsyncClient) -> dict[str, Any]:
  response = await client.post('/agents/state', json={'threadId': _THREAD})
  assert response.status_code == 200, response.text
  body = response.json()
  assert body['threadExists'], body
  return body


def _app_state(state: dict[str, Any]) -> dict[str, Any]:
  """``state`` without ag-ui-adk's own ``_ag_ui_*`` keys."""
  return {k: v for k, v in state.items() if not k.startswith('_ag_ui_')}


def _state_sent(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
  """The STATE_DELTA patches and STATE_SNAPSHOT states of a run."""
  return [
      event.get('snapshot') or event.get('delta')
      for event in events
      if event['type'] in ('STATE_DELTA', 'STATE_SNAPSHOT')
  ]


def _live_text(events: list[dict[str, Any]]) -> str:
  return ''.join(
      event['delta']
      for event in events
      if event['type'] == 'TEXT_MESSAGE_CONTENT'
  )


def _snapshot(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
  snapshots = [e for e in events if e['type'] == 'MESSAGES_SNAPSHOT']
  assert len(snapshots) == 1, [e['type'] for e in events]
  return snapshots[0]['messages']


def _without(events: list[dict[str, Any]], event_type: str) -> str:
  return json.dumps([e for e in events if e['type'] != event_type])


def _said(messages: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
  """Who said what (or whose run it is), with tool calls by name and arguments."""
  return [
      (
          m['role'],
          m.get('name') or ('sub-agent' if m.get('subagentRunId') else None),
          m.get('content'),
          [
              (c['function']['name'], c['function']['arguments'])
              for c in m.get('toolCalls') or []
          ],
      )
      for m in messages
  ]


def _user_view_of_turns(turns: int) -> list[tuple[Any, ...]]:
  """What the user sees: per turn the classifier's run, with its tool by name
  (attributed to its sub-agent run), and one reply."""
  return [
      said
      for text in _TURNS[:turns]
      for said in (
          ('user', None, text, []),
          ('assistant', 'sub-agent', None, [('look_up_guest', '{}')]),
          ('tool', 'sub-agent', 'null', []),
          ('assistant', None, _ANSWER, []),
      )
  ]


async def _stored(service: InMemorySessionService) -> Session:
  listed = await service.list_sessions(app_name=_APP, user_id=_USER)
  assert len(listed.sessions) == 1, listed
  session = await service.get_session(
      app_name=_APP, user_id=_USER, session_id=listed.sessions[0].id
  )
  assert session is not None
  return session


def _assert_stored_whole(session: Session, turns: int) -> None:
  """The session holds every event in full, the internal ones marked so."""
  stored = session.model_dump_json()
  assert all(text in stored for text in _INTERNAL)
  said = [
      (event.author, event.is_user_facing, event.content.parts[0].text)
      for event in session.events
      if event.author != 'user'
      and not event.partial
      and event.content
      and event.content.parts[0].text
  ]
  assert said == [('classifier', False, _LABEL), ('booker', True, _ANSWER)] * (
      turns
  )


@_ROOTS
async def test_plain_ag_ui_adk_streams_internal_content_without_filter_mode(
    make_root,
):
  """With ag-ui-adk's default RunConfig the label is a live chat message."""
  agent = ADKAgent(
      adk_agent=make_root(),
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
  )
  async with _client(agent, add_adk_fastapi_endpoint) as client:
    raw_stream, events = await _run_turn(client, 0)

  assert _live_text(events) == _LABEL + _ANSWER
  assert all(text in raw_stream for text in _INTERNAL)


@_ROOTS
async def test_plain_ag_ui_adk_in_filter_mode_shows_internal_content_in_history(
    make_root,
):
  """Filter mode keeps internal content out of the live stream, not history."""
  service = InMemorySessionService()
  agent = ADKAgent(
      adk_agent=make_root(),
      app_name=_APP,
      user_id=_USER,
      session_service=service,
      run_config_factory=_filter_mode,
      emit_messages_snapshot=True,
  )
  async with _client(agent, add_adk_fastapi_endpoint) as client:
    _, events = await _run_turn(client, 0)
    raw_state, state_messages = await _agents_state(client)

  # The Runner's events hold no internal text or state; ag-ui-adk's own
  # STATE_SNAPSHOT, read from the session, holds the label.
  live = _without(
      [e for e in events if e['type'] != 'STATE_SNAPSHOT'], 'MESSAGES_SNAPSHOT'
  )
  assert not any(text in live for text in _INTERNAL)
  assert {'intent': _LABEL}.items() <= _state_sent(events)[-1].items()
  assert _live_text(events) == _ANSWER
  snapshot = _snapshot(events)
  assert ('assistant', 'classifier', _LABEL, []) in _said(snapshot)
  assert all(text in json.dumps(snapshot) for text in _INTERNAL)
  assert ('assistant', 'classifier', _LABEL, []) in _said(state_messages)
  assert all(text in raw_state for text in _INTERNAL)
  _assert_stored_whole(await _stored(service), turns=1)


@_ROOTS
async def test_adapter_keeps_internal_content_from_everything_sent(make_root):
  service = InMemorySessionService()
  agent = UserViewADKAgent(
      adk_agent=make_root(),
      app_name=_APP,
      user_id=_USER,
      session_service=service,
      # The adapter puts the app's own RunConfig in filter mode.
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )
  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    for turn in range(len(_TURNS)):
      raw_stream, events = await _run_turn(client, turn)
      raw_state, state_messages = await _agents_state(client)

      for text in _INTERNAL:
        assert text not in raw_stream
        assert text not in raw_state
      assert _live_text(events) == _ANSWER
      assert _said(_snapshot(events)) == _user_view_of_turns(turn + 1)
      assert state_messages == _snapshot(events)

  stored = await _stored(service)
  _assert_stored_whole(stored, turns=len(_TURNS))
  # What the client was sent is the user's messages of the stored session,
  # each user message under the id the client gave it.
  assert [
      (m['id'], m['content']) for m in state_messages if m['role'] == 'user'
  ] == [(f'user-{i}', text) for i, text in enumerate(_TURNS)]
  # The classifier's work is its sub-agent run's message, not the turn's.
  assert [
      m.get('content')
      for m in state_messages
      if m['role'] != 'tool' and not m.get('subagentRunId')
  ] == [
      ''.join(part.text or '' for part in m.parts if part.type == 'text')
      for m in user_messages(stored.events)
  ]


@_ROOTS
async def test_adapter_sends_client_state_and_the_keys_the_app_names(make_root):
  service = InMemorySessionService()

  def agent(**kwargs: Any) -> UserViewADKAgent:
    return UserViewADKAgent(
        adk_agent=make_root(),
        app_name=_APP,
        user_id=_USER,
        session_service=service,
        run_config_factory=_streaming,
        **kwargs,
    )

  async with _client(agent(), add_user_view_fastapi_endpoint) as client:
    _, events = await _run_turn(client, 0, state={'party': 2})
    body = await _agents_state_body(client)
  # The client's own key comes back; the classifier's label does not.
  assert _app_state(_state_sent(events)[-1]) == {'party': 2}
  assert _app_state(body['state']) == {'party': 2}
  assert (await _stored(service)).state['intent'] == _LABEL

  async with _client(
      agent(client_state_keys=['intent']), add_user_view_fastapi_endpoint
  ) as client:
    _, events = await _run_turn(client, 1)
    body = await _agents_state_body(client)
  assert {'intent': _LABEL} in [
      {op['path'].lstrip('/'): op['value']}
      for event in events
      if event['type'] == 'STATE_DELTA'
      for op in event['delta']
  ]
  assert _app_state(_state_sent(events)[-1]) == {
      'party': 2,
      'intent': _LABEL,
  }
  assert _app_state(body['state']) == {'party': 2, 'intent': _LABEL}
  # Naming a key shows its value, never the agent's text.
  assert ('assistant', 'classifier', _LABEL, []) not in _said(body['messages'])


def test_adapter_endpoint_refuses_a_plain_agent():
  agent = ADKAgent(
      adk_agent=_sequence(),
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
  )
  with pytest.raises(TypeError, match='UserViewADKAgent'):
    add_user_view_fastapi_endpoint(FastAPI(), agent, '/')


@pytest.mark.parametrize(
    'first_import',
    ['ag_ui_adk', 'google.adk.integrations.ag_ui_user_view'],
)
def test_a_fresh_interpreter_imports_ag_ui_adk_first(first_import, tmp_path):
  """Apps import ag_ui_adk before google.adk (isort orders them so)."""
  result = subprocess.run(
      [sys.executable, '-c', f'import {first_import}'],
      cwd=tmp_path,
      capture_output=True,
      text=True,
      timeout=120,
      check=False,
  )
  assert result.returncode == 0, result.stderr


def test_google_adk_does_not_import_ag_ui_adk(tmp_path):
  code = (
      'import sys\n'
      'import google.adk, google.adk.agents.llm_agent, google.adk.runners\n'
      'import google.adk.integrations\n'
      "assert 'ag_ui_adk' not in sys.modules, 'ag_ui_adk was imported'\n"
  )
  result = subprocess.run(
      [sys.executable, '-c', code],
      cwd=tmp_path,
      capture_output=True,
      text=True,
      timeout=120,
      check=False,
  )
  assert result.returncode == 0, result.stderr


_FOUND = 'found-okapi-6610'
"""What an agent run as a tool answers and writes to state['found']."""


def _desk_reply(llm_request: LlmRequest) -> types.Part:
  # Asks its researcher tool, then answers.
  last = llm_request.contents[-1]
  if any(part.function_response for part in last.parts or []):
    return types.Part(text=_ANSWER)
  return types.Part(
      function_call=types.FunctionCall(
          name='researcher', args={'request': 'a table'}
      )
  )


async def test_adapter_keeps_an_agent_tools_state_from_the_client():
  researcher = LlmAgent(
      name='researcher',
      model=ScriptedLlm(script=[lambda _: types.Part(text=_FOUND)]),
      output_key='found',
  )
  desk = LlmAgent(
      name='desk',
      model=ScriptedLlm(script=[_desk_reply]),
      tools=[AgentTool(agent=researcher)],
  )
  service = InMemorySessionService()
  agent = UserViewADKAgent(
      adk_agent=desk,
      app_name=_APP,
      user_id=_USER,
      session_service=service,
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )

  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    raw_stream, events = await _run_turn(client, 0, state={'party': 2})
    raw_state, _ = await _agents_state(client)
    body = await _agents_state_body(client)

  # AgentTool forwards the researcher's output_key into the desk's
  # function response: no STATE_DELTA, snapshot or read carries it.
  assert _live_text(events) == _ANSWER
  assert _FOUND not in raw_stream
  assert _FOUND not in raw_state
  assert _app_state(_state_sent(events)[-1]) == {'party': 2}
  assert _app_state(body['state']) == {'party': 2}
  assert (await _stored(service)).state['found'] == _FOUND


_QUERY = 'quokka habitat'
_HIT = 'hit-bilby-2290'


def _research_desk() -> LlmAgent:
  """A desk whose researcher (an AgentTool, shown in full) searches."""

  def search(query: str) -> dict[str, Any]:
    """Searches the web."""
    return {'hits': [_HIT], 'query': query}

  def researcher_reply(llm_request: LlmRequest) -> types.Part:
    last = llm_request.contents[-1]
    if any(part.function_response for part in last.parts or []):
      return types.Part(text=_FOUND)
    return types.Part(
        function_call=types.FunctionCall(name='search', args={'query': _QUERY})
    )

  search_tool = FunctionTool(search)
  search_tool.user_visibility = 'full'
  researcher_tool = AgentTool(
      agent=LlmAgent(
          name='researcher',
          model=ScriptedLlm(script=[researcher_reply]),
          tools=[search_tool],
      )
  )
  researcher_tool.user_visibility = 'full'
  return LlmAgent(
      name='desk',
      model=ScriptedLlm(script=[_desk_reply]),
      tools=[researcher_tool],
  )


@pytest.mark.parametrize('nested_progress', ['loud', None, 3])
def test_adapter_refuses_an_unknown_nested_progress(nested_progress):
  with pytest.raises(ValueError, match='nested_progress'):
    UserViewADKAgent(
        adk_agent=_research_desk(),
        app_name=_APP,
        user_id=_USER,
        session_service=InMemorySessionService(),
        nested_progress=nested_progress,
    )


@pytest.mark.parametrize('nested_progress', ['hidden', 'minimal', 'full'])
async def test_adapter_sends_an_agent_tools_run_at_the_level_it_is_set_to(
    nested_progress,
):
  agent = UserViewADKAgent(
      adk_agent=_research_desk(),
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
      nested_progress=nested_progress,
  )
  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    raw_stream, events = await _run_turn(client, 0)
    _, state_messages = await _agents_state(client)

  history = _snapshot(events)
  assert state_messages == history
  # The researcher's call is its run, never a tool card of the desk's reply,
  # and its reply reaches the user only through the desk's answer.
  assert _FOUND not in raw_stream
  reply = [
      m
      for m in history
      if m['role'] == 'assistant' and 'subagentRunId' not in m
  ]
  assert [(m['content'], m.get('toolCalls')) for m in reply] == [
      (_ANSWER, None)
  ]
  started = [e for e in events if e['type'] == 'SUBAGENT_STARTED']
  work = [m for m in history if m.get('subagentRunId')]
  if nested_progress == 'hidden':
    assert not started and not work
    assert 'researcher' not in raw_stream and 'search' not in raw_stream
    return
  (run_id,) = {e['subagentRunId'] for e in started}
  assert [e['type'] for e in events if e.get('subagentRunId') == run_id] == [
      'SUBAGENT_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'SUBAGENT_FINISHED',
  ]
  full = nested_progress == 'full'
  args = json.dumps({'query': _QUERY}, separators=(',', ':')) if full else '{}'
  result = json.dumps({'hits': [_HIT], 'query': _QUERY}) if full else 'null'
  assert [(m['role'], m.get('toolCalls'), m.get('content')) for m in work] == [
      (
          'assistant',
          [{
              'id': work[1]['toolCallId'],
              'type': 'function',
              'function': {'name': 'search', 'arguments': args},
          }],
          None,
      ),
      ('tool', None, result),
  ]
  assert (_HIT in raw_stream) == full


async def test_adapter_sends_a_single_turn_sub_agents_run_as_a_sub_agent():
  """A sub-agent run on the tool's branch is attributed as an agent tool is."""

  def check_dates(when: str) -> dict[str, str]:
    """Checks the dates."""
    return {'free': when}

  def checker_reply(llm_request: LlmRequest) -> types.Part:
    last = llm_request.contents[-1]
    if any(part.function_response for part in last.parts or []):
      return types.Part(text=_FOUND)
    return types.Part(
        function_call=types.FunctionCall(
            name='check_dates', args={'when': 'tomorrow'}
        )
    )

  def desk_reply(llm_request: LlmRequest) -> types.Part:
    last = llm_request.contents[-1]
    if any(part.function_response for part in last.parts or []):
      return types.Part(text=_ANSWER)
    return types.Part(
        function_call=types.FunctionCall(
            name='checker', args={'request': 'tomorrow?'}
        )
    )

  checker = LlmAgent(
      name='checker',
      description='Checks dates.',
      mode='single_turn',
      model=ScriptedLlm(script=[checker_reply]),
      tools=[check_dates],
  )
  desk = LlmAgent(
      name='desk', model=ScriptedLlm(script=[desk_reply]), sub_agents=[checker]
  )
  agent = UserViewADKAgent(
      adk_agent=desk,
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )
  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    raw_stream, events = await _run_turn(client, 0)

  assert _FOUND not in raw_stream
  (started,) = [e for e in events if e['type'] == 'SUBAGENT_STARTED']
  run_id = started['subagentRunId']
  assert started['name'] == 'checker'
  assert [
      (e['type'], e.get('toolCallName'))
      for e in events
      if e.get('subagentRunId') == run_id
  ] == [
      ('SUBAGENT_STARTED', None),
      ('TOOL_CALL_START', 'check_dates'),
      ('TOOL_CALL_ARGS', None),
      ('TOOL_CALL_END', None),
      ('TOOL_CALL_RESULT', None),
      ('SUBAGENT_FINISHED', None),
  ]
  assert [
      (m['role'], m.get('subagentRunId'), m.get('content'))
      for m in _snapshot(events)
  ] == [
      ('user', None, _TURNS[0]),
      ('assistant', run_id, None),
      ('tool', run_id, 'null'),
      ('assistant', None, _ANSWER),
  ]


@_ROOTS
async def test_an_internal_agents_work_arrives_as_its_sub_agent_run(make_root):
  agent = UserViewADKAgent(
      adk_agent=make_root(),
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )
  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    _, events = await _run_turn(client, 0)

  started = [e for e in events if e['type'] == 'SUBAGENT_STARTED']
  assert [(e['name'], e.get('parentToolCallId')) for e in started] == [
      ('classifier', None)
  ]
  run_id = started[0]['subagentRunId']
  attributed = [e['type'] for e in events if e.get('subagentRunId') == run_id]
  assert attributed == [
      'SUBAGENT_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'SUBAGENT_FINISHED',
  ]
  # The classifier's tool is its run's step, not a call of the answer.
  assert [
      e['toolCallName']
      for e in events
      if e['type'] == 'TOOL_CALL_START' and not e.get('subagentRunId')
  ] == []
  finished_at = next(
      i for i, e in enumerate(events) if e['type'] == 'SUBAGENT_FINISHED'
  )
  answer_at = next(
      i for i, e in enumerate(events) if e['type'] == 'TEXT_MESSAGE_CONTENT'
  )
  assert finished_at < answer_at


async def test_nodes_run_with_run_node_arrive_as_sub_agent_runs():
  from google.adk import Context
  from google.adk.events.event import Event as AdkEvent
  from google.adk.workflow import node

  writer = LlmAgent(
      name='headline_writer',
      model=ScriptedLlm(script=[lambda request: types.Part(text='HEADLINE-7')]),
  )

  @node(rerun_on_resume=True)
  async def orchestrator(ctx: Context, node_input: Any):
    del node_input
    headlines = [
        await ctx.run_node(writer, node_input=topic, use_sub_branch=True)
        for topic in ('quokkas', 'wombats')
    ]
    yield AdkEvent(message=f'{len(headlines)} headlines written.')

  agent = UserViewADKAgent(
      adk_agent=Workflow(name='fan_out', edges=[(START, orchestrator)]),
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )
  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    raw_stream, events = await _run_turn(client, 0)

  started = [e for e in events if e['type'] == 'SUBAGENT_STARTED']
  assert [e['name'] for e in started] == ['headline_writer'] * 2
  assert len({e['subagentRunId'] for e in started}) == 2
  assert [e['type'] for e in events].count('SUBAGENT_FINISHED') == 2
  assert 'HEADLINE-7' not in raw_stream
  assert _live_text(events) == '2 headlines written.'


_OUTAGE = 'search-outage-db7731'
"""The text of the exception the failing researcher raises."""


class _RaisingLlm(BaseLlm):
  """A model that raises, its message quoting what it worked on."""

  model: str = 'raising'

  async def generate_content_async(self, llm_request, stream=False):
    raise RuntimeError(_OUTAGE)
    yield  # pylint: disable=unreachable


async def test_a_failed_agent_tools_run_reads_back_as_the_live_stream_drew_it():
  desk = LlmAgent(
      name='desk',
      model=ScriptedLlm(script=[_desk_reply]),
      tools=[AgentTool(agent=LlmAgent(name='researcher', model=_RaisingLlm()))],
  )
  agent = UserViewADKAgent(
      adk_agent=desk,
      app_name=_APP,
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      emit_messages_snapshot=True,
  )

  async with _client(agent, add_user_view_fastapi_endpoint) as client:
    response = await client.post(
        '/',
        json={
            'threadId': _THREAD,
            'runId': 'run-0',
            'state': {},
            'messages': [
                {'id': 'user-0', 'role': 'user', 'content': _TURNS[0]}
            ],
            'tools': [],
            'context': [],
            'forwardedProps': {},
        },
        headers={'Accept': 'text/event-stream'},
    )
    raw_state, state_messages = await _agents_state(client)

  events = [
      json.loads(line[len('data:') :])
      for line in response.text.splitlines()
      if line.startswith('data:')
  ]
  (failed,) = [e for e in events if e['type'] == 'SUBAGENT_ERROR']
  run_id = failed['subagentRunId']
  # Live: the run ended in error, and the run's error is a code or a generic
  # sentence, never the exception's text.
  assert _OUTAGE not in response.text
  # The history: the user's message and the run's message with its error,
  # not the exception as the assistant's text.
  assert _OUTAGE not in raw_state
  assert [
      (m['role'], m.get('subagentRunId'), m.get('content'))
      for m in state_messages
  ] == [('user', None, _TURNS[0]), ('assistant', run_id, None)]
  assert state_messages[1]['metadata'] == {
      'status': 'error',
      'error': failed['message'],
  }


def test_from_app_takes_the_adapters_own_options():
  from google.adk.apps.app import App
  from google.adk.apps.app import ResumabilityConfig

  agent = UserViewADKAgent.from_app(
      App(
          name=_APP,
          root_agent=_research_desk(),
          resumability_config=ResumabilityConfig(is_resumable=True),
      ),
      user_id=_USER,
      session_service=InMemorySessionService(),
      run_config_factory=_streaming,
      client_state_keys=['cart'],
      nested_progress='full',
  )

  assert isinstance(agent, UserViewADKAgent)
  assert (agent.client_state_keys, agent.nested_progress) == (
      ('cart',),
      'full',
  )
  run_config = agent._run_config_factory(None)
  assert (
      run_config.visibility_mode,
      run_config.client_state_keys,
      run_config.nested_progress,
  ) == ('filter', ['cart'], 'full')
  with pytest.raises(ValueError, match='nested_progress'):
    UserViewADKAgent.from_app(
        App(name=_APP, root_agent=_research_desk()),
        user_id=_USER,
        nested_progress='loud',
    )
