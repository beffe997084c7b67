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

"""Which state a client sees: ``RunConfig.client_state_keys`` and its rules."""

from __future__ import annotations

from google.adk.agents.run_config import RunConfig
from google.adk.events._state_view import delta_for_client
from google.adk.events._state_view import state_for_client
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from pydantic import ValidationError
import pytest


def _event(author: str, delta: dict[str, str], internal: bool) -> Event:
  return Event(
      author=author,
      visibility='internal' if internal else None,
      actions=EventActions(state_delta=delta),
  )


def test_an_internal_event_sends_only_the_named_keys():
  event = _event('classifier', {'intent': 'x', 'draft': 'y'}, internal=True)

  assert delta_for_client(event) == {}
  assert delta_for_client(event, ['intent']) == {'intent': 'x'}
  # The stored event is not changed.
  assert event.actions.state_delta == {'intent': 'x', 'draft': 'y'}


def test_a_user_facing_event_sends_its_whole_delta():
  event = _event('booker', {'booking_id': 'b1'}, internal=False)

  assert delta_for_client(event) is event.actions.state_delta


def test_a_key_written_by_a_user_facing_event_stays_visible():
  events = [
      _event('classifier', {'intent': 'x', 'draft': 'y'}, internal=True),
      _event('user', {'intent': 'z'}, internal=False),
  ]
  state = {'intent': 'z', 'draft': 'y', 'guest': 'Ada'}

  assert state_for_client(state, events) == {'intent': 'z', 'guest': 'Ada'}
  # Without the events nobody can tell who wrote a key: only named keys.
  assert state_for_client(state, None, ['guest']) == {'guest': 'Ada'}


@pytest.mark.parametrize(
    ('value', 'message'),
    [
        ('intent', "such as ['intent']"),
        ([1], 'not strings: [1]'),
        ({'intent': True}, 'takes a list'),
    ],
)
def test_client_state_keys_must_be_a_list_of_str(value, message):
  with pytest.raises(ValidationError, match=message.replace('[', r'\[')):
    RunConfig(client_state_keys=value)


def test_keys_an_agent_tool_wrote_on_a_user_facing_event_stay_out():
  # A user-facing caller's function response carrying what AgentTool
  # forwarded from its agent, as the Runner records it.
  response = _event('front_desk', {'found': 'x', 'cart': 'c'}, internal=False)
  response.custom_metadata = {'__adk_internal_visibility': {'state': ['found']}}

  assert delta_for_client(response) == {'cart': 'c'}
  assert delta_for_client(response, ['found']) == {'found': 'x', 'cart': 'c'}
  assert state_for_client({'found': 'x', 'cart': 'c'}, [response]) == {
      'cart': 'c'
  }


def test_a_snapshot_shows_the_last_value_a_user_facing_event_wrote():
  events = [
      _event('drafter', {'draft': 'd1'}, internal=True),
      _event('refiner', {'draft': 'r1'}, internal=False),
      _event('drafter', {'draft': 'd2'}, internal=True),
  ]
  state = {'draft': 'd2', 'guest': 'Ada'}

  assert state_for_client(state, events) == {'draft': 'r1', 'guest': 'Ada'}
  assert state_for_client(state, events, ['draft']) == state
