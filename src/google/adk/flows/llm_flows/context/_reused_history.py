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

"""An agent's request history, built at each call from what it built before.

`_get_contents` builds the whole history before every model call, though
between two calls of an agent the session only grew by a few events. For the
plain case (no `include_sources`, isolation scope or single-turn cut, and no
rewind, compaction or transcription in the session) `ReusedHistory` keeps,
per agent and session, what the build made of each event and the state of
its walk, and at the next call walks only the new events.

Nothing may change what the model is sent, so two things are checked at
every call, against private copies kept here:

- each earlier event still holds what the build read of it (author, branch,
  scope, node path, live session, long-running ids, the compaction and
  rewind marks, the transcriptions' presence, and its content, part by part).
  Any difference, an event edited in place or a session whose earlier events
  are not those seen, and the history is built again from the start;
- each content handed out with the previous request still equals what was
  built: a request processor, a callback or the model may have changed it,
  and such a content is copied again. The others are handed out again, the
  same objects, as they were not changed. Two requests of the agent in the
  same session in flight at once (two concurrent invocations of one session)
  therefore share those objects: a change one's callback makes reaches the
  other.

Whatever the walk cannot continue (a rewind, a compaction, a transcription
to merge, a call after its response, a tool's sub-branch, or responses that
need the rearranging) returns None, and the caller builds the history as
before.
"""

from __future__ import annotations

import collections
import dataclasses
from typing import Any
from typing import Optional

from google.genai import types

from . import _request_history
from ....events.event import Event
from ....utils._model_copy import deep_copy_model
from ._fencing import _is_other_agent_reply
from ._fencing import _present_other_agent_content

_MAX_HISTORIES = 64
# The walk's states kept to go back to, one at the start of each of the last
# turns: an event a session service stored and read back may differ in form
# from the one first seen (a content's role becomes a field set), which
# affects the last turn's events only.
_CHECKPOINTS = 4


@dataclasses.dataclass(frozen=True)
class _Seen:
  """What the build read of one event, kept to tell whether it changed."""

  author: str
  branch: Optional[str]
  isolation_scope: Optional[str]
  node_path: Optional[str]
  live_session_id: Optional[str]
  long_running_tool_ids: Optional[frozenset[str]]
  marks: tuple[bool, bool, bool, bool]
  content: Optional[types.Content]

  @classmethod
  def of(cls, event: Event) -> _Seen:
    content = event.content
    return cls(
        author=event.author,
        branch=event.branch,
        isolation_scope=getattr(event, 'isolation_scope', None),
        node_path=_node_path(event),
        live_session_id=event.live_session_id,
        long_running_tool_ids=_frozen(event.long_running_tool_ids),
        marks=_marks(event),
        content=None if content is None else deep_copy_model(content),
    )

  def holds(self, event: Event) -> bool:
    """Whether `event` still holds what was read of it."""
    return (
        event.author == self.author
        and event.branch == self.branch
        and getattr(event, 'isolation_scope', None) == self.isolation_scope
        and event.live_session_id == self.live_session_id
        and _node_path(event) == self.node_path
        and _frozen(event.long_running_tool_ids) == self.long_running_tool_ids
        and _marks(event) == self.marks
        and _same_content(event.content, self.content)
    )


def _node_path(event: Event) -> Optional[str]:
  node_info = getattr(event, 'node_info', None)
  return getattr(node_info, 'path', None) if node_info else None


def _frozen(ids: Any) -> Optional[frozenset[str]]:
  return None if ids is None else frozenset(ids)


def _marks(event: Event) -> tuple[bool, bool, bool, bool]:
  actions = event.actions
  return (
      bool(actions and actions.compaction),
      bool(actions and actions.rewind_before_invocation_id),
      event.input_transcription is None,
      event.output_transcription is None,
  )


def _same_content(
    content: Optional[types.Content], other: Optional[types.Content]
) -> bool:
  """Whether two contents are equal, comparing each part's fields at once.

  `==` on the contents gives the same answer, calling pydantic's `__eq__` for
  every part; each part's fields compared as a dict costs a fraction of it,
  and this runs for every event of the history at every model call.
  """
  if content is None or other is None:
    return content is other
  if (
      type(content) is not type(other)
      or content.role != other.role
      or content.__pydantic_fields_set__ != other.__pydantic_fields_set__
  ):
    return False
  parts, other_parts = content.parts, other.parts
  if parts is None or other_parts is None:
    return parts is other_parts
  if len(parts) != len(other_parts):
    return False
  for part, other_part in zip(parts, other_parts):
    if (
        type(part) is not type(other_part)
        or part.__dict__ != other_part.__dict__
        or part.__pydantic_fields_set__ != other_part.__pydantic_fields_set__
    ):
      return False
  return True


def _first_change(seen: list[_Seen], events: list[Event]) -> int | None:
  """The first event that does not hold what was seen of it, if any."""
  for index, (known, event) in enumerate(zip(seen, events)):
    if not known.holds(event):
      return index
  return None if len(events) >= len(seen) else len(events)


@dataclasses.dataclass(frozen=True)
class _Checkpoint:
  """The walk's state after its first `seen` events."""

  seen: int
  built: int
  call_authors: dict[str, str]
  answered: set[str]
  call_ids: set[str]
  settled_ids: set[str]
  paired: bool
  previous_calls: list[types.FunctionCall] | None


@dataclasses.dataclass
class _Built:
  """One content of the history: as built, and as last handed out."""

  built: types.Content
  handed: Optional[types.Content] = None


class ReusedHistory:
  """One agent's request history in one session, kept between its calls."""

  def __init__(self) -> None:
    self._settings: tuple[Any, ...] | None = None
    self._reset()

  def _reset(self) -> None:
    self._seen: list[_Seen] = []
    self._built: list[_Built] = []
    self._call_authors: dict[str, str] = {}
    self._answered: set[str] = set()
    self._call_ids: set[str] = set()
    self._settled_ids: set[str] = set()
    self._paired = True
    self._previous_calls: list[types.FunctionCall] | None = None
    self._checkpoints: list[_Checkpoint] = []

  def _checkpoint(self) -> None:
    """Notes the walk's state, to go back to if a later event changes."""
    self._checkpoints.append(
        _Checkpoint(
            seen=len(self._seen),
            built=len(self._built),
            call_authors=dict(self._call_authors),
            answered=set(self._answered),
            call_ids=set(self._call_ids),
            settled_ids=set(self._settled_ids),
            paired=self._paired,
            previous_calls=self._previous_calls,
        )
    )
    del self._checkpoints[:-_CHECKPOINTS]

  def _go_back(self, changed: int) -> None:
    """Forgets the walk from event `changed` on (back to a checkpoint)."""
    while self._checkpoints and self._checkpoints[-1].seen > changed:
      self._checkpoints.pop()
    if not self._checkpoints:
      self._reset()
      return
    checkpoint = self._checkpoints[-1]
    del self._seen[checkpoint.seen :]
    del self._built[checkpoint.built :]
    self._call_authors = dict(checkpoint.call_authors)
    self._answered = set(checkpoint.answered)
    self._call_ids = set(checkpoint.call_ids)
    self._settled_ids = set(checkpoint.settled_ids)
    self._paired = checkpoint.paired
    self._previous_calls = checkpoint.previous_calls

  def contents(
      self,
      current_branch: str | None,
      events: list[Event],
      agent_name: str,
      *,
      node_path: str | None,
      include_thoughts: bool,
      strip_ids: bool,
  ) -> list[types.Content] | None:
    """`_get_contents`'s contents for the plain case, or None to build them."""
    settings = (
        current_branch,
        agent_name,
        node_path,
        include_thoughts,
        strip_ids,
    )
    if settings != self._settings:
      self._settings = settings
      self._reset()
    changed = _first_change(self._seen, events)
    if changed is not None:
      self._go_back(changed)
    seen = self._seen
    history = _request_history.RequestHistory(
        current_branch,
        events,
        agent_name,
        node_path=node_path,
        include_thoughts_from_other_agents=include_thoughts,
    )
    for event in events[len(seen) :]:
      if event.author == 'user' and (
          not self._checkpoints or self._checkpoints[-1].seen < len(self._seen)
      ):
        # A turn begins: the walk can come back here when the turn's events,
        # seen as they were made, read back from the store in another form.
        self._checkpoint()
      if not self._walk(
          history, event, agent_name, include_thoughts, strip_ids
      ):
        self._reset()
        return None
      if history._tool_call_ids is not None:
        # A tool's sub-branch is judged by calls anywhere in the session,
        # later ones too: not something an earlier verdict can keep.
        self._reset()
        return None
    if not _request_history._rearranging_changes_nothing(
        self._paired, self._call_ids, self._settled_ids
    ):
      return None
    contents = []
    for entry in self._built:
      handed = entry.handed
      if handed is None or not _same_content(handed, entry.built):
        handed = entry.handed = _request_history._copy_content(
            entry.built, False
        )
      contents.append(handed)
    return contents

  def _walk(
      self,
      history: _request_history.RequestHistory,
      event: Event,
      agent_name: str,
      include_thoughts: bool,
      strip_ids: bool,
  ) -> bool:
    """Takes one more event into the history, as `RequestHistory._build` does
    with `live`; False where that build gives up."""
    actions = event.actions
    if actions and (actions.rewind_before_invocation_id or actions.compaction):
      return False
    seen = _Seen.of(event)
    self._seen.append(seen)
    if not history._includes(event):
      return True
    content = seen.content
    if not content:
      # A transcription, which is merged with its neighbours.
      return False
    parts = content.parts
    calls, responses = _request_history._tool_parts(parts)
    for call in calls or ():
      if call.id:
        if call.id in self._answered:
          return False
        self._call_authors[call.id] = event.author
    for response in responses or ():
      if response.id:
        self._answered.add(response.id)

    if parts and (
        _is_other_agent_reply(agent_name, event)
        or (
            responses
            and _request_history._answers_peer(
                responses, self._call_authors, agent_name
            )
        )
    ):
      recast = _present_other_agent_content(
          event.model_copy(update={'content': content}),
          include_thoughts=include_thoughts,
      )
      if recast is not None:
        self._built.append(_Built(recast))
        self._previous_calls = None
      return True

    self._built.append(
        _Built(_request_history._copy_content(content, strip_ids))
    )
    if event.long_running_tool_ids:
      self._settled_ids.update(event.long_running_tool_ids)
    for call in calls or ():
      if call.id:
        self._call_ids.add(call.id)
    if responses:
      for response in responses:
        if response.id:
          self._settled_ids.add(response.id)
      if calls or not _request_history._answers(
          responses, self._previous_calls
      ):
        self._paired = False
      self._previous_calls = None
    else:
      self._previous_calls = calls
    return True


# By (app name, user id, session id, agent name): what the history is built
# from is all checked at each call, so any agent of that name in that session
# may build on it (a transfer runs a new copy of the agent each invocation).
_histories: collections.OrderedDict[
    tuple[str, str, str, str], ReusedHistory
] = collections.OrderedDict()


def reused_history(
    app_name: str, user_id: str, session_id: str, agent_name: str
) -> ReusedHistory:
  """The kept history of an agent in a session (the histories used last)."""
  key = (app_name, user_id, session_id, agent_name)
  history = _histories.get(key)
  if history is None:
    history = _histories[key] = ReusedHistory()
    while len(_histories) > _MAX_HISTORIES:
      _histories.popitem(last=False)
  _histories.move_to_end(key)
  return history
