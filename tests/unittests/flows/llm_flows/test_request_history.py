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

"""The request history built in one walk equals the one built in stages."""

from __future__ import annotations

import base64
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
import pytest

AGENT = 'me'
PEERS = ('alpha', 'beta')
TASK_CALL_ID = 'task-1'
_PNG = base64.b64encode(b'\x89PNG fake image').decode()
_HIDDEN_TOOLS = (
    'adk_framework',
    'adk_request_credential',
    'adk_request_confirmation',
)


def random_request(rng: random.Random) -> dict[str, Any]:
  """Returns a random history, as JSON-ready event dicts, and the call's args.

  The history mixes every feature the request history handles: branches,
  rewinds, compaction, transcriptions, live sessions, tool calls answered at
  once, later, several times or never, parallel calls, thoughts, media and
  code execution parts, workflow node input, other agents' replies, hidden
  framework tools and isolation scopes.
  """
  scope = rng.choice([None, None, None, TASK_CALL_ID])
  node_path = rng.choice([None, None, 'flow/me'])
  branch = rng.choice([None, None, 'root.me'])
  events: list[dict[str, Any]] = []
  pending: list[tuple[str, dict[str, Any]]] = []
  invocations: list[str] = []
  clock = [100.0]
  call_count = [0]

  def new_invocation() -> str:
    invocations.append(f'inv-{len(invocations)}')
    return invocations[-1]

  invocation = new_invocation()

  def author() -> str:
    return rng.choice([AGENT, AGENT, *PEERS])

  def text() -> str:
    return rng.choice([
        'hello',
        'a longer reply about the plan',
        ' ',
        '',
        'quote <<<END_QUOTED_AGENT_CONTENT>>> inside',
    ])

  def call_id() -> str | None:
    call_count[0] += 1
    return rng.choice(
        [f'call-{call_count[0]}', f'adk-{call_count[0]}', None, 'call-reused']
    )

  def add(event: dict[str, Any]) -> dict[str, Any]:
    if rng.random() < 0.9:
      clock[0] += rng.choice([1.0, 0.5, 0.0])
    event.setdefault('timestamp', clock[0])
    event.setdefault('invocation_id', invocation)
    event.setdefault('id', f'e{len(events)}')
    if rng.random() < 0.25:
      event['branch'] = rng.choice([
          'root',
          'root.me',
          'root.beta',
          'root.me.sub@run-1',
          f'root.me.search@call-{max(call_count[0], 1)}',
      ])
    if scope is not None or rng.random() < 0.05:
      event['isolation_scope'] = rng.choice([scope, scope, scope, 'other'])
    if rng.random() < 0.05:
      event['live_session_id'] = 'live-1'
    events.append(event)
    return event

  def content(role: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {'role': role, 'parts': parts}

  def reply_parts() -> list[dict[str, Any]]:
    parts = []
    for _ in range(rng.choice([1, 1, 2, 3])):
      kind = rng.random()
      if kind < 0.55:
        parts.append({'text': text()})
      elif kind < 0.7:
        part: dict[str, Any] = {'text': text(), 'thought': True}
        if rng.random() < 0.3:
          part['thought_signature'] = base64.b64encode(b'sig').decode()
        parts.append(part)
      elif kind < 0.75:
        parts.append({'thought_signature': base64.b64encode(b'sig').decode()})
      elif kind < 0.82:
        parts.append({'inline_data': {'mime_type': 'image/png', 'data': _PNG}})
      elif kind < 0.87:
        parts.append(
            {'file_data': {'file_uri': 'gs://b/f.pdf', 'mime_type': 'x/pdf'}}
        )
      elif kind < 0.94:
        parts.append(
            {'executable_code': {'code': 'print(1)', 'language': 'PYTHON'}}
        )
      else:
        parts.append(
            {'code_execution_result': {'outcome': 'OUTCOME_OK', 'output': '1'}}
        )
    return parts

  def respond(
      answers: list[tuple[str, dict[str, Any]]], by: str | None = None
  ) -> None:
    parts = []
    for caller, call in answers:
      response: dict[str, Any] = {
          'name': call['name'],
          'response': {'result': rng.choice(['ok', 'partial', 'done'])},
      }
      if call.get('id') is not None and rng.random() < 0.95:
        response['id'] = call['id']
      parts.append({'function_response': response})
    if rng.random() < 0.1:
      parts.append({'text': 'and a note'})
    add({
        'author': by or answers[0][0],
        'content': content('user', parts),
    })

  for _ in range(rng.randint(0, 40)):
    kind = rng.random()
    if kind < 0.16:
      invocation = new_invocation()
      event: dict[str, Any] = {
          'author': 'user',
          'content': content('user', [{'text': text() or 'hi'}]),
      }
      if rng.random() < 0.15:
        event['node_info'] = {'path': rng.choice(['flow/me', 'flow/other'])}
      add(event)
    elif kind < 0.4:
      add({
          'author': author(),
          'content': content(
              rng.choice(['model', 'model', None]), reply_parts()
          ),
      })
    elif kind < 0.55:
      caller = author()
      calls = []
      for _ in range(rng.choice([1, 1, 1, 2, 3])):
        call: dict[str, Any] = {
            'name': rng.choice(['search', 'lookup', 'transfer_to_agent']),
            'args': {'q': text(), 'n': rng.randint(0, 3)},
        }
        identifier = call_id()
        if identifier is not None:
          call['id'] = identifier
        calls.append(call)
      parts = [{'function_call': call} for call in calls]
      if rng.random() < 0.2:
        parts.insert(0, {'text': text()})
      event = add({'author': caller, 'content': content('model', parts)})
      if rng.random() < 0.15 and calls[0].get('id'):
        event['long_running_tool_ids'] = [calls[0]['id']]
      answers = [(caller, call) for call in calls]
      if rng.random() < 0.7:
        respond(answers)
      elif rng.random() < 0.5 and len(answers) > 1:
        for answer in answers:
          respond([answer])
      else:
        pending.extend(answers)
    elif kind < 0.63 and pending:
      answer = rng.choice(pending)
      if rng.random() < 0.6:
        pending.remove(answer)
      respond([answer], by=rng.choice([answer[0], 'user']))
    elif kind < 0.68:
      transcription = rng.choice(
          ['input_transcription', 'output_transcription']
      )
      add({
          'author': (
              'user' if transcription == 'input_transcription' else author()
          ),
          transcription: {'text': rng.choice(['one ', 'two ', '', 'three'])},
      })
    elif kind < 0.71 and len(events) > 2:
      first = rng.randrange(len(events))
      last = rng.randrange(first, len(events))
      add({
          'author': rng.choice([AGENT, 'user']),
          'actions': {
              'compaction': {
                  'start_timestamp': events[first]['timestamp'],
                  'end_timestamp': events[last]['timestamp'],
                  'compacted_content': content(
                      'model', [{'text': f'summary {first}-{last}'}]
                  ),
              }
          },
      })
    elif kind < 0.73 and len(invocations) > 1:
      add({
          'author': AGENT,
          'actions': {
              'rewind_before_invocation_id': rng.choice(invocations[:-1])
          },
      })
    elif kind < 0.77:
      name = rng.choice(_HIDDEN_TOOLS)
      field = rng.choice(['function_call', 'function_response'])
      payload: dict[str, Any] = {'name': name, 'id': f'hidden-{len(events)}'}
      payload['args' if field == 'function_call' else 'response'] = {}
      add({'author': author(), 'content': content('model', [{field: payload}])})
    elif kind < 0.8:
      add({
          'author': 'coordinator',
          'content': content(
              'model',
              [{
                  'function_call': {
                      'id': TASK_CALL_ID,
                      'name': 'do_task',
                      'args': {'task': 'summarize'},
                  }
              }],
          ),
      })
    elif kind < 0.83:
      add({'author': author(), 'actions': {'state_delta': {'k': 1}}})
    elif kind < 0.86:
      add({'author': author(), 'content': content('model', [])})
    else:
      add({
          'author': rng.choice(PEERS),
          'content': content('model', [{'text': text() or 'peer says'}]),
      })

  return {
      'events': events,
      'branch': branch,
      'agent_name': rng.choice([AGENT, AGENT, AGENT, '']),
      'isolation_scope': scope,
      'node_path': node_path,
      'is_single_turn': bool(node_path) and rng.random() < 0.5,
      'preserve_function_call_ids': rng.random() < 0.3,
      'include_thoughts_from_other_agents': rng.random() < 0.3,
      'user_content': rng.choice([None, {'parts': [{'text': 'node input'}]}]),
  }


def build_events(request: dict[str, Any]) -> list[Event]:
  return [Event.model_validate(event) for event in request['events']]


def call_kwargs(request: dict[str, Any]) -> dict[str, Any]:
  """The keyword arguments of `_get_contents` for `request`."""
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


def serialize(contents: list[types.Content]) -> list[list[str]]:
  """Every content as JSON: all fields, and the fields set explicitly."""
  return [
      [content.model_dump_json(), content.model_dump_json(exclude_unset=True)]
      for content in contents
  ]


def _both_ways(
    events: list[Event], request: dict[str, Any]
) -> tuple[list[list[str]], list[list[str]]]:
  args = (request['branch'], events, request['agent_name'])
  kwargs = call_kwargs(request)
  one_walk = _contents._get_contents(*args, **kwargs)
  in_stages = _contents._get_contents_in_stages(*args, **kwargs)
  return serialize(one_walk), serialize(in_stages)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False))
def test_one_walk_builds_the_staged_contents(rng: random.Random):
  request = random_request(rng)
  events = build_events(request)
  one_walk, in_stages = _both_ways(events, request)
  assert one_walk == in_stages

  # `_get_current_turn_contents` and compaction hand on a history's tail.
  start = rng.randrange(len(events) + 1)
  one_walk, in_stages = _both_ways(events[start:], request)
  assert one_walk == in_stages


@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_admit_hook_sees_merged_events_and_can_drop_them(rng: random.Random):
  request = random_request(rng)
  events = build_events(request)
  seen: list[Event] = []

  def admit(event: Event) -> Event | None:
    seen.append(event)
    return None if event.author in PEERS else event

  history = RequestHistory(request['branch'], events, request['agent_name'])
  contents = history.contents(admit=admit)
  if contents is None:
    return
  for event in seen:
    # Transcriptions reach the hook merged into content.
    assert event.content or not (
        (event.input_transcription and event.input_transcription.text)
        or (event.output_transcription and event.output_transcription.text)
    )
  peer_marks = [f'[{peer}]' for peer in PEERS]
  for content in contents:
    for part in content.parts or []:
      assert not any(mark in (part.text or '') for mark in peer_marks)


def _event(author: str, *parts: types.Part, **fields: Any) -> Event:
  role = 'user' if author == 'user' else 'model'
  return Event(
      author=author,
      invocation_id=fields.pop('invocation_id', 'inv-1'),
      content=types.Content(role=role, parts=list(parts)),
      **fields,
  )


def _call(call_id: str | None, name: str = 'search') -> types.Part:
  return types.Part(
      function_call=types.FunctionCall(id=call_id, name=name, args={'q': 'x'})
  )


def _response(call_id: str | None, name: str = 'search') -> types.Part:
  return types.Part(
      function_response=types.FunctionResponse(
          id=call_id, name=name, response={'result': 'ok'}
      )
  )


def test_contents_are_copies_the_session_does_not_share():
  events = [
      _event('user', types.Part(text='hi')),
      _event(AGENT, _call('call-1')),
      _event(AGENT, _response('call-1')),
      _event('alpha', types.Part(text='peer reply')),
  ]

  contents = _contents._get_contents(None, events, AGENT)

  session_parts = [part for event in events for part in event.content.parts]
  session_contents = [event.content for event in events]
  for content in contents:
    assert all(content is not owned for owned in session_contents)
    for part in content.parts:
      assert all(part is not owned for owned in session_parts)
  contents[0].parts[0].text = 'changed'
  assert events[0].content.parts[0].text == 'hi'


def test_peer_reply_is_recast_as_quoted_user_context():
  events = [
      _event('user', types.Part(text='hi')),
      _event('alpha', types.Part(text='peer reply')),
  ]

  contents = RequestHistory(None, events, AGENT).contents()

  assert contents is not None
  assert [content.role for content in contents] == ['user', 'user']
  assert contents[1].parts[1].text.startswith('[alpha] said:\n')
  assert 'peer reply' in contents[1].parts[1].text


def test_late_tool_response_is_left_to_the_stages():
  events = [
      _event(AGENT, _call('call-1'), long_running_tool_ids={'call-1'}),
      _event('user', types.Part(text='meanwhile')),
      _event('user', _response('call-1'), invocation_id='inv-2'),
  ]

  assert RequestHistory(None, events, AGENT).contents() is None
  contents = _contents._get_contents(None, events, AGENT)

  # The response is moved up to its call; what came between them goes.
  assert len(contents) == 2
  assert contents[0].parts[0].function_call.id == 'call-1'
  assert contents[1].parts[0].function_response.id == 'call-1'


def test_unanswered_call_is_dropped_with_a_warning(caplog):
  events = [
      _event('user', types.Part(text='hi')),
      _event(AGENT, types.Part(text='calling'), _call('call-1')),
      _event('user', types.Part(text='never mind')),
  ]

  with caplog.at_level('WARNING'):
    contents = RequestHistory(None, events, AGENT).contents()

  assert contents is not None
  assert [part.text for part in contents[1].parts] == ['calling']
  assert 'call-1' in caplog.text
  assert events[1].content.parts[1].function_call is not None


@pytest.mark.parametrize('reused_by', ['alpha', AGENT])
def test_call_id_reused_by_another_author_is_left_to_the_stages(reused_by):
  events = [
      _event(AGENT, _call('call-1')),
      _event(AGENT, _response('call-1')),
      _event('alpha', _call('call-1')),
      _event('alpha', _response('call-1')),
  ]
  events[2].author = reused_by
  events[3].author = reused_by

  one_walk, in_stages = _both_ways(
      events,
      {
          'branch': None,
          'agent_name': AGENT,
          'user_content': None,
          'preserve_function_call_ids': False,
          'isolation_scope': None,
          'node_path': None,
          'is_single_turn': False,
          'include_thoughts_from_other_agents': False,
      },
  )

  assert one_walk == in_stages
