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

"""Copies of a session's stored events, handed out again once given back.

A session service hands each reader copies of the stored events, so that a
caller that changes the session it was given changes neither what is stored
nor any other caller's session. Copying every event at every read makes a
long conversation pay, at each turn, for a copy of its whole history; and the
copy, alive for the whole turn, sets off full garbage collections of the
heap, which in a session of a thousand events cost more than the rest of the
turn.

A copy is the session of one holder at a time. `EventCopies` notes the copies
each whole-session read hands out. A holder that is done with its session
gives it back (the Runner does when a run ends, through
`BaseSessionService._release_session`); its copies are then handed out again
by the next read of the session, each only if it still equals the stored
event (compared field by field, which allocates nothing), and copied afresh
if the holder changed it. Copies nobody gave back are never handed out
again, so a caller that keeps its session keeps it to itself: a read while
another holder's run is in flight makes new copies, as every read did
before.
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
import copy
import dataclasses
from typing import Generic
from typing import Hashable
from typing import TypeVar

from ..events.event import Event

_KeyT = TypeVar('_KeyT', bound=Hashable)

_Pair = tuple[Event, Event]
"""A stored event and a copy of it that was handed out."""


def _unchanged(handed: Event, stored: Event) -> bool:
  """Whether a copy that was handed out still holds what the stored event holds."""
  return (
      type(handed) is type(stored)
      and handed.__pydantic_fields_set__ == stored.__pydantic_fields_set__
      and handed == stored
  )


@dataclasses.dataclass
class _SessionCopies:
  """The copies of one session's events: out with a holder, or given back."""

  # By id of the copy: the copies the last whole read handed out.
  handed: dict[int, _Pair] = dataclasses.field(default_factory=dict)
  # By id of the stored event: copies given back, free to hand out again.
  returned: dict[int, _Pair] = dataclasses.field(default_factory=dict)


class EventCopies(Generic[_KeyT]):
  """The event copies of recently read sessions, and which were given back."""

  def __init__(self, max_sessions: int = 64) -> None:
    self._max_sessions = max_sessions
    self._sessions: collections.OrderedDict[_KeyT, _SessionCopies] = (
        collections.OrderedDict()
    )

  def copies(
      self, key: _KeyT, events: Sequence[Event], *, whole: bool = True
  ) -> list[Event]:
    """Copies of `events` that no other holder has, in their order.

    Args:
      key: The session the events are stored in.
      events: Stored events of that session.
      whole: Whether `events` are all the session's events. A read of some
        of them (the most recent ones, say) makes new copies and is not
        noted: its copies are never handed out again.

    Returns:
      A new list holding, for each event, a copy that equals it.
    """
    if not whole:
      return [copy.deepcopy(event) for event in events]
    session = self._sessions.pop(key, None) or _SessionCopies()
    returned, handed = session.returned, {}
    result = []
    for event in events:
      pair = returned.get(id(event))
      if pair is None or pair[0] is not event or not _unchanged(pair[1], event):
        pair = (event, copy.deepcopy(event))
      handed[id(pair[1])] = pair
      result.append(pair[1])
    # Copies given back but not handed out now belong to events no longer
    # stored; the copies handed out before this read stay with their holder.
    self._sessions[key] = _SessionCopies(handed=handed)
    while len(self._sessions) > self._max_sessions:
      self._sessions.popitem(last=False)
    return result

  def release(self, key: _KeyT, events: Sequence[Event]) -> None:
    """Takes back the copies among `events` that the last read handed out.

    Args:
      key: The session the events were read from.
      events: The events of the session its holder is done with. Events that
        are not copies the last whole read handed out (events the holder
        appended, copies of an earlier read) are left alone.
    """
    session = self._sessions.get(key)
    if session is None:
      return
    for event in events:
      pair = session.handed.pop(id(event), None)
      if pair is not None and pair[1] is event:
        session.returned[id(pair[0])] = pair

  def forget(self, key: _KeyT) -> None:
    """Drops the copies of a session's events (the session was deleted)."""
    self._sessions.pop(key, None)
