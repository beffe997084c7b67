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

"""Filters an agent's request history by source (``include_sources``).

``include_contents`` decides how far back an agent's model looks;
``include_sources`` decides whose messages it sees. It is a history filter
(``include_sources_filter``, of the ``LlmAgent.history_filter`` type), which
``_get_contents`` runs after the agent's own ``history_filter``, on the events
that one kept: after rewind, branch and isolation filtering, before
compaction, the merging of transcriptions and the recasting of other agents'
messages as user context, so identity always comes from event metadata and
never from the "[agent] said:" text.

Sources: ``'user'`` matches what the human typed (a tool result the client
posted back belongs to the call it answers); ``'self'`` the agent's own model
turns and tool traffic, live (bidi) sessions included; an agent's name that
agent's events and the results of the tools it called. Beyond that:

* A function call belongs to its event's author. A function response belongs
  to the source of the call it answers: found by call id (the latest earlier
  call with that id, since ids can repeat), or, for a response without an id
  (a hand-built or imported history), the earliest unanswered earlier call of
  the same function that has no id either. A response that answers no call in
  the history belongs to its event's author. A call and its responses are
  therefore kept or dropped together. An event that answers calls from
  several sources is split per part.
* The in-flight tool loop is always kept: the agent's own calls, and their
  responses, where the call or a response belongs to the current invocation.
  Without this an agent with tools and ``['user']`` would never see the result
  of the call it just made and would make it again. A long-running call from
  an earlier invocation whose result arrives now counts as in flight, so the
  result is not lost. Such an event is kept whole (with any text beside the
  call), since dropping parts of a model turn can separate a call from the
  thought signature the model expects back. ``'self'`` governs everything
  else the agent said: its earlier invocations and its plain text replies.
* A workflow node's input belongs to the node that produced it, or to the
  user for the root workflow's input, as the workflow recorded it
  (``NodeInfo.input_from``). It reaches an LlmAgent node as
  a user-authored event, so without this a classifier's label would pass as a
  message the user typed. When the message the input repeats is in the
  history too, the input is dropped: the agent sees it once, as in a
  ``SequentialAgent``.
* The current invocation is that of the newest event that has one: the
  runner stores the new message under it before any agent runs.
* A compaction summary stands in for the events it covers, so it is kept when
  any covered event would be kept and dropped only when all came from excluded
  sources. Attributing it to the agent being served would drop the user's
  earlier messages from an agent without ``'self'``; expanding it would hand
  the agent a dropped peer's text verbatim and undo the app's compaction. The
  summary is a paraphrase and may still mention what a dropped peer found.
  A summary that compaction replaces by one containing it is dropped, so it
  never shows in the place of a dropped one.
* A live session's transcription fragments are judged one by one, before the
  request builder merges consecutive fragments into one message, as for any
  history filter: an excluded author's fragments never join a kept message,
  and two utterances that a dropped event separated become one message.

``None`` disables all of this, and an explicit list that names every source in
the history gives the same result as ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import Any
from typing import TYPE_CHECKING

from google.genai import types

from ....agents._include_sources import source_authors
from ....apps.compaction import _get_compaction_ranges
from ....events.event import Event
from ....workflow._node_input_record import is_node_input
from ....workflow._node_input_record import node_input_source

if TYPE_CHECKING:
  from ....agents.llm_agent import HistoryFilter

# A function call or response, named by the index of its event in the visible
# history and the index of the part within the event.
_PartKey = tuple[int, int]


def _current_invocation_id(events: Sequence[Event]) -> str:
  """Returns the invocation of the newest event that belongs to one."""
  for event in reversed(events):
    if event.invocation_id:
      return event.invocation_id
  return ''


class SourceFilter:
  """Decides which events, and which of their parts, an agent may see."""

  def __init__(
      self,
      source_filter: Sequence[str],
      agent_name: str,
      *,
      history: Sequence[Event],
      visible_events: Sequence[Event],
  ):
    """Indexes the history once so each event can be judged on its own.

    Args:
      source_filter: The ``include_sources`` entries, already validated.
      agent_name: The name of the agent the request is built for.
      history: All events the request is built from.
      visible_events: The events left after rewind, branch and isolation
        filtering, before compaction: calls, responses and what a summary
        covers are found here.
    """
    self._agent_name = agent_name
    self._allowed = source_authors(source_filter, agent_name)
    self._invocation_id = _current_invocation_id(history)
    self._visible_events = visible_events
    self._event_index: dict[int, int] = {}
    # (id(response event), part index) -> the call that response answers.
    self._answered_call: dict[tuple[int, int], _PartKey] = {}
    self._in_flight_calls: set[_PartKey] = set()
    # The visible events that hold a call or a response (by object id).
    self._tool_events: set[int] = set()
    # The visible events decided by their author alone, without reading them
    # again: every part is the author's and none can be in flight (no tool
    # part, or another agent's calls and the responses to them), and the
    # event is neither a compaction summary nor a node input.
    self._whole_events: set[int] = set()
    # The visible summaries compaction does not show, found when first asked.
    self._superseded: set[int] | None = None

    latest_call_by_id: dict[str, _PartKey] = {}
    # Calls without an id, by function name, oldest first: an id-less
    # response answers the earliest of them that is still unanswered.
    unanswered_by_name: dict[str, list[_PartKey]] = {}
    for index, event in enumerate(visible_events):
      self._event_index[id(event)] = index
      if not event.content or not event.content.parts:
        continue
      is_current = event.invocation_id == self._invocation_id
      has_tool_part = False
      # Whether a response answers a call of another author.
      answers_another = False
      for part_index, part in enumerate(event.content.parts):
        if response := part.function_response:
          has_tool_part = True
          if response.id:
            call = latest_call_by_id.get(response.id)
          else:
            pending = unanswered_by_name.get(response.name or '')
            call = pending.pop(0) if pending else None
          if call is None:
            continue
          self._answered_call[id(event), part_index] = call
          if self._call_owner(event, part, call) != event.author:
            answers_another = True
          if is_current and self._is_own_call(call):
            self._in_flight_calls.add(call)
        elif function_call := part.function_call:
          has_tool_part = True
          call = (index, part_index)
          if function_call.id:
            latest_call_by_id[function_call.id] = call
          else:
            unanswered_by_name.setdefault(function_call.name or '', []).append(
                call
            )
          if is_current and event.author == agent_name:
            self._in_flight_calls.add(call)
      if has_tool_part:
        self._tool_events.add(id(event))
        if answers_another or event.author == agent_name:
          continue
      if not (
          (event.actions and event.actions.compaction) or is_node_input(event)
      ):
        self._whole_events.add(id(event))

  def _is_own_call(self, call: _PartKey) -> bool:
    return self._visible_events[call[0]].author == self._agent_name

  def _call_of_part(
      self, event: Event, part_index: int, part: types.Part
  ) -> _PartKey | None:
    """Returns the call a call or response part belongs to, if known."""
    if part.function_call:
      index = self._event_index.get(id(event))
      return None if index is None else (index, part_index)
    if part.function_response:
      return self._answered_call.get((id(event), part_index))
    return None

  def _owner(self, event: Event, part_index: int, part: types.Part) -> str:
    """Returns the author a part is attributed to."""
    return self._call_owner(
        event, part, self._call_of_part(event, part_index, part)
    )

  def _call_owner(
      self, event: Event, part: types.Part, call: _PartKey | None
  ) -> str:
    """`_owner` of a part, given what `_call_of_part` returned for it."""
    if part.function_response and call:
      return self._visible_events[call[0]].author
    return event.author

  def _is_in_flight(
      self, event: Event, part_index: int, part: types.Part
  ) -> bool:
    """Whether a tool part belongs to the agent's current tool loop."""
    if not (part.function_call or part.function_response):
      return False
    return self._call_in_flight(
        event, self._call_of_part(event, part_index, part)
    )

  def _call_in_flight(self, event: Event, call: _PartKey | None) -> bool:
    """`_is_in_flight` of a tool part, given what `_call_of_part` returned."""
    if call is not None:
      return call in self._in_flight_calls
    return (
        event.author == self._agent_name
        and event.invocation_id == self._invocation_id
    )

  def _keeps_part(
      self, event: Event, part_index: int, part: types.Part
  ) -> bool:
    owner = self._owner(event, part_index, part)
    if owner in self._allowed:
      return True
    return owner == self._agent_name and self._is_in_flight(
        event, part_index, part
    )

  def _kept_parts(self, event: Event) -> list[types.Part] | None:
    """Returns the parts to keep, or None to keep the event unchanged."""
    parts = event.content.parts if event.content else None
    if not parts or id(event) in self._whole_events:
      return None if event.author in self._allowed else []
    if event.author == self._agent_name and any(
        self._is_in_flight(event, index, part)
        for index, part in enumerate(parts)
    ):
      return None
    kept = [
        part
        for index, part in enumerate(parts)
        if self._keeps_part(event, index, part)
    ]
    return None if len(kept) == len(parts) else kept

  def _keeps_summary(self, summary: Event) -> bool:
    """Whether any event a compaction summary covers may be seen."""
    compaction = summary.actions.compaction
    if compaction is None:
      return True
    if id(summary) in self._superseded_summaries():
      # Compaction shows the summary that contains it instead; kept, it would
      # show in that summary's place when the sources drop that one.
      return False
    start, end = compaction.start_timestamp, compaction.end_timestamp
    if start is None or end is None:
      # A summary that does not say what it covers cannot be attributed;
      # keep it, as the unfiltered request would.
      return True
    covers_any = False
    for event in self._visible_events:
      if event.actions and event.actions.compaction:
        continue
      if not start <= event.timestamp <= end:
        continue
      covers_any = True
      if self._kept_parts(event) != []:
        return True
    # Nothing to attribute it to (the covered events are gone): keep it, as
    # the unfiltered request would.
    return not covers_any

  def _superseded_summaries(self) -> set[int]:
    """The visible summaries compaction leaves out for one containing them."""
    if self._superseded is None:
      retained = {
          index
          for index, _, _ in _get_compaction_ranges(list(self._visible_events))
      }
      self._superseded = {
          id(event)
          for index, event in enumerate(self._visible_events)
          if event.actions
          and event.actions.compaction
          and index not in retained
      }
    return self._superseded

  def _keeps_node_input(self, event: Event) -> bool:
    recorded = node_input_source(event)
    if recorded is None:
      # The workflow records the source of every node input; an input event
      # built some other way is kept, as the node's task.
      return True
    if recorded.source not in self._allowed:
      return False
    # The input repeats a message the agent sees anyway: show it once, as
    # that message. A message of a source it does not see is no repeat.
    copied = recorded.copied_event_id
    return copied is None or not any(
        visible.id == copied and visible.author in self._allowed
        for visible in self._visible_events
    )

  def admit(self, event: Event) -> Event | None:
    """Returns the event as the agent may see it, or None to drop it.

    Args:
      event: An event about to be added to the request, with transcriptions
        already turned into content.

    Returns:
      The event itself, a copy holding only the parts the agent may see, or
      None when it may see none of it.
    """
    if id(event) in self._whole_events:
      return event if event.author in self._allowed else None
    if event.actions and event.actions.compaction:
      return event if self._keeps_summary(event) else None
    if is_node_input(event):
      return event if self._keeps_node_input(event) else None
    return _with_parts(event, self._kept_parts(event))


def _with_parts(event: Event, kept: list[types.Part] | None) -> Event | None:
  """The event with only the `kept` parts (None: all of them), or None when
  none is kept."""
  if kept is None:
    return event
  if not kept or event.content is None:
    return None
  trimmed = event.model_copy()
  trimmed.content = event.content.model_copy(update={'parts': kept})
  return trimmed


def cuts_to_node_path(is_single_turn: bool, source_filter: object) -> bool:
  """Whether a single-turn node's history is cut to its own node path.

  A ``single_turn`` node sees only its own path's events, so peers' work stays
  out of its request. ``include_sources`` is the agent's own statement of
  whose messages it sees, so when it is set (``source_filter`` is not None)
  the sources decide: a peer it names is seen although the cut would hide it.
  """
  return is_single_turn and source_filter is None


def build_source_filter(
    source_filter: Sequence[str] | None,
    agent_name: str,
    *,
    history: Sequence[Event],
    visible_events: Sequence[Event],
) -> SourceFilter | None:
  """Returns the filter for one request, or None when nothing is filtered.

  ``source_filter`` is the agent's ``include_sources``; the other arguments
  are those of ``SourceFilter``.

  Raises:
    ValueError: If ``source_filter`` is a bare string. The field is validated
      when the agent is built; this catches a string assigned afterwards,
      which would otherwise be read as one source per character.
  """
  if source_filter is None:
    return None
  if isinstance(source_filter, str):
    raise ValueError(
        'include_sources must be a list of source names, not the string'
        f' {source_filter!r}. Write include_sources=[{source_filter!r}].'
    )
  return SourceFilter(
      source_filter,
      agent_name,
      history=history,
      visible_events=visible_events,
  )


def include_sources_filter(
    sources: Any,
    agent_name: str,
    *,
    history: Sequence[Event] | None = None,
    build: Callable[..., Any] = build_source_filter,
) -> HistoryFilter:
  """Returns ``include_sources`` as an ``LlmAgent.history_filter``.

  Args:
    sources: The agent's ``include_sources`` entries.
    agent_name: The name of the agent the request is built for.
    history: All events the request is built from, where the current
      invocation is read; None reads it from the events the filter is given.
    build: Makes the filter of one request from the events it is given.

  Returns:
    A function given the events a request history would be built from that
    returns those the sources admit: each event itself, a copy holding only
    the parts the agent may see, or nothing.
  """

  def keep_admitted(events: list[Event]) -> list[Event]:
    events = list(events)
    source_filter = build(
        sources,
        agent_name,
        history=events if history is None else history,
        visible_events=events,
    )
    kept = []
    for event in events:
      admitted = source_filter.admit(event)
      if admitted is not None:
        kept.append(admitted)
    return kept

  return keep_admitted


def with_include_sources(
    history_filter: HistoryFilter | None,
    sources: Any,
    agent_name: str,
    *,
    history: Sequence[Event],
    build: Callable[..., Any] = build_source_filter,
) -> HistoryFilter | None:
  """The app's ``history_filter``, then ``include_sources`` on what it kept.

  The app's filter comes first because it is the general one: the sources
  judge only the events it chose (a window counts those), and the app's
  filter is given the events it would be given without ``include_sources``.
  """
  if sources is None:
    return history_filter
  keep_sources = include_sources_filter(
      sources, agent_name, history=history, build=build
  )
  if history_filter is None:
    return keep_sources
  app_filter = history_filter
  return lambda events: keep_sources(list(app_filter(events)))
