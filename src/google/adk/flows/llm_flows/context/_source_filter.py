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
``include_sources`` decides whose messages it sees. ``_get_contents`` applies
the filter to events after rewind, branch, isolation, compaction and
transcription handling, and before other agents' messages are recast as user
context, so identity always comes from event metadata and never from the
"[agent] said:" text.

Sources:

| Entry      | Matches                                                       |
| ---------- | ------------------------------------------------------------- |
| ``'user'`` | Events authored ``user`` that the human typed. A tool result  |
|            | the client posted back belongs to the call it answers.        |
| ``'self'`` | The agent's own model turns and tool traffic, including its   |
|            | events from a live (bidi) session.                            |
| agent name | Events whose author is that agent, and the results of the     |
|            | tools it called.                                              |

Rules beyond the table:

* A function call belongs to its event's author. A function response belongs
  to the source of the call it answers, found by call id (the latest earlier
  call with that id, since ids can repeat), and to its event's author when it
  has no id or answers no call in the history. A call and its responses are
  therefore always kept or dropped together. An event that answers calls from
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
* A workflow node's input is always kept. The ``Workflow`` hands it to an
  LlmAgent node as a user-authored event stamped with the node's path; it is
  the node's task rather than anyone's message, much like the task input of an
  isolated agent, and whatever produced it (the user or an upstream node) is
  not recorded on it. Dropping it would leave a node with nothing to work on.
* The current invocation is that of the newest event in the history that has
  one. The runner stores the new message (or posted-back tool result) under
  the new invocation id before any agent runs, so this is the invocation being
  served without threading its id through every caller.
* A compaction summary stands in for the events it covers, so it belongs to
  all of their sources. It is kept, as the summary, when any covered event
  would have been kept, and dropped only when every covered event came from an
  excluded source. Attributing it to the agent being served (as the unfiltered
  request does) would drop the user's earlier messages from an agent without
  ``'self'``; expanding it back into the raw events would hand the agent a
  dropped peer's text verbatim and undo the compaction the app configured. The
  summary is a paraphrase and may still mention what a dropped peer found.
* With ``include_contents='none'`` or ``'current'``, the turn boundary is
  searched among allowed sources first (see ``TurnStartSearch``).

``None`` disables all of this, and an explicit list that names every source in
the history gives the same result as ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.genai import types

from ....agents._include_sources import SELF_SOURCE
from ....agents._include_sources import USER_SOURCE
from ....agents._include_sources import validate_include_sources
from ....events.event import Event

# A function call, named by the index of its event in the visible history and
# its call id.
_CallKey = tuple[int, str]


def _allowed_authors(source_filter: Sequence[str], agent_name: str) -> set[str]:
  """Maps ``include_sources`` entries onto the event authors they admit."""
  authors = set(validate_include_sources(source_filter) or ())
  if SELF_SOURCE in authors:
    authors.discard(SELF_SOURCE)
    if agent_name:
      authors.add(agent_name)
  return authors


def _is_node_input(event: Event) -> bool:
  """Whether the event is the input a workflow handed to this node."""
  node_info = getattr(event, 'node_info', None)
  return bool(
      event.author == USER_SOURCE
      and getattr(node_info, 'path', None)
      and not event.get_function_responses()
  )


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
      source_filter: The ``include_sources`` entries.
      agent_name: The name of the agent the request is built for.
      history: All events the request is built from, used to find the current
        invocation.
      visible_events: The events left after rewind, branch and isolation
        filtering and before compaction. Calls are matched to responses here
        and compaction summaries are attributed from here.
    """
    self._agent_name = agent_name
    self._allowed = _allowed_authors(source_filter, agent_name)
    self._invocation_id = _current_invocation_id(history)
    self._visible_events = visible_events
    self._event_index: dict[int, int] = {}
    # (id(response event), call id) -> the call that response answers.
    self._answered_call: dict[tuple[int, str], _CallKey] = {}
    self._in_flight_calls: set[_CallKey] = set()

    latest_call: dict[str, _CallKey] = {}
    for index, event in enumerate(visible_events):
      self._event_index[id(event)] = index
      if not event.content or not event.content.parts:
        continue
      is_current = event.invocation_id == self._invocation_id
      for part in event.content.parts:
        if response := part.function_response:
          call = latest_call.get(response.id) if response.id else None
          if call is None:
            continue
          self._answered_call[id(event), response.id] = call
          if is_current and self._is_own_call(call):
            self._in_flight_calls.add(call)
        elif (call_part := part.function_call) and call_part.id:
          call = (index, call_part.id)
          latest_call[call_part.id] = call
          if is_current and event.author == agent_name:
            self._in_flight_calls.add(call)

  def _is_own_call(self, call: _CallKey) -> bool:
    return self._visible_events[call[0]].author == self._agent_name

  def _call_of_part(self, event: Event, part: types.Part) -> _CallKey | None:
    """Returns the call a call or response part belongs to, if it has an id."""
    if (call := part.function_call) and call.id:
      index = self._event_index.get(id(event))
      return None if index is None else (index, call.id)
    if (response := part.function_response) and response.id:
      return self._answered_call.get((id(event), response.id))
    return None

  def _owner(self, event: Event, part: types.Part) -> str:
    """Returns the author a part is attributed to."""
    if part.function_response and (call := self._call_of_part(event, part)):
      return self._visible_events[call[0]].author
    return event.author

  def _is_in_flight(self, event: Event, part: types.Part) -> bool:
    """Whether a tool part belongs to the agent's current tool loop."""
    if not (part.function_call or part.function_response):
      return False
    call = self._call_of_part(event, part)
    if call is not None:
      return call in self._in_flight_calls
    return (
        event.author == self._agent_name
        and event.invocation_id == self._invocation_id
    )

  def _keeps_part(self, event: Event, part: types.Part) -> bool:
    owner = self._owner(event, part)
    if owner in self._allowed:
      return True
    return owner == self._agent_name and self._is_in_flight(event, part)

  def _kept_parts(self, event: Event) -> list[types.Part] | None:
    """Returns the parts to keep, or None to keep the event unchanged."""
    parts = event.content.parts if event.content else None
    if not parts:
      return None if event.author in self._allowed else []
    if event.author == self._agent_name and any(
        self._is_in_flight(event, part) for part in parts
    ):
      return None
    kept = [part for part in parts if self._keeps_part(event, part)]
    return None if len(kept) == len(parts) else kept

  def _keeps_summary(self, summary: Event) -> bool:
    """Whether any event a compaction summary covers may be seen."""
    compaction = summary.actions.compaction
    start, end = compaction.start_timestamp, compaction.end_timestamp
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

  def admit(self, event: Event) -> Event | None:
    """Returns the event as the agent may see it, or None to drop it.

    Args:
      event: An event about to be added to the request, with transcriptions
        already turned into content.

    Returns:
      The event itself, a copy holding only the parts the agent may see, or
      None when it may see none of it.
    """
    if event.actions and event.actions.compaction:
      return event if self._keeps_summary(event) else None
    if _is_node_input(event):
      return event
    kept = self._kept_parts(event)
    if kept is None:
      return event
    if not kept:
      return None
    trimmed = event.model_copy()
    trimmed.content = event.content.model_copy(update={'parts': kept})
    return trimmed


def build_source_filter(
    source_filter: Sequence[str] | None,
    agent_name: str,
    *,
    history: Sequence[Event],
    visible_events: Sequence[Event],
) -> SourceFilter | None:
  """Returns the filter for one request, or None when nothing is filtered.

  Args:
    source_filter: The agent's ``include_sources``; None disables filtering.
    agent_name: The name of the agent the request is built for.
    history: All events the request is built from.
    visible_events: The events left after rewind, branch and isolation
      filtering and before compaction.

  Returns:
    A ``SourceFilter``, or None when ``source_filter`` is None.

  Raises:
    ValueError: If ``source_filter`` is not a valid ``include_sources`` value.
  """
  if source_filter is None:
    return None
  return SourceFilter(
      source_filter,
      agent_name,
      history=history,
      visible_events=visible_events,
  )


class TurnStartSearch:
  """Picks where the current turn starts for ``include_contents`` modes.

  The caller walks the history from newest to oldest and offers each event
  that could start a turn: a message the user typed, or another agent's reply.
  Candidates are ranked, and the search stops at the first of the best rank:

  * ``'none'``: a message from an allowed source, else (rank 1) the newest
    candidate regardless of source. With ``['user']`` this is the latest user
    message, not a later reply from a peer the agent cannot see, so the
    request is never empty for lack of a boundary.
  * ``'current'``: the latest user message if ``'user'`` is allowed, else
    (rank 1) the latest user message anyway: the current invocation starts
    there whatever the agent may see of it. Only when no user message is
    visible at all (an isolated task agent's scope holds none) does it fall
    back (rank 2) to the newest reply from another agent, as ``'none'`` would.

  A workflow node's input counts as allowed, since it is always kept. Without
  a source filter ``'none'`` stops at the first candidate, exactly as before.
  The caller only offers events a turn can start at without cutting a tool
  call off from its posted-back result. Branches and transfers need nothing
  special: only events visible on the agent's branch are offered, and a
  transfer is never a candidate, so after a transfer the turn still starts at
  the user's message and the transfer is kept as context (subject to the
  filter, like any other message from the agent that made it).
  """

  def __init__(
      self,
      agent_name: str,
      source_filter: Sequence[str] | None,
      *,
      from_latest_user_message: bool,
  ):
    self._allowed = (
        None
        if source_filter is None
        else _allowed_authors(source_filter, agent_name)
    )
    self._from_latest_user_message = from_latest_user_message
    self._best_rank: int | None = None
    self.index: int | None = None
    """Index of the event the turn starts at, or None if none was offered."""

  def _rank(self, event: Event) -> int:
    is_allowed = (
        self._allowed is None
        or event.author in self._allowed
        or _is_node_input(event)
    )
    if not self._from_latest_user_message:
      return 0 if is_allowed else 1
    if event.author != USER_SOURCE:
      return 2
    return 0 if is_allowed else 1

  def offer(self, index: int, event: Event) -> bool:
    """Considers a candidate turn start.

    Args:
      index: The candidate's index in the history being searched.
      event: The candidate event.

    Returns:
      True when the search is over and the turn starts at ``index``.
    """
    rank = self._rank(event)
    if self._best_rank is None or rank < self._best_rank:
      self._best_rank = rank
      self.index = index
    return rank == 0
