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

"""Property tests for `include_sources` over random multi-agent histories.

Every payload in a generated history carries a marker naming its source, so a
property can read off the rendered request whose words reached the model.
"""

from __future__ import annotations

import dataclasses
import re

from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.flows.llm_flows.contents import _get_contents
from google.adk.flows.llm_flows.contents import _get_current_turn_contents
from google.genai import types
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st

_SELF = 'booker'
_PEERS = ('scout', 'planner')
_AGENTS = (_SELF,) + _PEERS
_MARKER = re.compile(r'\b([UTKCR]):([a-z]+):([a-z0-9-]+)\b')


@dataclasses.dataclass
class _Marker:
  source: str
  call_id: str | None = None


@dataclasses.dataclass
class _Generated:
  events: list[Event]
  markers: dict[str, _Marker]
  # Call ids of tool calls whose call or response is in each invocation.
  call_invocations: dict[str, set[str]]
  call_authors: dict[str, str]
  long_running_ids: set[str]

  @property
  def current_invocation(self) -> str:
    for event in reversed(self.events):
      if event.invocation_id:
        return event.invocation_id
    return ''

  def in_flight(self, call_id: str | None) -> bool:
    return (
        call_id is not None
        and self.call_authors.get(call_id) == _SELF
        and self.current_invocation in self.call_invocations.get(call_id, ())
    )


class _Builder:
  """Turns drawn actions into a consistent session history."""

  def __init__(self) -> None:
    self.events: list[Event] = []
    self.markers: dict[str, _Marker] = {}
    self.call_invocations: dict[str, set[str]] = {}
    self.call_authors: dict[str, str] = {}
    self.long_running_ids: set[str] = set()
    self.pending: list[str] = []
    self.invocation = 'inv-0'
    self.turn_starts: list[int] = []
    self._count = 0

  def _next(self) -> int:
    self._count += 1
    return self._count

  def _add(self, **kwargs) -> Event:
    kwargs.setdefault('invocation_id', self.invocation)
    event = Event(timestamp=float(len(self.events) + 1), **kwargs)
    self.events.append(event)
    return event

  def _text(self, kind: str, source: str, key: str, call_id=None) -> str:
    marker = f'{kind}:{source}:{key}'
    self.markers[marker] = _Marker(source, call_id)
    return marker

  def user(self) -> None:
    self.invocation = f'inv-{self._next()}'
    self.turn_starts.append(len(self.events))
    self._add(
        author='user',
        content=types.Content(
            role='user',
            parts=[types.Part(text=self._text('U', 'user', str(self._count)))],
        ),
    )

  def reply(self, author: str, live: bool) -> None:
    text = self._text('T', author, str(self._next()))
    self._add(
        author=author,
        content=types.Content(role='model', parts=[types.Part(text=text)]),
        live_session_id='live-1' if live else None,
    )

  def _call_part(self, author: str, call_id: str, with_id: bool) -> types.Part:
    self.call_authors[call_id] = author
    self.call_invocations.setdefault(call_id, set()).add(self.invocation)
    return types.Part(
        function_call=types.FunctionCall(
            id=call_id if with_id else None,
            name=f'tool-{call_id}',
            args={'tag': self._text('C', author, call_id, call_id)},
        )
    )

  def _response_part(self, call_id: str, with_id: bool) -> types.Part:
    self.call_invocations[call_id].add(self.invocation)
    owner = self.call_authors[call_id]
    return types.Part(
        function_response=types.FunctionResponse(
            id=call_id if with_id else None,
            name=f'tool-{call_id}',
            response={'tag': self._text('R', owner, call_id, call_id)},
        )
    )

  def tools(
      self, author: str, count: int, with_text: bool, with_id: bool
  ) -> None:
    call_ids = [f'c{self._next()}' for _ in range(count)]
    parts = [self._call_part(author, c, with_id) for c in call_ids]
    if with_text:
      parts.insert(
          0, types.Part(text=self._text('K', author, call_ids[0], call_ids[0]))
      )
    self._add(author=author, content=types.Content(role='model', parts=parts))
    self._add(
        author=author,
        content=types.Content(
            role='user',
            parts=[self._response_part(c, with_id) for c in call_ids],
        ),
    )

  def long_running(self, author: str) -> None:
    call_id = f'c{self._next()}'
    self._add(
        author=author,
        content=types.Content(
            role='model', parts=[self._call_part(author, call_id, True)]
        ),
        long_running_tool_ids={call_id},
    )
    self.long_running_ids.add(call_id)
    self.pending.append(call_id)

  def resume(self, count: int, with_text: bool, new_invocation: bool) -> None:
    answered, self.pending = self.pending[:count], self.pending[count:]
    if not answered:
      return
    if new_invocation:
      self.invocation = f'inv-{self._next()}'
    parts = [self._response_part(c, True) for c in answered]
    if with_text:
      parts.append(types.Part(text=self._text('U', 'user', str(self._next()))))
    self._add(author='user', content=types.Content(role='user', parts=parts))

  def summary(self, first_turn: int, last_turn: int) -> None:
    # Ranges start and end on turn boundaries, the way the app's compactor
    # keeps tool calls and their results together.
    starts = self.turn_starts + [len(self.events)]
    first, last = sorted((first_turn % len(starts), last_turn % len(starts)))
    if last <= first:
      return
    covered = [
        e
        for e in self.events[starts[first] : starts[last]]
        if not (e.actions and e.actions.compaction)
    ]
    if not covered:
      return
    self._add(
        author='user',
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=covered[0].timestamp,
                end_timestamp=covered[-1].timestamp,
                compacted_content=types.Content(
                    role='model',
                    parts=[types.Part(text=f'summary {self._next()}')],
                ),
            )
        ),
    )

  def end_turn(self) -> None:
    # A long-running call nobody answers stays pending; later turns must not
    # post its result, or a summary could separate the two.
    self.pending = []


_agents = st.sampled_from(_AGENTS)
_action = st.one_of(
    st.tuples(st.just('reply'), _agents, st.booleans()),
    st.tuples(
        st.just('tools'),
        _agents,
        st.integers(1, 3),
        st.booleans(),
        st.booleans(),
    ),
    st.tuples(st.just('long_running'), _agents),
    st.tuples(
        st.just('resume'), st.integers(1, 3), st.booleans(), st.booleans()
    ),
    st.tuples(st.just('summary'), st.integers(0, 9), st.integers(0, 9)),
)
_turns = st.lists(
    st.tuples(st.booleans(), st.lists(_action, max_size=5)),
    min_size=1,
    max_size=6,
)
_filters = st.lists(
    st.sampled_from(('user', 'self') + _AGENTS), min_size=1, max_size=4
)


def _build(turns) -> _Generated:
  builder = _Builder()
  for starts_with_user, actions in turns:
    if starts_with_user:
      builder.user()
    for action in actions:
      getattr(builder, action[0])(*action[1:])
    builder.end_turn()
  return _Generated(
      builder.events,
      builder.markers,
      builder.call_invocations,
      builder.call_authors,
      builder.long_running_ids,
  )


def _request_views(events, source_filter):
  """Yields the request contents every include_contents mode builds."""
  yield _get_contents(
      None,
      events,
      _SELF,
      preserve_function_call_ids=True,
      source_filter=source_filter,
  )
  for from_latest_user_message in (False, True):
    yield _get_current_turn_contents(
        None,
        events,
        _SELF,
        preserve_function_call_ids=True,
        source_filter=source_filter,
        from_latest_user_message=from_latest_user_message,
    )


def _rendered(contents: list[types.Content]) -> str:
  chunks = []
  for content in contents:
    for part in content.parts or []:
      if part.text:
        chunks.append(part.text)
      if part.function_call:
        chunks.append(str(part.function_call.args))
      if part.function_response:
        chunks.append(str(part.function_response.response))
  return '\n'.join(chunks)


def _allowed_authors(source_filter: list[str]) -> set[str]:
  return {_SELF if name == 'self' else name for name in source_filter}


_SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@_SETTINGS
@given(turns=_turns, source_filter=_filters)
def test_no_orphaned_call_or_response(turns, source_filter):
  generated = _build(turns)

  for contents in _request_views(generated.events, source_filter):
    call_ids, response_ids = set(), set()
    for content in contents:
      for part in content.parts or []:
        if part.function_call and part.function_call.id:
          call_ids.add(part.function_call.id)
        if part.function_response and part.function_response.id:
          response_ids.add(part.function_response.id)
    assert response_ids <= call_ids
    assert call_ids - response_ids <= generated.long_running_ids


@_SETTINGS
@given(turns=_turns, source_filter=_filters)
def test_no_text_from_an_excluded_source(turns, source_filter):
  generated = _build(turns)
  allowed = _allowed_authors(source_filter)

  for contents in _request_views(generated.events, source_filter):
    for match in _MARKER.finditer(_rendered(contents)):
      marker = generated.markers[match.group(0)]
      assert marker.source in allowed or (
          marker.source == _SELF and generated.in_flight(marker.call_id)
      ), match.group(0)


@_SETTINGS
@given(turns=_turns, source_filter=_filters)
def test_typed_user_messages_survive_a_filter_with_user(turns, source_filter):
  generated = _build(turns)
  with_user = source_filter + ['user']

  unfiltered = _rendered(_get_contents(None, generated.events, _SELF))
  filtered = _rendered(
      _get_contents(None, generated.events, _SELF, source_filter=with_user)
  )

  for match in _MARKER.finditer(unfiltered):
    if match.group(1) == 'U':
      assert match.group(0) in filtered
  # Every generated summary starts at a user turn, so each one covers a
  # message the user typed and must survive.
  for summary in re.findall(r'summary \d+', unfiltered):
    assert summary in filtered


@_SETTINGS
@given(turns=_turns)
def test_none_and_every_source_equal_the_unfiltered_request(turns):
  generated = _build(turns)
  every_source = ['user', 'self', *_PEERS]

  unfiltered = list(_request_views(generated.events, None))
  assert list(_request_views(generated.events, every_source)) == unfiltered
  assert _get_contents(None, generated.events, _SELF) == unfiltered[0]
  assert (
      _get_current_turn_contents(None, generated.events, _SELF) == unfiltered[1]
  )
