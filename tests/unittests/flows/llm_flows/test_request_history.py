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

"""The request history: the contents of 2.13.0, built without throw-away events.

Run as a script under pristine google-adk 2.13.0 with ``--record``, this module
prints the digests `test_contents_equal_those_of_2_13_0` compares with.
"""

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


def _contents_of(
    request: dict[str, Any], events: list[Event]
) -> list[types.Content]:
  args = (request['branch'], events, request['agent_name'])
  return _contents._get_contents(*args, **_call_kwargs(request))


def request_digest(seed: int) -> str:
  """Digest of the contents built for the history of `seed`, and of a tail.

  Uses only what google-adk 2.13.0 has, so that ``--record`` can run under
  it. A tail is what `_get_current_turn_contents` and compaction hand on.
  Contents are dumped with the fields set only, which new optional fields of
  google-genai leave unchanged.
  """
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
_SEEDS = 400
# `request_digest(seed)` for seeds 0 to 399 under pristine google-adk 2.13.0,
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
    '2072886790c40b5f3fa97d5559333a8981effa2261f5272e17047b28792b5b7b9cd8f38d'
    'ce02529d963667a9eaa9311c56e37a001383ba6afea8ace7b8edbb7da0bdd9601aaa465e'
    'b1223b5751d0770ec2b4c213b0ff0773a6830960d88e7e63ab117953a6830960b25e0db9'
    'de09d2184c052619a664df9ab78b9790a68309602842382c0f01d8327fd890e58915b5ad'
    '3cd7291fb00e9429aaa6108a993d60cb07423e3a6bb08e96d1949d5f39a99dd0326987c7'
    'eed91a4a1f41cf5b081be796224fc17ab4b297a5e3c45065cc9362e6f9473bc654686ec2'
    '1f41cf5b73b183fb966aad70e2db97a0b9c5c095cf8b614c55070e23dc7e84ad3d29b080'
    'ff06f37522f79b7f95e1768fd216b85e32513ca8c3b772fb61d3c43df9542cc8be471c99'
    '2719c92c549192a9092ae456317a04b7e73e6cb5398e06cf9de7289aa77293e7ed5e29ce'
    'a683096078e30b10fe5210b1a68309603351de702bb5649e8865a766c6b0ff1ca6830960'
    '31840ff44f1221768a18bba1c3b2a2e40405dbe1a68309603513e357568f506be89b98fe'
    'edbc386938208383b00e9429d28d622de0d7ec9c18a2a13a00a8b4421f41cf5bdd790d6b'
    'd4141ecb125dc6f71773449ccba9db074b4155ca49cf4fd4f068b317f8c51cbfbdd6e0a0'
    'b3bfbd6c9769d7d38d889441ff1fb31e0e9fe184325495e9a3f30581f2f010db4503e69d'
    '2dd917aebbf112e6b39599d02a13967fdef53dd8c19552ea1ae30cea89c90f01d810aa16'
    'a683096017774c7a49ebeb628e0bfa66e2099612e982b8a63c40fb195fef529cc9248c0c'
    'a6830960178f8b49792a3b5983dd870fa68309607892d7ff8f0e5c53b40e1200db865ade'
    '7e1d14ba1631fb3ffbaa6bcc7ae0dd19bac14216b5f207cf61ffe7388938156df8d6fccd'
    '2c3d31af7cc65dac5834f7cd5ae284682f5d2e9a49791a6db542596d9a3c619eda727878'
    '7a1921d1137456bd67162adc3e8d414d02172753c3e354f5f7780169f3d586b0965f4c9c'
    '8f28ea64dccb0250a5a3474bbca73c54a70d55a336c8a76fc0c537d495c07c7705d87eb5'
    '9cb429f9e87ec4ac8de5ddc5bffa952583f43d296720c1eb927bfbc04b54482b1299deae'
    '0da5e6b04c462dd74ad15dfba6830960d9162f141d62314dfce982ec0033252f9fe73d28'
    '9ce33313dff480e59019ae89a6830960871bcde1e32a1834736271e514f0fe57b257d659'
    '727a8b69d40035db465b32dfb63e7af6283edb23236290c12ca09779ef36e6c7b99f195f'
    '6eddd48325fcebaa30ed711d8337050de37bb019ac54a0e1ca7b10a032e12b01a471ec96'
    '955d5aee66fc283a8c74aad68299fedd7e9432e28c5ec50f6d6cd7772302fc742f95c123'
    '95f7e9e57a1921d110d810543f20cf71240efe1c514b6a45e17c35eb7e806e1b1aa7a9c2'
    'f0224111a2a3a86cfe3fff5127fcb26b9b07587d1b4283fe4331ad2cd868b4c224137b07'
    'c05e0408fe5ac06a34a3774777beac4ee0ad6e0d9d9c3a4b1c5579d279c4e4e9b00e9429'
    '0e603be63361c1bb233786bb438798c9aa683c2645e9f2c6044e668113e322c9b5f207cf'
    '03014d67e0da68b619086b7f6639a69c05930c0e1ba135663c2d8e9dce67a7473fdd3abb'
    'a68309602c4b30a5c606ed375fb3186dcec7841471221696920a0cbe8a52c22722b1d4d9'
    'efa76aaf71b98e2199d492653df62c33'
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

  contents = _contents._get_contents(None, events, AGENT)

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


def test_late_tool_response_is_moved_up_to_its_call():
  events = [
      _event(AGENT, _call('call-1'), long_running_tool_ids={'call-1'}),
      _event('user', types.Part(text='meanwhile')),
      _event('user', _response('call-1')),
  ]

  contents = _contents._get_contents(None, events, AGENT)

  # What came between the call and its response goes.
  assert [bool(content.parts[0].function_call) for content in contents] == [
      True,
      False,
  ]
  assert contents[1].parts[0] is not events[2].content.parts[0]


def test_unanswered_call_is_dropped_with_a_warning(caplog):
  events = [
      _event(AGENT, types.Part(text='calling'), _call('call-1')),
      _event('user', types.Part(text='never mind')),
  ]

  contents = _contents._get_contents(None, events, AGENT)

  assert [part.text for part in contents[0].parts] == ['calling']
  assert (
      "Dropping function calls with no matching function response: ['call-1']"
      in caplog.text
  )
  assert events[0].content.parts[1].function_call is not None


if __name__ == '__main__' and sys.argv[1:] == ['--record']:
  print(''.join(request_digest(seed) for seed in range(_SEEDS)))
