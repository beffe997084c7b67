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

"""The per-event checks of the request history give 2.13.0's verdicts.

`random_request` makes the histories the request history tests share.
``python test_request_history.py --record`` under google-adk 2.13.0 prints
the recorded digests.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from google.adk.events.event import Event
from google.adk.flows.llm_flows.context import _contents
from google.adk.flows.llm_flows.context import _fencing

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


def events_of(request: dict[str, Any]) -> list[Event]:
  """The events of a `random_request` history."""
  return [Event.model_validate(event) for event in request['events']]


def checks_digest(seed: int) -> str:
  """Digest of every per-event verdict on `seed`'s history, and its quotes."""
  request = random_request(random.Random(seed))
  verdicts = []
  quotes = []
  for event in events_of(request):
    for agent_name in (request['agent_name'], ''):
      verdicts.append(_fencing._is_other_agent_reply(agent_name, event))
    for include_thoughts in (False, True):
      verdicts.append(
          _contents._contains_empty_content(
              event, include_thoughts=include_thoughts
          )
      )
      verdicts.append(
          _contents._should_include_event_in_context(
              request['branch'],
              event,
              request['isolation_scope'],
              node_path=request['node_path'],
              include_thoughts=include_thoughts,
          )
      )
      for part in (event.content.parts if event.content else None) or ():
        verdicts.append(
            _contents._is_part_invisible(
                part, include_thoughts=include_thoughts
            )
        )
    for part in (event.content.parts if event.content else None) or ():
      if part.text is not None:
        quotes.append(_fencing.quote_untrusted(part.text))
  payload = json.dumps([verdicts, quotes])
  return hashlib.sha256(payload.encode()).hexdigest()[:_DIGEST_LENGTH]


def recorded(digests: str) -> list[str]:
  """The per-seed digests of a string of them, as `--record` prints it."""
  return [
      digests[i : i + _DIGEST_LENGTH]
      for i in range(0, len(digests), _DIGEST_LENGTH)
  ]


_DIGEST_LENGTH = 8
_SEEDS = 100
# `checks_digest(seed)` for seeds 0 to 99 under pristine google-adk 2.13.0,
# recorded with `python test_request_history.py --record`.
_UPSTREAM_CHECKS = (
    '1cfce94dad672be3cd7464addf4d9b7a70a3c10cdcab52a9a185b8ed85bf6534ebc0775f'
    '14a59abf7f0f2084ab6979d32a2344d069eb17a3ab7c1016c7d7d8181e4b86dd3cdeaf47'
    '2f8f73677c7305a38d3c217963fc36b3fe0f42d2438309104077edefe995ec7ef70b54d4'
    'f7e8299191ad00384c1fe857fe0f42d275bbb2fc81d5a1e9d50310578125b11d65d70251'
    'd9dccc9c979faa1c5374c454191a4e530c9b40fd5eabe5bd36d6c951e9b37899aad7b4f3'
    'f2af7b772ebd117c55b85769e1a012f1f35eb9ec49023a4756134609c3369500c937a3a6'
    'bec3921c219325cea3cbbf45cdc399de52ee8dd6dcb57d1124054a60e3736f5d6ee87faa'
    'fc13762dfbe2e6744712b8773fdf87b03c6ece70066194ac0e39e50b6feaf034b445aa65'
    '2ae608333a8f34ece927b9cb2ea5c7749f2995bd37c1e7cc7aea75bdc58984c41578d2af'
    '3b027298652bb51c24f9bfdd862565cc93c7bf66d22c7e3a8a0da0c09098bdab946c65bb'
    'b137e64164be130d1681e3052ff402ca2fc4138291b01d1466462d27d5d62c952bcc7811'
    '2a4f7226'
)


def test_event_checks_give_the_verdicts_of_2_13_0():
  expected = recorded(_UPSTREAM_CHECKS)

  assert len(expected) == _SEEDS
  differing = [
      seed for seed in range(_SEEDS) if checks_digest(seed) != expected[seed]
  ]
  assert not differing, f'seeds whose verdicts differ: {differing}'


if __name__ == '__main__' and sys.argv[1:] == ['--record']:
  print(''.join(checks_digest(seed) for seed in range(_SEEDS)))
