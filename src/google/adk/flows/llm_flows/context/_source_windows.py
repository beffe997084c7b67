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

"""Source windows, ``'*'`` and ``exclude_sources`` in the request history.

``SourceWindow`` entries say how much of a source an agent's model sees, and
``'*'`` / ``exclude_sources`` admit every source but some (see
``google.adk.agents._source_window`` for the settings). This module applies
them on top of ``_source_filter.SourceFilter``, whose rules all still hold;
a plain ``include_sources`` list never reaches it, so its requests are built
exactly as before.

An *item* of a source is one event of that source in the agent's visible
history, with two exceptions:

* A function call and all its responses form one item: a response belongs to
  the source of the call it answers (``SourceFilter._owner``), and it is
  counted with the event that holds the call. The window then keeps or drops
  the call and its responses together, so a model never gets a call without
  its result, or a result without its call, because a window ended between
  them.
* Consecutive transcription fragments of a live session form one item, as
  the request builder merges them into one message: a window of
  ``last=1`` means the last utterance, not its last few words.

A *final answer* of a source is an event of it that is complete (not a
streamed fragment), holds at least one non-thought text part and no function
call or response; its thought parts are dropped.
``final_answers_only`` keeps only those, and ``last``/``first`` then count
final answers. A peer's tool traffic is its working, not its answer to the
team, and streamed fragments repeat the final text.

Rules, each with its reason:

* Windows are computed once per request from the visible events (after
  rewind, branch and isolation filtering, before compaction), so an item
  compacted into a summary still counts: a window means the same with or
  without compaction.
* The agent's in-flight tool loop (``SourceFilter``'s rule) is always kept,
  whatever a ``'self'`` window says, and does not count against it: a window
  of ``last=1`` on ``'self'`` would otherwise drop the call the model just
  made and it would make it again.
* The turn boundary of ``include_contents='none'`` and ``'current'`` is
  searched among admitted sources (a windowed source is admitted; with
  ``'*'``, every source not excluded), and windows are then counted within
  the turn. A window never moves the boundary, so the turn is the same with
  or without one.
* A compaction summary is kept when any event it covers would be kept with
  the windows applied, as ``SourceFilter`` decides without windows.
* A workflow node's input is an item of the node that produced it. When it
  repeats a message in the history (the user's message, the predecessor's
  reply), it is the same item as that message, so the repeat rule keeps the
  message once and the window counts it once.
* ``'*'`` admits every author not excluded, including agents added to the
  tree after the agent was written. ``exclude_sources`` wins for any author
  it names (naming a source in both is an error at construction).

The count is one more walk over the visible events, after
``SourceFilter``'s index, and it records each event's items so that `admit`
only looks them up. Every dropped item is one fewer message to recast and
copy, so from about ten turns of a multi-agent session on a windowed request
is cheaper to build than the unfiltered one; before that, the filter's code
and its two walks cost some tens of microseconds more than the few dropped
messages save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.genai import types

from . import _source_filter
from ....agents._source_window import SourcePolicy
from ....agents._source_window import SourceSetting
from ....agents._source_window import SourceWindow
from ....events.event import Event
from ....workflow._node_input_record import is_node_input
from ....workflow._node_input_record import node_input_source
from ._source_filter import SourceFilter
from ._turn_start_current import TurnStartSearch

# An item of a source: its name and the index of the item's anchor event.
_Item = tuple[str, int]


def is_final_answer(event: Event) -> bool:
  """Whether an event is a final answer of its source (see the module)."""
  if event.partial:
    return False
  has_text = False
  for part in (event.content.parts if event.content else None) or ():
    if part.function_call or part.function_response:
      return False
    if part.text and not part.thought:
      has_text = True
  return has_text


def _transcript_kind(event: Event) -> str | None:
  if event.content:
    return None
  if event.input_transcription and event.input_transcription.text:
    return 'input'
  if event.output_transcription and event.output_transcription.text:
    return 'output'
  return None


def _window_items(items: list[int], window: SourceWindow) -> set[int]:
  """The items (oldest first) a window keeps."""
  if window.first is None and window.last is None:
    return set(items)
  kept: set[int] = set()
  if window.first:
    kept.update(items[: window.first])
  if window.last:
    kept.update(items[max(0, len(items) - window.last) :])
  return kept


class WindowedSourceFilter(SourceFilter):
  """A ``SourceFilter`` that also applies windows, ``'*'`` and exclusions."""

  def __init__(
      self,
      policy: SourcePolicy,
      agent_name: str,
      *,
      history: Sequence[Event],
      visible_events: Sequence[Event],
  ):
    super().__init__(
        (), agent_name, history=history, visible_events=visible_events
    )
    # A container: `author in self._allowed`, as the base class asks it.
    self._allowed = policy.admitted(agent_name)  # type: ignore[assignment]
    self._windows = policy.windows_by_author(agent_name)
    # Per windowed author, the items (by the index of their anchor event) the
    # windows keep.
    self._kept_items: dict[str, set[int]] = {}
    # Anchors of events the request sees as copies: merged transcriptions
    # (by event id) and node inputs that repeat a message (by object id).
    self._anchor_by_event_id: dict[str, int] = {}
    self._node_input_anchor: dict[int, int] = {}
    # Visible events by event id, made when a node input first needs it.
    self._index_by_event_id: dict[str, int] | None = None
    # What the count learned of each visible event with parts, so `admit`
    # looks it up instead of working it out again: id(event) -> the item all
    # its parts belong to, (owner, anchor), when it holds no tool part; else
    # a list with each part's item, or None for the agent's in-flight tool
    # loop.
    self._event_items: dict[int, _Item | list[_Item | None]] = {}
    if self._windows:
      self._count_items()

  def _count_items(self) -> None:
    """Lists each windowed source's items once, then applies its window."""
    windows = self._windows
    items: dict[str, list[int]] = {author: [] for author in windows}
    counted: dict[str, set[int]] = {author: set() for author in windows}
    transcript: tuple[str, int] | None = None
    event_items = self._event_items
    tool_events = self._tool_events
    whole_events = self._whole_events

    def add(author: str, anchor: int, final: bool | Event) -> None:
      """Counts an item; `final` may be the event, to judge only if asked."""
      window = windows.get(author)
      if window is None or anchor in counted[author]:
        return
      if window.final_answers_only and not (
          is_final_answer(final) if isinstance(final, Event) else final
      ):
        return
      counted[author].add(anchor)
      items[author].append(anchor)

    for index, event in enumerate(self._visible_events):
      key = id(event)
      if key in whole_events and key not in tool_events:
        # The base class found it plain: content, no tool part, neither a
        # summary nor a node input.
        transcript = None
      else:
        if event.actions and event.actions.compaction:
          continue
        content = event.content
        if not content:
          kind = _transcript_kind(event)
          if kind is not None:
            if transcript is None or transcript[0] != kind:
              transcript = (kind, index)
            self._anchor_by_event_id[event.id] = transcript[1]
            add(event.author, transcript[1], True)
            continue
        transcript = None
        if is_node_input(event):
          anchor = self._node_input_item(index, event)
          if anchor is not None:
            add(anchor[0], anchor[1], event)
          continue
        parts = content.parts if content else None
        if not parts:
          continue
        if key in tool_events:
          part_items = self._tool_event_items(index, event, parts)
          event_items[key] = part_items
          for item in part_items:
            if item is not None:
              add(item[0], item[1], event)
          continue
      # Every part is its author's, and the event is the item: a new one, as
      # every anchor counted so far is of an earlier event.
      author = event.author
      event_items[key] = (author, index)
      window = windows.get(author)
      if window is not None and (
          not window.final_answers_only or is_final_answer(event)
      ):
        counted[author].add(index)
        items[author].append(index)
    for author, window in windows.items():
      self._kept_items[author] = _window_items(items[author], window)

  def _node_input_item(self, index: int, event: Event) -> _Item | None:
    """The item of a node input: its producer's, anchored at the message it
    repeats when that message is in the history."""
    recorded = node_input_source(event)
    if recorded is None:
      return None
    anchor = index
    copied = recorded.copied_event_id
    if copied is not None:
      if self._index_by_event_id is None:
        self._index_by_event_id = {}
        for earlier, visible in enumerate(self._visible_events):
          if visible.id:
            self._index_by_event_id[visible.id] = earlier
      found = self._index_by_event_id.get(copied)
      if found is not None and found <= index:
        anchor = found
      elif found is not None:
        # A later event reuses the id: the message is the latest one before.
        anchor = next(
            (
                earlier
                for earlier in range(index, -1, -1)
                if self._visible_events[earlier].id == copied
            ),
            index,
        )
    self._node_input_anchor[id(event)] = anchor
    return recorded.source, anchor

  def _tool_event_items(
      self, index: int, event: Event, parts: list[types.Part]
  ) -> list[_Item | None]:
    """The item of each part of an event that holds tool parts."""
    agent_name = self._agent_name
    author = event.author
    # (owner, anchor, in flight) per part: a tool part is its call's item.
    facts = []
    for part_index, part in enumerate(parts):
      if not (part.function_call or part.function_response):
        facts.append((author, index, False))
        continue
      call = self._call_of_part(event, part_index, part)
      facts.append((
          self._call_owner(event, part, call),
          index if call is None else call[0],
          self._call_in_flight(event, call),
      ))
    # An event of the agent's in-flight tool loop is kept whole, text and
    # all; only a tool part of another event can still belong to it.
    whole = author == agent_name and any(fact[2] for fact in facts)
    return [
        None
        if whole or (in_flight and owner == agent_name)
        else (owner, anchor)
        for owner, anchor, in_flight in facts
    ]

  def _is_own_in_flight(
      self, event: Event, part_index: int, part: types.Part
  ) -> bool:
    """Whether a part is the agent's in-flight tool loop (never windowed)."""
    if event.author == self._agent_name and any(
        self._is_in_flight(event, index, other)
        for index, other in enumerate(
            (event.content.parts if event.content else None) or ()
        )
    ):
      # An event with an in-flight call is kept whole, its text included.
      return True
    return self._owner(
        event, part_index, part
    ) == self._agent_name and self._is_in_flight(event, part_index, part)

  def _anchor(self, event: Event, part_index: int, part: types.Part) -> int:
    """The item a part belongs to: the index of the event that anchors it."""
    if part.function_response:
      call = self._answered_call.get((id(event), part_index))
      if call is not None:
        return call[0]
    index = self._event_index.get(id(event))
    if index is None:
      # A merged transcription is a copy of its last fragment.
      index = self._anchor_by_event_id.get(event.id, -1)
    return index

  def admit(self, event: Event) -> Event | None:
    items = self._event_items.get(id(event))
    if items is None:
      return super().admit(event)
    # A visible event the count saw: neither a summary nor a node input.
    return _source_filter._with_parts(event, self._parts_kept(event, items))

  def _kept_parts(self, event: Event) -> list[types.Part] | None:
    items = self._event_items.get(id(event))
    if items is not None:
      return self._parts_kept(event, items)
    anchor = self._anchor_by_event_id.get(event.id)
    if anchor is None or (event.content and event.content.parts):
      return super()._kept_parts(event)
    # A transcription fragment: the utterance it is part of is the item.
    owner = event.author
    if owner not in self._allowed:
      return []
    window = self._windows.get(owner)
    return None if window is None or anchor in self._kept_items[owner] else []

  def _parts_kept(
      self, event: Event, items: _Item | list[_Item | None]
  ) -> list[types.Part] | None:
    """`_kept_parts` of an event, from the items the count found for it."""
    parts = (event.content.parts if event.content else None) or []
    if isinstance(items, tuple):
      # The event is one item: all its parts go or stay, thoughts aside.
      owner, anchor = items
      if owner not in self._allowed:
        return []
      window = self._windows.get(owner)
      if window is None:
        return None
      if anchor not in self._kept_items[owner]:
        return []
      if not window.final_answers_only:
        return None
      kept = [part for part in parts if not part.thought]
    else:
      kept = [
          part
          for part, item in zip(parts, items)
          if self._keeps_item(item)
          and not (part.thought and self._answers_only(item))
      ]
    return None if len(kept) == len(parts) else kept

  def _keeps_item(self, item: _Item | None) -> bool:
    """Whether the windows keep an item (None: the in-flight tool loop)."""
    if item is None:
      return True
    owner, anchor = item
    if owner not in self._allowed:
      return False
    return owner not in self._windows or anchor in self._kept_items[owner]

  def _answers_only(self, item: _Item | None) -> bool:
    """Whether an item's source is windowed to its final answers."""
    window = self._windows.get(item[0]) if item else None
    return bool(window and window.final_answers_only)

  def _keeps_part(
      self, event: Event, part_index: int, part: types.Part
  ) -> bool:
    if not super()._keeps_part(event, part_index, part):
      return False
    owner = self._owner(event, part_index, part)
    window = self._windows.get(owner)
    if window is None or self._is_own_in_flight(event, part_index, part):
      return True
    if window.final_answers_only and part.thought:
      return False
    return self._anchor(event, part_index, part) in self._kept_items[owner]

  def _keeps_node_input(self, event: Event) -> bool:
    recorded = node_input_source(event)
    if recorded is not None and recorded.source in self._windows:
      anchor = self._node_input_anchor.get(id(event))
      if anchor not in self._kept_items[recorded.source]:
        return False
    return super()._keeps_node_input(event)


class WindowedTurnStartSearch(TurnStartSearch):
  """``TurnStartSearch`` that reads ``'*'`` and ``exclude_sources`` too."""

  def __init__(
      self,
      agent_name: str,
      source_filter: SourceSetting,
      *,
      from_latest_user_message: bool,
  ):
    if not isinstance(source_filter, SourcePolicy):
      super().__init__(
          agent_name,
          source_filter,
          from_latest_user_message=from_latest_user_message,
      )
      return
    super().__init__(
        agent_name, (), from_latest_user_message=from_latest_user_message
    )
    # Windows do not move the boundary: a windowed source is admitted.
    self._allowed = source_filter.admitted(agent_name)  # type: ignore[assignment]


def build_source_filter(
    source_filter: SourceSetting,
    agent_name: str,
    *,
    history: Sequence[Event],
    visible_events: Sequence[Event],
) -> Any:
  """``_source_filter.build_source_filter`` that also takes a policy.

  Args:
    source_filter: What ``source_policy_of`` returned for the agent: None,
      the plain ``include_sources`` list, or a ``SourcePolicy``.
    agent_name: The name of the agent the request is built for.
    history: All events the request is built from.
    visible_events: The events left after rewind, branch and isolation
      filtering and before compaction.
  """
  if isinstance(source_filter, SourcePolicy):
    return WindowedSourceFilter(
        source_filter,
        agent_name,
        history=history,
        visible_events=visible_events,
    )
  return _source_filter.build_source_filter(
      source_filter,
      agent_name,
      history=history,
      visible_events=visible_events,
  )


def with_include_sources(
    history_filter: Any,
    sources: SourceSetting,
    agent_name: str,
    *,
    history: Sequence[Event],
) -> Any:
  """``_source_filter.with_include_sources`` that also takes a policy."""
  return _source_filter.with_include_sources(
      history_filter,
      sources,
      agent_name,
      history=history,
      build=build_source_filter,
  )
