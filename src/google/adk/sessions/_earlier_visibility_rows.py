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

"""Reads the visibility that earlier builds of this distribution stored bare.

Where a storage layout has no field for ``Event.visibility`` (the legacy
database schema, and the Vertex AI sessions API when the SDK rejects
``raw_event``), ``_visibility_storage`` stores it as the ``'event'`` entry of
the dict under the event's ADK-internal visibility key. Earlier builds of this
distribution stored the bare string under that key instead, and their rows are
still in users' databases: rewritten into the entry as they are read, they
read back with the visibility they were written with, and are stored in the
current form when they are written again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import _visibility_metadata

if TYPE_CHECKING:
  from ..events.event import Event


def upgrade_stored_visibility(event: Event) -> Event:
  """Rewrites a visibility stored as a bare string into its entry.

  Args:
    event: An event just read from storage. It is modified in place.

  Returns:
    The same event.
  """
  metadata = event.custom_metadata
  stored = (
      metadata.get(_visibility_metadata.VISIBILITY_METADATA_KEY)
      if metadata
      else None
  )
  if isinstance(stored, str):
    event.custom_metadata = _visibility_metadata.with_entries(
        metadata, **{_visibility_metadata.EVENT: stored}
    )
  return event
