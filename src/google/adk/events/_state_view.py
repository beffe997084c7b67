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

"""Which session state a client sees in the user's view (filter mode).

State is the second channel of an agent's output, beside its text: an
internal agent with ``output_key='intent'`` writes its reply to
``state_delta``. The session and the agents keep all of it (later agents'
``{intent}`` still works); only what is sent to a client changes.

A key of an event's ``state_delta`` is *written by an internal agent* when
the event is internal, and also when the event is user-facing but carries the
key for an agent that ran as its tool or for a hidden tool: ``AgentTool``
forwards its agent's ``state_delta`` into the caller's function response,
which is authored by the user-facing caller, and a tool's writes travel with
its response. The Runner lists such keys on the event when it is produced
(``tools/_tool_visibility.py``, the ``'state'`` record of
``events/_event_records.py``), so stored events say it as live ones do; an
unreadable record withholds every key of the event.

* **On events** (live and ``user_view`` of stored events): the keys an
  internal agent wrote are left out of ``state_delta`` unless the client
  asked for them (``client_state_keys``); the other keys are sent as they
  are.
* **In a state snapshot** (a session read's ``state``, AG-UI's
  ``STATE_SNAPSHOT`` and ``/agents/state``): each key a user-facing write set
  shows the value the last such write gave it, which is what the client saw
  live, even when an internal agent wrote the key later. A key only internal
  agents wrote is left out. A key no event wrote (state the client gave when
  creating the session) and a key in ``client_state_keys`` show the state's
  value.

One event is all a live stream has, so an event's delta cannot know whether a
user-facing event wrote the same key earlier; a snapshot can. The two agree
for every key an internal agent alone writes, which is what must not leak.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import Optional
from typing import TYPE_CHECKING

from . import _event_records

if TYPE_CHECKING:
  from .event import Event


def validate_client_state_keys(value: Any) -> Any:
  """Checks ``client_state_keys``: a list of state keys.

  Args:
    value: The given value.

  Returns:
    The value as a list, unchanged otherwise.

  Raises:
    ValueError: If it is a single string or holds something else than
      strings.
  """
  if isinstance(value, str) or not isinstance(value, (list, tuple, set)):
    example = f' such as [{value!r}]' if isinstance(value, str) else ''
    raise ValueError(
        'client_state_keys takes a list of the state keys the client may'
        f' see{example}, not {type(value).__name__} {value!r}.'
    )
  bad = [key for key in value if not isinstance(key, str)]
  if bad:
    raise ValueError(
        f'client_state_keys holds keys that are not strings: {bad!r}.'
    )
  return list(value)


def delta_for_client(
    event: Event,
    client_state_keys: Collection[str] = (),
    records: Optional[_event_records.EventRecords] = None,
) -> dict[str, Any]:
  """Returns the ``state_delta`` a client receives on ``event``.

  Args:
    event: A live or stored event.
    client_state_keys: Keys the client may see even when internal agents
      write them.
    records: The event's records, when already read.

  Returns:
    The event's delta itself when every key may be sent, else a new dict
    without the keys an internal agent wrote that are not in
    ``client_state_keys``.
  """
  delta = event.actions.state_delta
  if not delta:
    return delta
  if records is None:
    records = _event_records.records_of(event)
  withheld = records.withheld_keys(event, client_state_keys)
  if not withheld:
    return delta
  return {key: value for key, value in delta.items() if key not in withheld}


def state_for_client(
    state: Mapping[str, Any],
    events: Optional[Iterable[Event]],
    client_state_keys: Collection[str] = (),
) -> dict[str, Any]:
  """Returns the session state a client reading the session sees.

  Args:
    state: The session's state, or any snapshot of it (AG-UI adds keys of
      its own, which no event wrote).
    events: The session's events, which say who wrote each key; None when
      they are not at hand (a session listed without its events).
    client_state_keys: Keys the client may see even when internal agents
      write them.

  Returns:
    For each key of ``state``: its value when no event wrote it or it is in
    ``client_state_keys``, else the value the last user-facing write gave
    it; keys only internal agents wrote are left out. With ``events`` None,
    only the keys in ``client_state_keys``, since who wrote the others
    cannot be told.
  """
  if events is None:
    return {k: v for k, v in state.items() if k in client_state_keys}
  shown, written = _user_facing_values(events)
  client_state: dict[str, Any] = {}
  for key, value in state.items():
    if key in client_state_keys or key not in written:
      client_state[key] = value
    elif key in shown:
      client_state[key] = shown[key]
  return client_state


def _user_facing_values(
    events: Iterable[Event],
) -> tuple[dict[str, Any], set[str]]:
  """Returns each key's last user-facing value and every key events wrote."""
  shown: dict[str, Any] = {}
  written: set[str] = set()
  for event in events:
    delta = event.actions.state_delta
    if not delta:
      continue
    written.update(delta)
    withheld = _event_records.records_of(event).withheld_keys(event, ())
    for key, value in delta.items():
      if key not in withheld:
        shown[key] = value
  return shown, written
