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

"""Tests `source_filter` on `_get_contents` and `_get_current_turn_contents`."""

from __future__ import annotations

from typing import Any

from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.flows.llm_flows.contents import _get_contents
from google.adk.flows.llm_flows.contents import _get_current_turn_contents
from google.genai import types
import pytest

_AGENT = 'booker'


class _History:
  """Builds a session history with increasing timestamps."""

  def __init__(self) -> None:
    self.events: list[Event] = []
    self.invocation = 'inv-0'
    self._clock = 100.0

  def _add(self, **kwargs: Any) -> Event:
    self._clock += 1.0
    kwargs.setdefault('invocation_id', self.invocation)
    event = Event(timestamp=self._clock, **kwargs)
    self.events.append(event)
    return event

  def user(self, text: str, *, new_invocation: bool = True) -> Event:
    if new_invocation:
      self.invocation = f'inv-{len(self.events) + 1}'
    return self._add(
        author='user',
        content=types.Content(role='user', parts=[types.Part(text=text)]),
    )

  def reply(self, author: str, text: str, **kwargs: Any) -> Event:
    return self._add(
        author=author,
        content=types.Content(role='model', parts=[types.Part(text=text)]),
        **kwargs,
    )

  def call(
      self,
      author: str,
      call_id: str | None,
      *,
      name: str = 'lookup',
      text: str | None = None,
      **kwargs: Any,
  ) -> Event:
    parts = [types.Part(text=text)] if text else []
    parts.append(
        types.Part(
            function_call=types.FunctionCall(
                id=call_id, name=name, args={'tag': f'call {call_id}'}
            )
        )
    )
    return self._add(
        author=author,
        content=types.Content(role='model', parts=parts),
        **kwargs,
    )

  def response(
      self,
      author: str,
      *call_ids: str | None,
      name: str = 'lookup',
      text: str | None = None,
      **kwargs: Any,
  ) -> Event:
    parts = [
        types.Part(
            function_response=types.FunctionResponse(
                id=call_id, name=name, response={'tag': f'result {call_id}'}
            )
        )
        for call_id in call_ids
    ]
    if text:
      parts.append(types.Part(text=text))
    return self._add(
        author=author,
        content=types.Content(role='user', parts=parts),
        **kwargs,
    )

  def summary(self, text: str, start: Event, end: Event) -> Event:
    return self._add(
        author='user',
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=start.timestamp,
                end_timestamp=end.timestamp,
                compacted_content=types.Content(
                    role='model', parts=[types.Part(text=text)]
                ),
            )
        ),
    )


def _contents(
    events: list[Event], source_filter: Any = None, **kwargs: Any
) -> list[types.Content]:
  return _get_contents(
      None,
      events,
      _AGENT,
      preserve_function_call_ids=True,
      source_filter=source_filter,
      **kwargs,
  )


def _turn(
    events: list[Event], source_filter: Any = None, **kwargs: Any
) -> list[types.Content]:
  return _get_current_turn_contents(
      None,
      events,
      _AGENT,
      preserve_function_call_ids=True,
      source_filter=source_filter,
      **kwargs,
  )


def _text(contents: list[types.Content]) -> str:
  """Renders contents as one string, so tests can look for any payload."""
  lines = []
  for content in contents:
    for part in content.parts or []:
      if part.text:
        lines.append(f'{content.role}: {part.text}')
      if part.function_call:
        lines.append(
            f'{content.role}: call {part.function_call.id}'
            f' {part.function_call.args}'
        )
      if part.function_response:
        lines.append(
            f'{content.role}: response {part.function_response.id}'
            f' {part.function_response.response}'
        )
  return '\n'.join(lines)


def _tool_ids(contents: list[types.Content]) -> tuple[list[str], list[str]]:
  calls, responses = [], []
  for content in contents:
    for part in content.parts or []:
      if part.function_call:
        calls.append(part.function_call.id)
      if part.function_response:
        responses.append(part.function_response.id)
  return calls, responses


def _pipeline_history() -> _History:
  """Two user turns through classifier -> booker, with booker's own tool."""
  history = _History()
  history.user('USER-1 book a table')
  history.reply('classifier', 'CLASSIFIER-1 booking')
  history.call(_AGENT, 'old-call')
  history.response(_AGENT, 'old-call')
  history.reply(_AGENT, 'BOOKER-1 booked')
  history.user('USER-2 make it three')
  history.reply('classifier', 'CLASSIFIER-2 booking')
  return history


class TestReservedNames:

  def test_user_keeps_only_typed_messages(self):
    events = _pipeline_history().events

    text = _text(_contents(events, ['user']))
    unfiltered = _text(_contents(events))

    assert 'USER-1' in text and 'USER-2' in text
    for payload in ('CLASSIFIER-1', 'BOOKER-1', 'call old-call', 'For context'):
      assert payload in unfiltered
      assert payload not in text

  def test_self_keeps_own_turns_and_tool_traffic(self):
    events = _pipeline_history().events

    contents = _contents(events, ['self'])

    text = _text(contents)
    assert 'BOOKER-1' in text
    assert _tool_ids(contents) == (['old-call'], ['old-call'])
    assert 'USER-' not in text
    assert 'CLASSIFIER' not in text

  def test_own_name_is_the_same_as_self(self):
    events = _pipeline_history().events

    assert _contents(events, [_AGENT]) == _contents(events, ['self'])

  def test_user_and_self_drop_peer_and_its_fencing(self):
    events = _pipeline_history().events

    text = _text(_contents(events, ['user', 'self']))

    assert 'USER-1' in text and 'USER-2' in text and 'BOOKER-1' in text
    assert 'CLASSIFIER' not in text
    assert 'For context' not in text
    assert 'For context' in _text(_contents(events))

  def test_named_peer_is_presented_as_other_agent(self):
    events = _pipeline_history().events

    text = _text(_contents(events, ['classifier']))

    assert '[classifier] said:' in text
    assert 'CLASSIFIER-1' in text and 'CLASSIFIER-2' in text
    assert 'USER-' not in text and 'BOOKER-1' not in text

  def test_duplicates_are_harmless(self):
    events = _pipeline_history().events

    assert _contents(events, ['user', 'user', 'self']) == _contents(
        events, ['self', 'user']
    )

  def test_name_not_in_history_hides_everything_else(self):
    events = _pipeline_history().events

    assert not _contents(events, ['nobody'])


class TestNoneIsUnchanged:

  def _histories(self) -> list[list[Event]]:
    pipeline = _pipeline_history()
    tools = _History()
    tools.user('hi')
    tools.call('scout', 'c1')
    tools.response('scout', 'c1')
    tools.call(_AGENT, 'c2', text='checking')
    tools.response('user', 'c2', text='done')
    tools.reply(_AGENT, 'final')
    compacted = _History()
    first = compacted.user('old question')
    last = compacted.reply('scout', 'old answer')
    compacted.summary('summary of old turns', first, last)
    compacted.user('new question')
    return [pipeline.events, tools.events, compacted.events, []]

  def test_none_equals_omitting_the_argument(self):
    for events in self._histories():
      assert _get_contents(None, events, _AGENT) == _get_contents(
          None, events, _AGENT, source_filter=None
      )
      assert _get_current_turn_contents(
          None, events, _AGENT
      ) == _get_current_turn_contents(None, events, _AGENT, source_filter=None)

  def test_listing_every_source_equals_no_filter(self):
    for events in self._histories():
      every_source = ['user', 'self'] + sorted({e.author for e in events})
      assert _contents(events, every_source) == _contents(events)
      assert _turn(events, every_source) == _turn(events)
      assert _turn(
          events, every_source, from_latest_user_message=True
      ) == _turn(events, from_latest_user_message=True)


class TestToolPairing:

  def test_peer_tool_traffic_follows_the_peer(self):
    history = _History()
    history.user('USER question')
    history.call('scout', 'scout-call')
    history.response('scout', 'scout-call')
    history.reply('scout', 'SCOUT found it')
    events = history.events

    dropped = _text(_contents(events, ['user']))
    kept = _text(_contents(events, ['user', 'scout']))

    assert 'scout-call' not in dropped and 'SCOUT' not in dropped
    assert '[scout] called tool `lookup`' in kept
    assert '[scout] `lookup` tool returned result' in kept
    assert 'result scout-call' in kept

  def test_posted_back_result_belongs_to_the_call_not_the_user(self):
    history = _History()
    history.user('USER question')
    history.call('scout', 'lr-call')
    history.user('USER meanwhile')
    history.response('user', 'lr-call')
    events = history.events

    user_only = _text(_contents(events, ['user']))
    scout_only = _text(_contents(events, ['scout']))

    assert 'USER meanwhile' in user_only
    assert 'lr-call' not in user_only
    assert 'USER' not in scout_only
    assert 'call lr-call' in scout_only and 'result lr-call' in scout_only

  def test_call_without_its_response_source_is_dropped_too(self):
    # The response event is authored by the user, but it answers a peer's
    # call: dropping the peer must take the response with it, and keeping
    # the peer must keep both even though the user is excluded.
    history = _History()
    history.user('go')
    history.call('scout', 'pair', name='approve')
    history.response('user', 'pair', name='approve')
    events = history.events

    assert _tool_ids(_contents(events, ['user'])) == ([], [])
    assert 'pair' in _text(_contents(events, ['scout']))

  def test_mixed_author_response_is_split_per_part(self):
    history = _History()
    history.user('USER start')
    history.call('scout', 'scout-call')
    history.call('planner', 'planner-call')
    history.response('user', 'scout-call', 'planner-call', text='USER note')
    events = history.events

    text = _text(_contents(events, ['user', 'scout']))

    assert 'USER note' in text
    assert 'call scout-call' in text and 'result scout-call' in text
    assert 'planner-call' not in text
    assert 'planner-call' in _text(_contents(events))

  def test_idless_response_belongs_to_its_event_author(self):
    history = _History()
    history.user('USER hi')
    history.call('scout', None)
    history.response('scout', None)
    history.user('USER again')
    events = history.events

    assert 'lookup' not in _text(_contents(events, ['user']))
    scout = _text(_contents(events, ['scout']))
    assert 'called tool `lookup`' in scout and 'returned result' in scout

  def test_reused_call_id_is_attributed_to_the_latest_call(self):
    history = _History()
    history.user('USER one')
    history.call('scout', 'dup')
    history.response('scout', 'dup')
    history.user('USER two')
    history.call('planner', 'dup')
    history.response('user', 'dup')
    events = history.events

    text = _text(_contents(events, ['planner']))

    assert text.count('called tool') == 1
    assert '[planner] called tool' in text


class TestInFlightToolLoop:

  def test_own_calls_of_this_invocation_are_kept_without_self(self):
    history = _History()
    history.user('USER earlier')
    history.call(_AGENT, 'earlier-call')
    history.response(_AGENT, 'earlier-call')
    history.reply(_AGENT, 'BOOKER earlier answer')
    history.user('USER now')
    history.call(_AGENT, 'now-call', text='BOOKER let me check')
    history.response(_AGENT, 'now-call')
    events = history.events

    contents = _contents(events, ['user'])

    assert _tool_ids(contents) == (['now-call'], ['now-call'])
    text = _text(contents)
    assert 'BOOKER let me check' in text
    assert 'earlier' not in text.replace('USER earlier', '')

  def test_long_running_result_arriving_now_is_in_flight(self):
    history = _History()
    history.user('USER request')
    history.call(_AGENT, 'lr', name='approve')
    history.invocation = 'inv-resume'
    history.response('user', 'lr', name='approve')
    events = history.events

    assert _tool_ids(_contents(events, ['user'])) == (['lr'], ['lr'])

  def test_own_text_reply_of_this_invocation_needs_self(self):
    history = _History()
    history.user('USER now')
    history.reply(_AGENT, 'BOOKER first attempt')
    events = history.events

    assert 'BOOKER' not in _text(_contents(events, ['user']))
    assert 'BOOKER' in _text(_contents(events, ['user', 'self']))

  def test_peer_calls_of_this_invocation_are_not_in_flight(self):
    history = _History()
    history.user('USER now')
    history.call('scout', 'scout-now')
    history.response('scout', 'scout-now')
    events = history.events

    assert 'scout-now' not in _text(_contents(events, ['user']))


class TestLive:

  def test_live_events_by_this_agent_count_as_self(self):
    history = _History()
    history.user('USER spoken')
    history.reply(_AGENT, 'BOOKER live reply', live_session_id='live-1')
    history.reply('scout', 'SCOUT live reply', live_session_id='live-1')
    events = history.events

    own = _text(_contents(events, ['self']))
    user_only = _text(_contents(events, ['user']))

    assert 'BOOKER live reply' in own
    assert 'SCOUT' not in own and 'USER' not in own
    assert 'BOOKER' not in user_only and 'SCOUT' not in user_only
    assert _contents(events, ['user', 'self', 'scout']) == _contents(events)

  def test_transcriptions_are_filtered_after_they_become_content(self):
    history = _History()
    history._add(
        author='user',
        input_transcription=types.Transcription(text='USER said hello'),
    )
    history._add(
        author=_AGENT,
        output_transcription=types.Transcription(text='BOOKER said hi'),
        live_session_id='live-1',
    )
    events = history.events

    user_only = _text(_contents(events, ['user']))
    own = _text(_contents(events, ['self']))

    assert 'USER said hello' in user_only and 'BOOKER' not in user_only
    assert 'BOOKER said hi' in own and 'USER' not in own


class TestCompaction:

  def test_summary_covering_the_user_is_kept_for_user(self):
    history = _History()
    first = history.user('USER old')
    last = history.reply('scout', 'SCOUT old')
    history.summary('SUMMARY of old turns', first, last)
    history.user('USER new')
    events = history.events

    text = _text(_contents(events, ['user']))

    assert 'SUMMARY of old turns' in text
    assert 'SCOUT old' not in text and 'USER old' not in text
    assert 'USER new' in text

  def test_summary_of_only_dropped_sources_is_dropped(self):
    history = _History()
    first = history.reply('scout', 'SCOUT one')
    last = history.reply('scout', 'SCOUT two')
    history.summary('SUMMARY of scout', first, last)
    history.user('USER new')
    events = history.events

    assert 'SUMMARY' not in _text(_contents(events, ['user']))
    assert 'SUMMARY' in _text(_contents(events, ['scout']))

  def test_summary_stays_for_agent_without_self(self):
    history = _History()
    first = history.user('USER old')
    last = history.reply(_AGENT, 'BOOKER old')
    history.summary('SUMMARY mixed', first, last)
    history.user('USER new')
    events = history.events

    assert 'SUMMARY mixed' in _text(_contents(events, ['user']))
    assert 'SUMMARY mixed' in _text(_contents(events, ['self']))


class TestTurnBoundary:

  def test_none_with_user_starts_at_the_latest_user_message(self):
    events = _pipeline_history().events

    filtered = _text(_turn(events, ['user']))
    unfiltered = _text(_turn(events))

    assert 'CLASSIFIER-2' in unfiltered and 'USER-2' not in unfiltered
    assert filtered == 'user: USER-2 make it three'

  def test_none_with_a_named_peer_starts_at_its_latest_reply(self):
    events = _pipeline_history().events

    text = _text(_turn(events, ['classifier']))

    assert 'CLASSIFIER-2' in text
    assert 'CLASSIFIER-1' not in text and 'USER' not in text

  def test_none_with_self_only_keeps_the_unfiltered_turn(self):
    history = _pipeline_history()
    history.call(_AGENT, 'now-call')
    history.response(_AGENT, 'now-call')
    events = history.events

    contents = _turn(events, ['self'])

    assert _tool_ids(contents) == (['now-call'], ['now-call'])
    assert 'old-call' not in _text(contents)

  def test_current_starts_at_the_latest_user_message(self):
    history = _pipeline_history()
    history.call(_AGENT, 'now-call')
    history.response(_AGENT, 'now-call')
    events = history.events

    text = _text(_turn(events, from_latest_user_message=True))

    assert 'USER-2' in text and 'CLASSIFIER-2' in text
    assert 'call now-call' in text
    assert 'USER-1' not in text and 'BOOKER-1' not in text

  def test_current_with_user_and_self(self):
    history = _pipeline_history()
    history.call(_AGENT, 'now-call')
    history.response(_AGENT, 'now-call')
    events = history.events

    contents = _turn(events, ['user', 'self'], from_latest_user_message=True)

    text = _text(contents)
    assert text.startswith('user: USER-2')
    assert 'CLASSIFIER' not in text and 'USER-1' not in text
    assert _tool_ids(contents) == (['now-call'], ['now-call'])

  def test_current_without_user_still_starts_at_the_user_message(self):
    history = _pipeline_history()
    history.reply('planner', 'PLANNER-2 plan')
    events = history.events

    text = _text(_turn(events, ['planner'], from_latest_user_message=True))
    none_text = _text(_turn(events, ['classifier']))

    assert 'PLANNER-2' in text and 'CLASSIFIER' not in text
    assert 'USER' not in text
    assert 'CLASSIFIER-2' in none_text

  def test_current_falls_back_to_a_peer_when_no_user_message_is_visible(self):
    history = _History()
    history.reply('scout', 'SCOUT old')
    history.reply('scout', 'SCOUT latest')
    events = history.events

    text = _text(_turn(events, from_latest_user_message=True))

    assert 'SCOUT latest' in text and 'SCOUT old' not in text

  def test_current_keeps_the_call_a_posted_back_result_answers(self):
    history = _History()
    history.user('USER start')
    history.call(_AGENT, 'lr', name='approve')
    history.user('USER chat while waiting')
    history.response('user', 'lr', name='approve')
    events = history.events

    contents = _turn(events, ['user'], from_latest_user_message=True)

    assert _tool_ids(contents) == (['lr'], ['lr'])
    assert 'USER start' in _text(contents)


class TestValidation:

  def test_a_bare_string_raises(self):
    # Lists are validated where the field is set; the request path only
    # guards against a string, which would otherwise be read per character.
    events = _pipeline_history().events

    with pytest.raises(ValueError, match='include_sources'):
      _contents(events, 'user')

  def test_tuple_is_accepted(self):
    events = _pipeline_history().events

    assert _contents(events, ('user',)) == _contents(events, ['user'])
