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

``__adk_internal_visibility`` holds a dict: ``'tools'``, the levels of the
event's tool traffic by function call id (``{'<call id>': 'hidden'}``), and,
only in storage layouts without a field for it, ``'event'``, the event's own
``visibility``. The internal prefix keeps callers from setting it and API
responses from showing it. An earlier version of this change stored the
visibility as a plain string under this key and the levels under
``__adk_internal_tool_visibility``; both still read back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ._internal_metadata import INTERNAL_METADATA_PREFIX

VISIBILITY_METADATA_KEY: Final = INTERNAL_METADATA_PREFIX + 'visibility'
TOOLS: Final = 'tools'
EVENT: Final = 'event'
_OLD_TOOLS_KEY: Final = INTERNAL_METADATA_PREFIX + 'tool_visibility'


def read_entries(metadata: Any) -> dict[str, Any]:
  """Returns a copy of the entries stored in an event's ``custom_metadata``."""
  if not isinstance(metadata, Mapping):
    return {}
  stored = metadata.get(VISIBILITY_METADATA_KEY)
  entries = dict(stored) if isinstance(stored, Mapping) else {}
  if isinstance(stored, str):
    entries[EVENT] = stored
  old_tools = metadata.get(_OLD_TOOLS_KEY)
  if TOOLS not in entries and isinstance(old_tools, Mapping):
    entries[TOOLS] = old_tools
  return entries


def with_entries(metadata: Any, **entries: Any) -> dict[str, Any] | None:
  """Returns a copy of ``custom_metadata`` with entries set (None removes one).

  The other keys are kept; the entries are written in the current form, and
  the result is None when nothing is left.
  """
  merged = {
      name: value
      for name, value in {**read_entries(metadata), **entries}.items()
      if value is not None
  }
  kept = {
      key: value
      for key, value in (metadata or {}).items()
      if key not in (VISIBILITY_METADATA_KEY, _OLD_TOOLS_KEY)
  }
  if merged:
    kept[VISIBILITY_METADATA_KEY] = merged
  return kept or None
