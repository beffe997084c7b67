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

"""The events `DatabaseSessionService` last read, so a read converts new rows.

Converting a stored row into an `Event` (JSON into a validated model) is most
of what reading a long session costs, and a Runner reads the whole session at
every turn. `LoadedEvents` keeps, per session, the events it converted and the
position of the last row. A later read asks the database for the rows from
that position on and for the number of rows, and converts only the new ones;
whenever what it finds is not the rows it knows followed by new rows after
them (a row removed, a row written with an earlier time, a tie on the last
time), it reads every row as before.

The kept events are never handed out: each read returns copies of them, so
a caller that changes the session it was given changes neither what is kept
nor what a later read returns. The copies come from `EventCopies`, which
hands out again the copies a Runner gave back at the end of its run, where
they still equal the kept events.
"""

from __future__ import annotations

import collections
import dataclasses
from datetime import datetime
from typing import Any
from typing import TYPE_CHECKING

from ..events.event import Event
from ._event_copies import EventCopies

if TYPE_CHECKING:
  from sqlalchemy.ext.asyncio import AsyncSession

SessionKey = tuple[str, str, str]
"""(app name, user id, session id)."""


@dataclasses.dataclass(frozen=True)
class _Loaded:
  """One session's converted events, in the order of its rows."""

  events: tuple[Event, ...]
  ids: frozenset[str]
  last_timestamp: datetime
  last_id: str


class LoadedEvents:
  """The converted events of the sessions read last (least recently read go)."""

  def __init__(self, max_sessions: int = 64) -> None:
    self._max_sessions = max_sessions
    self._loaded: collections.OrderedDict[SessionKey, _Loaded] = (
        collections.OrderedDict()
    )
    self._copies: EventCopies[SessionKey] = EventCopies(max_sessions)

  async def read(
      self,
      sql_session: AsyncSession,
      storage_event: Any,
      key: SessionKey,
  ) -> list[Event]:
    """The session's events as `get_session` returns them, as new objects.

    Args:
      sql_session: The open database session to read with.
      storage_event: The schema's `StorageEvent` class.
      key: The session's (app name, user id, session id).

    Returns:
      Every stored event of the session, oldest first, sharing nothing with
      what is kept here or with an earlier result.
    """
    loaded = self._loaded.get(key)
    events = None
    if loaded is not None:
      events = await _read_after(sql_session, storage_event, key, loaded)
    if events is None:
      events = await _read_all(sql_session, storage_event, key)
    kept, rows = events
    if rows:
      self._loaded[key] = _Loaded(
          events=kept,
          ids=frozenset(event.id for event in kept),
          last_timestamp=rows[-1][0],
          last_id=rows[-1][1],
      )
      self._loaded.move_to_end(key)
      while len(self._loaded) > self._max_sessions:
        self._loaded.popitem(last=False)
    else:
      self._loaded.pop(key, None)
    return self._copies.copies(key, kept)

  def release(self, key: SessionKey, events: list[Event]) -> None:
    """Takes back the copies a read handed out, from a holder done with them.

    See `EventCopies.release`.
    """
    self._copies.release(key, events)

  def forget(self, key: SessionKey) -> None:
    """Drops what is kept of a session (it was deleted)."""
    self._loaded.pop(key, None)
    self._copies.forget(key)


def _of_session(stmt: Any, storage_event: Any, key: SessionKey) -> Any:
  app_name, user_id, session_id = key
  return (
      stmt.filter(storage_event.app_name == app_name)
      .filter(storage_event.session_id == session_id)
      .filter(storage_event.user_id == user_id)
  )


_Read = tuple[tuple[Event, ...], list[tuple[datetime, str]]]
"""The events, and (time, id) of the rows they were read from, or of the last
one only."""


async def _read_all(
    sql_session: AsyncSession, storage_event: Any, key: SessionKey
) -> _Read:
  """Every row, converted, in `get_session`'s order."""
  from sqlalchemy import select

  stmt = _of_session(select(storage_event), storage_event, key).order_by(
      storage_event.timestamp.desc(), storage_event.id.desc()
  )
  result = await sql_session.execute(stmt)
  rows = list(reversed(result.scalars().all()))
  events = tuple(row.to_event() for row in rows)
  return events, [(row.timestamp, row.id) for row in rows[-1:]]


async def _read_after(
    sql_session: AsyncSession,
    storage_event: Any,
    key: SessionKey,
    loaded: _Loaded,
) -> _Read | None:
  """The kept events and the rows after them, or None if the rows are not
  those events followed by later rows."""
  from sqlalchemy import func
  from sqlalchemy import select

  # The session's row count comes in the same statement as the rows, so
  # checking it costs no round trip to the database of its own.
  count = (
      _of_session(
          select(func.count()).select_from(storage_event), storage_event, key
      )
      .correlate(None)
      .scalar_subquery()
  )
  stmt = (
      _of_session(select(storage_event, count), storage_event, key)
      .filter(storage_event.timestamp >= loaded.last_timestamp)
      .order_by(storage_event.timestamp.asc(), storage_event.id.asc())
  )
  found = (await sql_session.execute(stmt)).all()
  rows = [row for row, _ in found]
  new_rows = [row for row in rows if row.id not in loaded.ids]
  if not any(row.id == loaded.last_id for row in rows):
    # The last row read is gone (no row at all included).
    return None
  # The database orders ids of equal times by its collation, which need not
  # be Python's: a new row must come strictly later.
  if any(row.timestamp <= loaded.last_timestamp for row in new_rows):
    return None
  if found[0][1] != len(loaded.events) + len(new_rows):
    return None
  if not new_rows:
    return loaded.events, [(loaded.last_timestamp, loaded.last_id)]
  events = loaded.events + tuple(row.to_event() for row in new_rows)
  return events, [(new_rows[-1].timestamp, new_rows[-1].id)]
