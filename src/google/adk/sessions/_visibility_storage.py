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

"""Stores ``Event.visibility`` where a storage layout has no place for it.

Two layouts store an event field by field and cannot grow a field: the legacy
database schema (one column per field; a new column would make the tables
differ from the ones every other ADK version expects) and the Vertex AI
sessions API when the installed SDK rejects ``raw_event`` (the API defines the
fields). The visibility travels in ``custom_metadata`` instead, as the
``'event'`` entry of the event's ADK-internal visibility key (see
``events/_visibility_metadata.py``), which versions that do not know it keep
as opaque metadata and strip from API responses.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import TYPE_CHECKING

from ..events import _visibility_metadata

if TYPE_CHECKING:
  from ..events.event import Event

_STORED_VISIBILITIES: Final = ('user', 'internal')


def custom_metadata_for_storage(event: Event) -> dict[str, Any] | None:
  """Returns the ``custom_metadata`` to store for ``event`` (not modified):
  its own when it has no visibility set, else a copy that also carries it."""
  if event.visibility is None:
    return event.custom_metadata
  return _visibility_metadata.with_entries(
      event.custom_metadata, event=event.visibility
  )


def restore_from_storage(event: Event) -> Event:
  """Moves a stored visibility out of ``custom_metadata`` back onto ``event``
  (just read from storage, modified in place) and returns it."""
  entries = _visibility_metadata.read_entries(event.custom_metadata)
  if _visibility_metadata.EVENT not in entries:
    return event
  stored = entries[_visibility_metadata.EVENT]
  event.custom_metadata = _visibility_metadata.with_entries(
      event.custom_metadata, event=None
  )
  if stored in _STORED_VISIBILITIES:
    event.visibility = stored
  elif stored is not None:
    event.visibility = 'internal'  # Damaged: show a client less.
  return event
