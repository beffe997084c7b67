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

"""Another agent's message is recast as 2.13.0 recasts it, field for field.

``python test_request_history_recast.py --record`` under google-adk 2.13.0
prints the recorded digests.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from google.adk.flows.llm_flows.context import _fencing
from test_request_history import events_of
from test_request_history import random_request
from test_request_history import recorded

_DIGEST_LENGTH = 8
_SEEDS = 100


def recast_digest(seed: int) -> str:
  """Digest of every event of `seed`'s history recast, with and without
  thoughts: the content with all fields and with the fields set."""
  recasts = []
  for event in events_of(random_request(random.Random(seed))):
    for include_thoughts in (False, True):
      recast = _fencing._present_other_agent_message(
          event, include_thoughts=include_thoughts
      )
      if recast is None or recast is event:
        recasts.append(recast and 'unchanged')
        continue
      assert recast.content is not None
      recasts.append([
          recast.author,
          recast.branch,
          recast.timestamp,
          recast.content.model_dump_json(),
          recast.content.model_dump_json(exclude_unset=True),
      ])
  payload = json.dumps(recasts)
  return hashlib.sha256(payload.encode()).hexdigest()[:_DIGEST_LENGTH]


# `recast_digest(seed)` for seeds 0 to 99 under pristine google-adk 2.13.0,
# recorded with `python test_request_history_recast.py --record`.
_UPSTREAM_RECASTS = (
    'ac5387cc8a33157f387fde9766bcd3c2c8d285b57143f9d443bcb33d957863122e3f0d21'
    '25794122b5d185f6f24094e63cb8659539b58455e79d3bb4add28b844745a8355da25a50'
    'ac043831e57cc0326a2f8e89b1c1e5c063fde6f763fde6f77eba6aad73ebcff6b2a33891'
    '610e8a372dab02942a8981d763fde6f78bf2a7b7fa2f27f9b905250063fde6f7cbb9badf'
    '681c4452cf5898da69f3bb7c1c9d25bce1cb32c2fd40935853e61e7a9c984e3a5861b699'
    '8a5e42afb57c8bc1f837da40960bb2fe537c4722b66e327d53c501391428b18ed155d493'
    'abd4785e23e02c61b2b5f82fee51902d9772f906d23afacf09123f4c950a642c2b97bc19'
    'd897ca30d7d39c5b6fc3528bc785121247a9a50244cfd2a08a199fb65f284b377109d454'
    '40e1f16ae60fd546201e098fdd2e9f8f42ce57b0b0acef3b2aa2d2435ff6b684f5e2bca0'
    '59d499b616f74376497ab13c066993e0875265184f5a17bd9dde5c77b8bcb85738aa80c1'
    '9e2feeaa89ef86e6ad677f2321418ecf3311ab01ab43d991a63e265fb6c0ecb83529ac5a'
    '601314f3'
)


def test_recast_messages_equal_those_of_2_13_0():
  expected = recorded(_UPSTREAM_RECASTS)

  assert len(expected) == _SEEDS
  differing = [
      seed for seed in range(_SEEDS) if recast_digest(seed) != expected[seed]
  ]
  assert not differing, f'seeds whose recast messages differ: {differing}'


def test_recast_content_shares_no_part_with_the_event():
  for seed in range(_SEEDS):
    for event in events_of(random_request(random.Random(seed))):
      content = _fencing._present_other_agent_content(
          event, include_thoughts=True
      )
      parts = (event.content.parts if event.content else None) or []
      source = {id(part) for part in parts}
      for part in content.parts if content else []:
        assert id(part) not in source


if __name__ == '__main__' and sys.argv[1:] == ['--record']:
  print(''.join(recast_digest(seed) for seed in range(_SEEDS)))
