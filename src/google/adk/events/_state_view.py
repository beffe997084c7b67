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

* **On events** (live and ``user_view`` of stored events): an internal
  agent's ``state_delta`` keeps only the keys the client asked for
  (``client_state_keys``). A user-facing event's delta is sent as it is.
* **In a state snapshot** (a session read's ``state``, AG-UI's
  ``STATE_SNAPSHOT`` and ``/agents/state``): a key is left out when the
  session's events show it written by internal events only. A key written
  by a user-facing event (the user's own ``state_delta`` included), a key no
  event wrote (state the client gave when creating the session) and a key in
  ``client_state_keys`` are kept.

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
    event: Event, client_state_keys: Collection[str] = ()
) -> dict[str, Any]:
  """Returns the ``state_delta`` a client receives on ``event``.

  Args:
    event: A live or stored event.
    client_state_keys: Keys the client may see even when internal agents
      write them.

  Returns:
    The event's delta itself for a user-facing event or when every key may
    be sent, else a new dict with only the keys in ``client_state_keys``.
  """
  delta = event.actions.state_delta
  if event.is_user_facing or all(key in client_state_keys for key in delta):
    return delta
  return {
      key: value for key, value in delta.items() if key in client_state_keys
  }


def internal_keys(
    events: Iterable[Event], client_state_keys: Collection[str] = ()
) -> set[str]:
  """Returns the state keys that only internal events of ``events`` write.

  Args:
    events: A session's events.
    client_state_keys: Keys the client may see even when internal agents
      write them.

  Returns:
    Keys written by an internal event's ``state_delta``, never by a
    user-facing one, and not in ``client_state_keys``.
  """
  internal: set[str] = set()
  shown: set[str] = set(client_state_keys)
  for event in events:
    (internal if not event.is_user_facing else shown).update(
        event.actions.state_delta
    )
  return internal - shown


def state_for_client(
    state: Mapping[str, Any],
    events: Optional[Iterable[Event]],
    client_state_keys: Collection[str] = (),
) -> dict[str, Any]:
  """Returns the session state a client reading the session sees.

  Args:
    state: The session's state.
    events: The session's events, which say who wrote each key; None when
      they are not at hand (a session listed without its events).
    client_state_keys: Keys the client may see even when internal agents
      write them.

  Returns:
    ``state`` without the keys only internal events write; with ``events``
    None, only the keys in ``client_state_keys``, since who wrote the others
    cannot be told.
  """
  if events is None:
    return {k: v for k, v in state.items() if k in client_state_keys}
  hidden = internal_keys(events, client_state_keys)
  return {key: value for key, value in state.items() if key not in hidden}
