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

"""`_get_contents` builds 2.13.0's request contents through RequestHistory."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

from google.adk.flows.llm_flows.context import _request_history
from google.genai import types
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st
from test_request_history import events_of
from test_request_history import random_request
from test_request_history import recorded
from test_request_history_builder import get_contents
from test_request_history_builder import request_digest
from test_request_history_builder import SEEDS
from test_request_history_builder import UPSTREAM_DIGESTS


def _serialize(contents: list[types.Content]) -> list[tuple[str, str]]:
  """Every content as JSON: with all fields, and with the fields set."""
  return [
      (content.model_dump_json(), content.model_dump_json(exclude_unset=True))
      for content in contents
  ]


def test_get_contents_equals_2_13_0():
  expected = recorded(UPSTREAM_DIGESTS)

  differing = [
      seed for seed in range(SEEDS) if request_digest(seed) != expected[seed]
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
  request: dict[str, Any] = random_request(rng)
  events = events_of(request)
  events = (
      events[rng.randrange(len(events) + 1) :] if rng.random() < 0.3 else events
  )

  skipped = _serialize(get_contents(request, events))
  with mock.patch.object(
      _request_history, '_rearranging_changes_nothing', return_value=False
  ):
    rearranged = _serialize(get_contents(request, events))

  assert skipped == rearranged
  # The contents are the request's own: none is shared with the session.
  contents = get_contents(request, events)
  owned = {id(event.content) for event in events}
  owned.update(
      id(p) for e in events if e.content for p in e.content.parts or ()
  )
  for content in contents:
    assert id(content) not in owned
    assert not any(id(part) in owned for part in content.parts or ())
