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

"""The request history equals 2.13.0's (``--record`` under 2.13.0 prints it)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any
from unittest import mock

from google.adk.events.event import Event
from google.adk.flows.llm_flows.context import _contents
from google.genai import types
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st

try:
  from google.adk.flows.llm_flows.context import _request_history
except ImportError:  # google-adk 2.13.0, under --record.
  _request_history = None

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


def _serialize(contents: list[types.Content]) -> list[tuple[str, str]]:
  """Every content as JSON: with all fields, and with the fields set."""
  return [
      (content.model_dump_json(), content.model_dump_json(exclude_unset=True))
      for content in contents
  ]


def _contents_of(
    request: dict[str, Any], events: list[Event]
) -> list[types.Content]:
  kwargs = dict(request)
  del kwargs['events'], kwargs['branch'], kwargs['agent_name']
  content = request['user_content']
  kwargs['user_content'] = content and types.Content.model_validate(content)
  args = (request['branch'], events, request['agent_name'])
  return _contents._get_contents(*args, **kwargs)


def request_digest(seed: int) -> str:
  """Digest of the contents (fields set) for `seed`'s history and a tail."""
  request = random_request(random.Random(seed))
  events = [Event.model_validate(event) for event in request['events']]
  tail = events[seed % (len(events) + 1) :]
  payload = json.dumps([
      [c.model_dump_json(exclude_unset=True) for c in contents]
      for contents in (
          _contents_of(request, events),
          _contents_of(request, tail),
      )
  ])
  return hashlib.sha256(payload.encode()).hexdigest()[:_DIGEST_LENGTH]


_DIGEST_LENGTH = 8
_SEEDS = 100
# `request_digest(seed)` for seeds 0 to 99 under pristine google-adk 2.13.0,
# recorded with `python test_request_history.py --record`.
_UPSTREAM_DIGESTS = (
    'a68309608fcd7e4637a0b4220851d10918a875a36f700971a86909eca80cdc6cd9a181ee'
    '60e36324883f86ddb356e7ed7979542ddf8bcefeb057024e35d29b29490a5aab32957530'
    'aaed6e69c88916a0b6350267754b8e31b3b5d8d9a6830960869ac9b3596d2adb1d3c3462'
    'a66c293974b5300baef418a94e464b87c18d10040152a5bdc9c97e7da6830960dcc5fbba'
    'fc50f4144f470b86f305f363b108a2fce8ee7a352808464de3082066c57cfd2a1055db59'
    '5328f56dd608f485f9224dec9d8e0e478fee63870837db296cb54a6abb0f6355aba9f71f'
    '8d7b2fa4450a9a3935747bf3b949b4d938a2f938bfcbfcbcd0761ff13bbc901d27e3bc5b'
    '54c0853195982f160c9157b70e7a12378755b3396f1c2dcd03497727c01d4df0ba4216b3'
    '69a150a72d712ce4cc7e50a85f6f814dbb497941a92b463dfae8e9d247f3011cdbd19c5a'
    '9996b35b3b374592aef83c379227d59a537409d92e466c003fd6e62489d70688fb848c57'
    'e29ef3148e1126dd84d7625b51950a6b7cac2c820558f5701dfc5567e13708b9dd8d0ef2'
    '20728867'
)


def test_contents_equal_those_of_2_13_0():
  digests = [request_digest(seed) for seed in range(_SEEDS)]
  recorded = [
      _UPSTREAM_DIGESTS[i : i + _DIGEST_LENGTH]
      for i in range(0, len(_UPSTREAM_DIGESTS), _DIGEST_LENGTH)
  ]

  assert len(recorded) == _SEEDS
  differing = [
      seed for seed in range(_SEEDS) if digests[seed] != recorded[seed]
  ]
  assert not differing, f'seeds whose contents differ: {differing}'


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False))
def test_skipping_the_rearranging_changes_nothing(rng: random.Random):
  """Where the rearranging is skipped, running it gives the same contents."""
  request = random_request(rng)
  events = [Event.model_validate(event) for event in request['events']]
  events = (
      events[rng.randrange(len(events) + 1) :] if rng.random() < 0.3 else events
  )

  skipped = _serialize(_contents_of(request, events))
  with mock.patch.object(
      _request_history, '_rearranging_changes_nothing', return_value=False
  ):
    rearranged = _serialize(_contents_of(request, events))

  assert skipped == rearranged
  # The contents are the request's own: none is shared with the session.
  contents = _contents_of(request, events)
  owned = {id(event.content) for event in events}
  owned.update(
      id(p) for e in events if e.content for p in e.content.parts or ()
  )
  for content in contents:
    assert id(content) not in owned
    assert not any(id(part) in owned for part in content.parts or ())


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

  contents = _request_history.RequestHistory(None, events, AGENT).contents(
      admit=admit
  )

  for event in seen:
    assert event.content or not (
        (event.input_transcription and event.input_transcription.text)
        or (event.output_transcription and event.output_transcription.text)
    )
  for content in contents:
    for part in content.parts or []:
      assert not any(f'[{peer}]' in (part.text or '') for peer in PEERS)


if __name__ == '__main__' and sys.argv[1:] == ['--record']:
  print(''.join(request_digest(seed) for seed in range(_SEEDS)))
