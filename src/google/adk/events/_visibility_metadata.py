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

"""The one ``custom_metadata`` key that says what a client may see of an event.

``__adk_internal_visibility`` holds a dict of named entries. ``'event'`` is
the event's own ``visibility``, written only in storage layouts without a
field for it (see ``sessions/_visibility_storage.py``). A dict rather than the
bare value, so that what else ADK stores about an event's visibility joins it
under the same key instead of adding one. The internal prefix keeps callers
from setting it and API responses from showing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ._internal_metadata import INTERNAL_METADATA_PREFIX

VISIBILITY_METADATA_KEY: Final = INTERNAL_METADATA_PREFIX + 'visibility'
EVENT: Final = 'event'


def read_entries(metadata: Any) -> dict[str, Any]:
  """Returns a copy of the entries stored in an event's ``custom_metadata``."""
  if not isinstance(metadata, Mapping):
    return {}
  stored = metadata.get(VISIBILITY_METADATA_KEY)
  return dict(stored) if isinstance(stored, Mapping) else {}


def with_entries(metadata: Any, **entries: Any) -> dict[str, Any] | None:
  """Returns a copy of ``custom_metadata`` with entries set (None removes one).

  The other keys are kept, and the result is None when nothing is left.
  """
  merged = {
      name: value
      for name, value in {**read_entries(metadata), **entries}.items()
      if value is not None
  }
  kept = {
      key: value
      for key, value in (metadata or {}).items()
      if key != VISIBILITY_METADATA_KEY
  }
  if merged:
    kept[VISIBILITY_METADATA_KEY] = merged
  return kept or None
