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

"""The request history built in two walks equals the one built in stages."""

from __future__ import annotations

import random
from typing import Any

from google.adk.events.event import Event
from google.adk.flows.llm_flows.context import _contents
from google.adk.flows.llm_flows.context._request_history import RequestHistory
from google.genai import types
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st

AGENT = 'me'
PEERS = ('alpha', 'beta')
TASK_CALL_ID = 'task-1'
_SIGNATURE = 'c2ln'  # base64 of b'sig'
_TEXTS = (
    'hello',
    'a longer reply',
    ' ',
    '',
    'x <<<END_QUOTED_AGENT_CONTENT>>>',
)
_MEDIA_PARTS = (
    {'thought_signature': _SIGNATURE},
    {'inline_data': {'mime_type': 'image/png', 'data': 'iVBORw=='}},
    {'file_data': {'file_uri': 'gs://b/f.pdf', 'mime_type': 'x/pdf'}},
    {'executable_code': {'code': 'print(1)', 'language': 'PYTHON'}},
    {'code_execution_result': {'outcome': 'OUTCOME_OK', 'output': '1'}},
)
_HIDDEN_TOOLS = (
    'adk_framework',
    'adk_request_credential',
    'adk_request_confirmation',
)
_BRANCHES = ('root', 'root.me', 'root.beta', 'root.me.sub@run-1')


def random_request(rng: random.Random) -> dict[str, Any]:
  """Returns a random history, as JSON-ready events, and the call's arguments.

  The history mixes what the request history handles: branches, rewinds,
  compaction, transcriptions, live sessions, tool calls answered at once,
  later, several times or never, parallel calls, thoughts, media and code
  execution parts, workflow node input, other agents' replies, hidden
  framework tools and isolation scopes.
  """
  scope = rng.choice([None, None, None, TASK_CALL_ID])
  node_path = rng.choice([None, None, 'flow/me'])
  events: list[dict[str, Any]] = []
  pending: list[tuple[str, dict[str, Any]]] = []
  invocations = ['inv-0']
  clock = 100.0

  def add(author: str, **event: Any) -> None:
    nonlocal clock
    clock += rng.choice([1.0, 0.5, 0.0])
    event.update(
        author=author,
        timestamp=clock,
        invocation_id=invocations[-1],
        id=f'e{len(events)}',
    )
    if rng.random() < 0.25:
      event['branch'] = rng.choice(
          [*_BRANCHES, f'root.me.search@call-{len(events) - 1}']
      )
    if scope or rng.random() < 0.05:
      event['isolation_scope'] = rng.choice([scope, scope, 'other'])
    if rng.random() < 0.05:
      event['live_session_id'] = 'live-1'
    events.append(event)

  def content(role: str | None, *parts: dict[str, Any]) -> dict[str, Any]:
    return {'role': role, 'parts': list(parts)}

  def reply_part() -> dict[str, Any]:
    kind = rng.random()
    if kind < 0.5:
      return {'text': rng.choice(_TEXTS)}
    if kind < 0.7:
      return {'text': rng.choice(_TEXTS), 'thought': True}
    return dict(rng.choice(_MEDIA_PARTS))

  def respond(answers: list[tuple[str, dict[str, Any]]], by: str) -> None:
    parts = []
    for _, call in answers:
      response = {'name': call['name'], 'response': {'result': 'ok'}}
      if call.get('id') and rng.random() < 0.95:
        response['id'] = call['id']
      parts.append({'function_response': response})
    if rng.random() < 0.1:
      parts.append({'text': 'and a note'})
    add(by, content=content('user', *parts))

  for _ in range(rng.randint(0, 40)):
    kind = rng.random()
    author = rng.choice([AGENT, AGENT, *PEERS])
    if kind < 0.16:
      invocations.append(f'inv-{len(invocations)}')
      extra = {}
      if rng.random() < 0.15:
        extra['node_info'] = {'path': rng.choice(['flow/me', 'flow/other'])}
      add('user', content=content('user', {'text': 'hi'}), **extra)
    elif kind < 0.4:
      parts = [reply_part() for _ in range(rng.choice([1, 1, 2, 3]))]
      add(author, content=content(rng.choice(['model', None]), *parts))
    elif kind < 0.55:
      calls = []
      for _ in range(rng.choice([1, 1, 1, 2, 3])):
        call: dict[str, Any] = {
            'name': rng.choice(['search', 'lookup', 'transfer_to_agent']),
            'args': {'q': rng.choice(_TEXTS), 'n': rng.randint(0, 3)},
        }
        call_id = rng.choice(
            [f'call-{len(events)}', f'adk-{len(events)}', None, 'call-reused']
        )
        if call_id:
          call['id'] = call_id + (f'-{len(calls)}' if len(calls) else '')
        calls.append(call)
      parts = [{'function_call': call} for call in calls]
      if rng.random() < 0.2:
        parts.insert(0, {'text': 'calling'})
      extra = {}
      if rng.random() < 0.15 and calls[0].get('id'):
        extra['long_running_tool_ids'] = [calls[0]['id']]
      add(author, content=content('model', *parts), **extra)
      answers = [(author, call) for call in calls]
      if rng.random() < 0.7:
        respond(answers, author)
      elif len(answers) > 1 and rng.random() < 0.5:
        for answer in answers:
          respond([answer], author)
      else:
        pending.extend(answers)
    elif kind < 0.63 and pending:
      answer = rng.choice(pending)
      if rng.random() < 0.6:
        pending.remove(answer)
      respond([answer], rng.choice([answer[0], 'user']))
    elif kind < 0.68:
      field = rng.choice(['input_transcription', 'output_transcription'])
      text = rng.choice(['one ', 'two ', '', 'three'])
      add('user' if field[0] == 'i' else author, **{field: {'text': text}})
    elif kind < 0.71 and events:
      first = rng.randrange(len(events))
      last = rng.randrange(first, len(events))
      compaction = {
          'start_timestamp': events[first]['timestamp'],
          'end_timestamp': events[last]['timestamp'],
          'compacted_content': content('model', {'text': f'summary {first}'}),
      }
      add(rng.choice([AGENT, 'user']), actions={'compaction': compaction})
    elif kind < 0.73:
      rewind = {'rewind_before_invocation_id': rng.choice(invocations)}
      add(AGENT, actions=rewind)
    elif kind < 0.77:
      field = rng.choice(['function_call', 'function_response'])
      payload = {'name': rng.choice(_HIDDEN_TOOLS), 'id': f'h{len(events)}'}
      add(author, content=content('model', {field: payload}))
    elif kind < 0.8:
      task = {'id': TASK_CALL_ID, 'name': 'task', 'args': {'task': 'sum'}}
      add('coordinator', content=content('model', {'function_call': task}))
    elif kind < 0.83:
      add(author, actions={'state_delta': {'k': 1}})
    elif kind < 0.86:
      add(author, content=content('model'))
    else:
      add(rng.choice(PEERS), content=content('model', {'text': 'peer says'}))

  return {
      'events': events,
      'branch': rng.choice([None, None, 'root.me']),
      'agent_name': rng.choice([AGENT, AGENT, AGENT, '']),
      'isolation_scope': scope,
      'node_path': node_path,
      'is_single_turn': bool(node_path) and rng.random() < 0.5,
      'preserve_function_call_ids': rng.random() < 0.3,
      'include_thoughts_from_other_agents': rng.random() < 0.3,
      'user_content': rng.choice([None, {'parts': [{'text': 'node input'}]}]),
  }


def _call_kwargs(request: dict[str, Any]) -> dict[str, Any]:
  user_content = request['user_content']
  return {
      'preserve_function_call_ids': request['preserve_function_call_ids'],
      'isolation_scope': request['isolation_scope'],
      'node_path': request['node_path'],
      'is_single_turn': request['is_single_turn'],
      'user_content': (
          types.Content.model_validate(user_content) if user_content else None
      ),
      'include_thoughts_from_other_agents': request[
          'include_thoughts_from_other_agents'
      ],
  }


def _serialize(contents: list[types.Content]) -> list[tuple[str, str]]:
  """Every content as JSON: with all fields, and with the fields set."""
  return [
      (content.model_dump_json(), content.model_dump_json(exclude_unset=True))
      for content in contents
  ]


def _assert_same_as_stages(events: list[Event], request: dict[str, Any]):
  args = (request['branch'], events, request['agent_name'])
  kwargs = _call_kwargs(request)
  assert _serialize(_contents._get_contents(*args, **kwargs)) == _serialize(
      _contents._get_contents_in_stages(*args, **kwargs)
  )


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False))
def test_contents_equal_the_staged_build(rng: random.Random):
  request = random_request(rng)
  events = [Event.model_validate(event) for event in request['events']]

  _assert_same_as_stages(events, request)
  # The current-turn path and compaction hand on a history's tail.
  _assert_same_as_stages(events[rng.randrange(len(events) + 1) :], request)


@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_admit_sees_merged_events_and_what_it_drops_is_gone(
    rng: random.Random,
):
  request = random_request(rng)
  events = [Event.model_validate(event) for event in request['events']]
  seen: list[Event] = []

  def admit(event: Event) -> Event | None:
    seen.append(event)
    return None if event.author in PEERS else event

  contents = RequestHistory(None, events, AGENT).contents(admit=admit)

  for event in seen:
    assert event.content or not (
        (event.input_transcription and event.input_transcription.text)
        or (event.output_transcription and event.output_transcription.text)
    )
  for content in contents or []:
    for part in content.parts or []:
      assert not any(f'[{peer}]' in (part.text or '') for peer in PEERS)


def _event(author: str, *parts: types.Part, **fields: Any) -> Event:
  role = 'user' if author == 'user' else 'model'
  return Event(
      author=author,
      invocation_id='inv-1',
      content=types.Content(role=role, parts=list(parts)),
      **fields,
  )


def _call(call_id: str) -> types.Part:
  return types.Part(
      function_call=types.FunctionCall(id=call_id, name='search', args={})
  )


def _response(call_id: str) -> types.Part:
  return types.Part(
      function_response=types.FunctionResponse(
          id=call_id, name='search', response={'result': 'ok'}
      )
  )


def test_contents_are_copies_and_peers_are_quoted():
  events = [
      _event('user', types.Part(text='hi')),
      _event(AGENT, _call('call-1')),
      _event(AGENT, _response('call-1')),
      _event('alpha', types.Part(text='peer reply')),
  ]

  contents = RequestHistory(None, events, AGENT).contents()

  assert contents is not None
  assert [content.role for content in contents] == [
      'user',
      'model',
      'model',
      'user',
  ]
  assert contents[3].parts[1].text.startswith('[alpha] said:\n')
  session_parts = [part for event in events for part in event.content.parts]
  for content in contents:
    assert all(content is not event.content for event in events)
    assert all(p is not part for p in content.parts for part in session_parts)


def test_late_tool_response_is_left_to_the_stages():
  events = [
      _event(AGENT, _call('call-1'), long_running_tool_ids={'call-1'}),
      _event('user', types.Part(text='meanwhile')),
      _event('user', _response('call-1')),
  ]

  assert RequestHistory(None, events, AGENT).contents() is None
  contents = _contents._get_contents(None, events, AGENT)

  # The response is moved up to its call; what came between them goes.
  assert [bool(content.parts[0].function_call) for content in contents] == [
      True,
      False,
  ]


def test_unanswered_call_is_dropped_with_a_warning(caplog):
  events = [
      _event(AGENT, types.Part(text='calling'), _call('call-1')),
      _event('user', types.Part(text='never mind')),
  ]

  contents = RequestHistory(None, events, AGENT).contents()

  assert contents is not None
  assert [part.text for part in contents[0].parts] == ['calling']
  assert (
      "Dropping function calls with no matching function response: ['call-1']"
      in caplog.text
  )
  assert events[0].content.parts[1].function_call is not None
