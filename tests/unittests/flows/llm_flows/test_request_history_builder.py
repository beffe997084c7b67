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

"""RequestHistory builds the request contents 2.13.0's `_get_contents` builds.

``python test_request_history_builder.py --record`` under google-adk 2.13.0
prints the recorded digests of `_get_contents`.
"""

from __future__ import annotations

from collections.abc import Callable
import hashlib
import json
import random
import sys
from typing import Any

from google.adk.events.event import Event
from google.adk.flows.llm_flows.context import _contents
from google.genai import types
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from test_request_history import AGENT
from test_request_history import events_of
from test_request_history import PEERS
from test_request_history import random_request
from test_request_history import recorded

try:
  from google.adk.flows.llm_flows.context import _request_history
except ImportError:  # google-adk 2.13.0, under --record.
  _request_history = None

Build = Callable[[dict[str, Any], list[Event]], list[types.Content]]


def _arguments(request: dict[str, Any]) -> dict[str, Any]:
  """The keyword arguments of `_get_contents` in `request`."""
  kwargs = dict(request)
  del kwargs['events'], kwargs['branch'], kwargs['agent_name']
  content = request['user_content']
  kwargs['user_content'] = content and types.Content.model_validate(content)
  return kwargs


def get_contents(
    request: dict[str, Any], events: list[Event]
) -> list[types.Content]:
  """`_get_contents` for `request`'s arguments over `events`."""
  args = (request['branch'], events, request['agent_name'])
  return _contents._get_contents(*args, **_arguments(request))


def request_history_contents(
    request: dict[str, Any], events: list[Event]
) -> list[types.Content]:
  """`RequestHistory`'s contents for the arguments of `_get_contents`."""
  kwargs = _arguments(request)
  history = _request_history.RequestHistory(
      request['branch'],
      events,
      request['agent_name'],
      isolation_scope=kwargs['isolation_scope'],
      node_path=kwargs['node_path'],
      is_single_turn=kwargs['is_single_turn'],
      include_thoughts_from_other_agents=kwargs[
          'include_thoughts_from_other_agents'
      ],
  )
  return history.contents(
      preserve_function_call_ids=kwargs['preserve_function_call_ids'],
      isolation_scope=kwargs['isolation_scope'],
      is_single_turn=kwargs['is_single_turn'],
      user_content=kwargs['user_content'],
  )


def request_digest(seed: int, build: Build = get_contents) -> str:
  """Digest of the contents (fields set) for `seed`'s history and a tail."""
  request = random_request(random.Random(seed))
  events = events_of(request)
  tail = events[seed % (len(events) + 1) :]
  payload = json.dumps([
      [c.model_dump_json(exclude_unset=True) for c in build(request, history)]
      for history in (events, tail)
  ])
  return hashlib.sha256(payload.encode()).hexdigest()[:8]


SEEDS = 100
# `request_digest(seed)` for seeds 0 to 99 under pristine google-adk 2.13.0,
# recorded with `python test_request_history_builder.py --record`.
UPSTREAM_DIGESTS = (
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
  expected = recorded(UPSTREAM_DIGESTS)

  assert len(expected) == SEEDS
  differing = [
      seed
      for seed in range(SEEDS)
      if request_digest(seed, request_history_contents) != expected[seed]
  ]
  assert not differing, f'seeds whose contents differ: {differing}'


@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_the_history_filter_sees_unmerged_events_and_what_it_drops_is_gone(
    rng: random.Random,
):
  events = events_of(random_request(rng))
  seen: list[Event] = []

  def drop_peers(visible: list[Event]) -> list[Event]:
    seen.extend(visible)
    return [event for event in visible if event.author not in PEERS]

  contents = _request_history.RequestHistory(
      None, events, AGENT, history_filter=drop_peers
  ).contents()

  # The filter runs before transcriptions are merged into content.
  assert all(any(event is given for event in events) for given in seen)
  for content in contents:
    for part in content.parts or []:
      assert not any(f'[{peer}]' in (part.text or '') for peer in PEERS)


if __name__ == '__main__' and sys.argv[1:] == ['--record']:
  print(''.join(request_digest(seed) for seed in range(SEEDS)))
