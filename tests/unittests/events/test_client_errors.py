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

"""What a client in filter mode is told of a failed run or an error event."""

from __future__ import annotations

import json
import logging

from google.adk.events import _client_errors
from google.adk.events._client_errors import client_error_message
from google.adk.events._client_errors import ERROR_EVENT_MESSAGE
from google.adk.events._client_errors import run_error_payload
from google.adk.events._client_errors import RUN_FAILED_CODE
from google.adk.events._client_errors import RUN_FAILED_MESSAGE
from google.adk.events._visibility_metadata import with_entries
from google.adk.events.event import Event
import pytest

_SECRET = 'SECRET-label-8812'
_LOGGER = 'google_adk.' + _client_errors.__name__


def _failure() -> ValueError:
  try:
    raise ValueError(f'INSERT failed, parameters: {{"intent": "{_SECRET}"}}')
  except ValueError as e:
    return e


def test_filter_mode_payload_is_the_code_and_the_sentence(caplog):
  exc = _failure()

  with caplog.at_level(logging.ERROR, logger=_LOGGER):
    payload = run_error_payload(exc, 'filter')

  assert payload == {'error': RUN_FAILED_MESSAGE, 'errorCode': RUN_FAILED_CODE}
  assert _SECRET not in json.dumps(payload)
  # The full text, with its traceback, is in the server log.
  [record] = [r for r in caplog.records if r.name == _LOGGER]
  assert record.exc_info is not None and record.exc_info[1] is exc
  assert _SECRET in caplog.text
  assert 'Traceback' in caplog.text


def test_filter_mode_payload_does_not_log_twice(caplog):
  with caplog.at_level(logging.DEBUG, logger=_LOGGER):
    payload = run_error_payload(_failure(), 'filter', logged=True)

  assert payload is not None and payload['errorCode'] == RUN_FAILED_CODE
  assert not [r for r in caplog.records if r.name == _LOGGER]


@pytest.mark.parametrize('mode', ['annotate', None])
def test_annotate_mode_leaves_the_door_as_it_is(mode, caplog):
  with caplog.at_level(logging.DEBUG, logger=_LOGGER):
    assert run_error_payload(_failure(), mode) is None

  assert not [r for r in caplog.records if r.name == _LOGGER]


def test_the_sentence_is_generic():
  assert RUN_FAILED_CODE == 'RUN_FAILED'
  assert RUN_FAILED_MESSAGE.endswith('.')
  assert '{' not in RUN_FAILED_MESSAGE and '%' not in RUN_FAILED_MESSAGE


def _error_event(**kwargs) -> Event:
  return Event(
      author=kwargs.pop('author', 'agent'),
      error_code='TOOL_FAILED',
      error_message=f'lookup({_SECRET!r}) failed',
      **kwargs,
  )


def test_a_user_facing_error_events_message_is_generic_too():
  # A node that raises is recorded as an error event carrying str(exc),
  # whoever the node speaks to.
  event = _error_event()

  assert client_error_message(event) == ERROR_EVENT_MESSAGE
  assert _SECRET in event.error_message  # The session keeps it.


def test_an_internal_agents_error_message_is_generic():
  event = _error_event(author='classifier', visibility='internal')

  message = client_error_message(event)

  assert message == ERROR_EVENT_MESSAGE
  assert _SECRET not in message
  assert event.error_code == 'TOOL_FAILED'  # Kept, and not modified.
  assert _SECRET in event.error_message


def test_an_error_inside_a_hidden_tool_is_generic():
  event = _error_event(custom_metadata=with_entries(None, inside='hidden'))

  assert client_error_message(event) == ERROR_EVENT_MESSAGE


def test_an_event_without_a_message_has_none():
  assert client_error_message(Event(author='a', error_code='X')) is None
  assert client_error_message(Event(author='a', visibility='internal')) is None
