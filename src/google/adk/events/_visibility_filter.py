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

"""Shows the caller of a run only what is meant for the user.

Filtering happens on the way out of the Runner, after an event has been
persisted: the session keeps every event in full, so the conversation can be
replayed and later agents still read what internal agents produced. A plugin's
``on_event_callback`` runs before the event is appended and shares the object
that is stored, so stripping content there would strip it from history too.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import Optional
from typing import TYPE_CHECKING

if TYPE_CHECKING:
  from ..agents.run_config import RunConfig
  from .event import Event

ANNOTATE: Final = 'annotate'
FILTER: Final = 'filter'
ALLOWED_VISIBILITY_MODES: Final[tuple[str, ...]] = (ANNOTATE, FILTER)

# What an agent said, as opposed to what it did. Actions, ids, author, branch,
# node info, error fields and usage stay on a filtered event.
_PAYLOAD_FIELDS: Final[dict[str, None]] = {
    'content': None,
    'output': None,
    'input_transcription': None,
    'output_transcription': None,
    'grounding_metadata': None,
    'citation_metadata': None,
}


def validate_visibility_mode(value: Any) -> Any:
  """Checks a requested visibility mode.

  Args:
    value: The requested mode.

  Returns:
    The value, unchanged.

  Raises:
    ValueError: If the value is not one of the allowed modes.
  """
  if isinstance(value, str) and value in ALLOWED_VISIBILITY_MODES:
    return value
  raise ValueError(
      f'Invalid visibility_mode {value!r}. Allowed values: '
      + ', '.join(repr(mode) for mode in ALLOWED_VISIBILITY_MODES)
      + '.'
  )


def for_caller(
    event: Event, run_config: Optional[RunConfig]
) -> tuple[Event, ...]:
  """Returns what the caller of the run receives for one event.

  Args:
    event: An event the Runner has processed and, unless partial, persisted.
      It is never modified.
    run_config: The run's config; its ``visibility_mode`` decides.

  Returns:
    The event itself when the mode is ``'annotate'`` or the event is
    user-facing. Otherwise nothing for a partial streaming chunk, and for a
    complete event a copy without its content. Error events are always
    returned.
  """
  if (
      run_config is None
      or run_config.visibility_mode != FILTER
      or event.is_user_facing
  ):
    return (event,)
  is_error = bool(event.error_code or event.error_message)
  if event.partial and not is_error:
    return ()
  return (event.model_copy(update=_PAYLOAD_FIELDS),)
