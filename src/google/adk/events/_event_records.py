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

"""The records filter mode reads on an event, read once and failed closed.

What a client may see of an event is decided when the event is produced, where
the agents and tools are known, and recorded with it, so that a stored
conversation alone says what to show. Filter mode reads nothing else:

* ``Event.visibility``: whether the event's agent speaks to the user; a value
  ADK does not write reads as ``'internal'`` (``read_visibility``).
* The entries of the ``__adk_internal_visibility`` key of ``custom_metadata``
  (``events/_visibility_metadata.py``):

  * ``'tools'``: the level of a call or response, by call id
    (``tools/_tool_visibility.py``);
  * ``'state'``: the keys of a user-facing event's ``state_delta`` that an
    agent run as a tool wrote (the keys of an event that answers a hidden
    call are withheld from its level alone);
  * ``'inside'``: the event was produced inside a hidden tool's call;
  * ``'agents'``: the calls that run an agent or a node;
  * ``'nested'``: the runs an agent tool's calls made, as the client saw them
    (``tools/_nested_progress.py``);
  * ``'answer'``: an internal reply that stands for a user-facing agent's
    answer (``events/_standing_answers.py``);
  * ``'turn'``: the end of a turn that gave the user no answer, and the event
    that answers it (``events/_turn_end.py``);
  * ``'progress'``: a progress event of a nested run, which the Runner relays
    and never stores.

* ``__adk_internal_tool_visibility``: the levels earlier builds stored.

Only ADK writes them. Upstream drops every ``__adk_internal_`` key from what a
caller supplies (``RunConfig.custom_metadata``, events restored into a session,
A2A messages) and from what leaves ADK, so no client can set or read one. The
progress payload a client reads (``adk_progress``) is public, and so is not
trusted by itself: an event is progress only with the internal mark.

A stored record can still be damaged (an edited row, a migration, a bug). Each
event's records are read here, once, into one immutable value in which
whatever is missing where it must be, unreadable or of the wrong type shows
the client less, never more: an unreadable level is ``'hidden'``, an
unreadable ``'state'`` entry withholds every key of the delta, any ``'inside'``
value means inside a hidden tool, an unreadable ``'agents'``, ``'nested'``,
``'answer'`` or ``'turn'`` entry records nothing. Reading never raises.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Mapping
import dataclasses
import logging
from typing import Any
from typing import Final
from typing import Optional
from typing import TYPE_CHECKING

from ..tools import _tool_visibility
from ..utils._function_call_names import CLIENT_FUNCTION_CALL_NAMES
from ._internal_metadata import INTERNAL_METADATA_PREFIX
from ._visibility_metadata import VISIBILITY_METADATA_KEY

if TYPE_CHECKING:
  from .event import Event

logger = logging.getLogger('google_adk.' + __name__)

TOOLS: Final = 'tools'
STATE: Final = 'state'
INSIDE: Final = 'inside'
AGENTS: Final = 'agents'
NESTED: Final = 'nested'
ANSWER: Final = 'answer'
TURN: Final = 'turn'
PROGRESS: Final = 'progress'

PROGRESS_METADATA_KEY: Final = 'adk_progress'
"""The public ``custom_metadata`` key of a progress event's update, which the
client reads."""

# Where earlier builds of this distribution stored the levels; the events they
# stored keep them there.
_EARLIER_LEVELS_KEY: Final = INTERNAL_METADATA_PREFIX + 'tool_visibility'
_TURN_ANSWER: Final = 'answer'
_INTERNAL_VISIBILITY: Final = 'internal'
_VISIBILITIES: Final = ('user', _INTERNAL_VISIBILITY)


@dataclasses.dataclass(frozen=True)
class EventRecords:
  """What the records of one event let a client see, failed closed."""

  user_facing: bool
  """Whether the event's agent speaks to the user."""
  levels: Mapping[str, str] = dataclasses.field(default_factory=dict)
  """The recorded level of a call or response, by call id; each is valid."""
  levels_unreadable: bool = False
  """The levels could not be read: every call and response is hidden."""
  internal_writes: Optional[frozenset[str]] = frozenset()
  """Keys of ``state_delta`` an internal agent wrote; None when every key
  is an internal agent's, or that cannot be told."""
  inside_hidden_tool: bool = False
  agent_calls: frozenset[str] = frozenset()
  """Calls of tools that run an agent or a node."""
  nested: Mapping[str, Mapping[str, Any]] = dataclasses.field(
      default_factory=dict
  )
  """Nested runs recorded with a function response, by call id."""
  stands_for_answer: bool = False
  turn_answer: Optional[str] = None
  """On the record of a turn's end: the id of the event that answers it."""
  progress: Optional[dict[str, Any]] = None
  """On a progress event the Runner relays: its update."""

  def level_of(self, event: Event, call: Any) -> str:
    """Returns the level at which a call or response of ``event`` is shown.

    Args:
      event: The event these records were read from.
      call: One of its ``FunctionCall`` or ``FunctionResponse`` parts.
    """
    if call.name in CLIENT_FUNCTION_CALL_NAMES or call.id in (
        event.long_running_tool_ids or ()
    ):
      # The client must act on it.
      return _tool_visibility.FULL
    if self.levels_unreadable:
      return _tool_visibility.HIDDEN
    level = self.levels.get(call.id or '')
    if level is not None:
      return level
    return (
        _tool_visibility.FULL if self.user_facing else _tool_visibility.MINIMAL
    )

  def withheld_keys(
      self, event: Event, client_state_keys: Collection[str]
  ) -> set[str]:
    """Returns the keys of ``event``'s ``state_delta`` a client may not see.

    An internal agent's keys, the keys recorded as an internal agent's, and
    every key of an event that answers a call the client is shown nothing
    of: a hidden tool's writes travel with its response.

    Args:
      event: The event these records were read from.
      client_state_keys: Keys the client may see although internal agents
        write them.
    """
    delta = event.actions.state_delta
    if (
        self.internal_writes is None
        or self.inside_hidden_tool
        or self._answers_hidden_call(event)
    ):
      internal: Collection[str] = delta.keys()
    else:
      internal = self.internal_writes
    return {key for key in internal if key in delta} - set(client_state_keys)

  def _answers_hidden_call(self, event: Event) -> bool:
    return any(
        self.level_of(event, response) == _tool_visibility.HIDDEN
        for response in event.get_function_responses()
    )


_USER_FACING: Final = EventRecords(user_facing=True)
_INTERNAL: Final = EventRecords(user_facing=False, internal_writes=None)


def records_of(event: Event) -> EventRecords:
  """Returns what ``event``'s records let a client see of it.

  Args:
    event: A live or stored event. It is not modified.
  """
  user_facing = event.is_user_facing
  metadata = event.custom_metadata
  if not metadata:
    return _USER_FACING if user_facing else _INTERNAL
  if not isinstance(metadata, Mapping):
    return _damaged(event, user_facing)
  entries = metadata.get(VISIBILITY_METADATA_KEY)
  earlier_levels = metadata.get(_EARLIER_LEVELS_KEY)
  if entries is None and earlier_levels is None:
    return _USER_FACING if user_facing else _INTERNAL
  if entries is None or isinstance(entries, str):
    # A bare string is how earlier builds stored the event's visibility,
    # which session storage reads back (sessions/_earlier_visibility_rows.py).
    entries = {}
  elif not isinstance(entries, Mapping):
    return _damaged(event, user_facing)
  levels_entry = entries.get(TOOLS, earlier_levels)
  levels, levels_unreadable = _read_levels(levels_entry)
  internal_writes: Optional[frozenset[str]]
  if not user_facing:
    internal_writes = None
  else:
    internal_writes = _read_names(entries.get(STATE), missing=frozenset())
  agent_calls = _read_names(entries.get(AGENTS), missing=frozenset())
  progress = metadata.get(PROGRESS_METADATA_KEY)
  return EventRecords(
      user_facing=user_facing,
      levels=levels,
      levels_unreadable=levels_unreadable,
      internal_writes=internal_writes,
      inside_hidden_tool=entries.get(INSIDE) is not None,
      agent_calls=agent_calls or frozenset(),
      nested=_read_nested(entries.get(NESTED)),
      stands_for_answer=entries.get(ANSWER) is True,
      turn_answer=_read_turn(entries.get(TURN)),
      progress=(
          dict(progress)
          if entries.get(PROGRESS) is True
          and isinstance(progress, Mapping)
          and event.partial
          and event.content is None
          else None
      ),
  )


def progress_of(event: Event) -> Optional[dict[str, Any]]:
  """Returns the update of a progress event the Runner relays, else None."""
  metadata = event.custom_metadata
  if not metadata or PROGRESS_METADATA_KEY not in metadata:
    return None
  return records_of(event).progress


def progress_metadata(update: Mapping[str, Any]) -> dict[str, Any]:
  """Returns the ``custom_metadata`` of a progress event carrying ``update``."""
  return {
      PROGRESS_METADATA_KEY: update,
      VISIBILITY_METADATA_KEY: {PROGRESS: True},
  }


def turn_record(answer_id: str) -> dict[str, Any]:
  """Returns the ``'turn'`` entry that names the event answering a turn."""
  return {_TURN_ANSWER: answer_id}


def _damaged(event: Event, user_facing: bool) -> EventRecords:
  logger.warning(
      'Event %s has an unreadable visibility record; filter mode shows a'
      ' client nothing of it.',
      event.id,
  )
  return EventRecords(
      user_facing=user_facing,
      levels_unreadable=True,
      internal_writes=None,
      inside_hidden_tool=True,
  )


def _read_levels(entry: Any) -> tuple[Mapping[str, str], bool]:
  """Reads levels by call id; an unreadable one is hidden."""
  if entry is None:
    return {}, False
  if not isinstance(entry, Mapping):
    return {}, True
  levels: dict[str, str] = {}
  for call_id, level in entry.items():
    if not isinstance(call_id, str):
      return {}, True
    levels[call_id] = (
        level
        if isinstance(level, str)
        and level in _tool_visibility.ALLOWED_TOOL_VISIBILITIES
        else _tool_visibility.HIDDEN
    )
  return levels, False


def _read_names(
    entry: Any, *, missing: frozenset[str]
) -> Optional[frozenset[str]]:
  """Reads a list of names; None when it is there but unreadable."""
  if entry is None:
    return missing
  if not isinstance(entry, list) or not all(
      isinstance(name, str) for name in entry
  ):
    return None
  return frozenset(entry)


def _read_nested(entry: Any) -> Mapping[str, Mapping[str, Any]]:
  if not isinstance(entry, Mapping):
    return {}
  return {
      call_id: run
      for call_id, run in entry.items()
      if isinstance(call_id, str) and isinstance(run, Mapping)
  }


def _read_turn(entry: Any) -> Optional[str]:
  if not isinstance(entry, Mapping):
    return None
  answer = entry.get(_TURN_ANSWER)
  return answer if isinstance(answer, str) and answer else None


def read_visibility(value: Any) -> Any:
  """Reads ``Event.visibility``; a value ADK does not write is internal.

  An event's visibility is a record: a stored value that is not one ADK
  writes (a damaged row, a later version's word) reads as ``'internal'``, so
  that filter mode shows the event as progress, and the session still loads.

  Args:
    value: The value given or stored.

  Returns:
    ``None``, ``'user'`` or ``'internal'``.
  """
  if value is None or value in _VISIBILITIES:
    return value
  logger.warning(
      'An event has visibility %r, which ADK does not write; it is read as'
      " 'internal'.",
      value,
  )
  return _INTERNAL_VISIBILITY
