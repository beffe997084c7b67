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

"""What a client in filter mode is told when a run fails.

The text of an exception is written for the person who runs the server, not
for the user: a database error quotes the SQL parameters it was given (the
session's state, an internal agent's reply), a tool's error quotes its
arguments. In ``visibility_mode='filter'`` the client therefore gets a stable
code and a generic sentence, and the full text goes only to the server log:

* ``run_error_payload(exc, visibility_mode)`` is what a door (``/run_sse``,
  ``/run``) sends when an exception ends a run; ``None`` in annotate mode,
  where the door keeps its own behaviour.
* ``client_error_message(event)`` is the ``error_message`` an error event
  carries to a client in filter mode: a generic sentence (the
  ``error_code`` is kept as it is).
"""

from __future__ import annotations

import logging
from typing import Final
from typing import Optional
from typing import TYPE_CHECKING

if TYPE_CHECKING:
  from .event import Event

logger = logging.getLogger('google_adk.' + __name__)

RUN_FAILED_CODE: Final = 'RUN_FAILED'
"""The code a client gets when an exception ends a run in filter mode."""

RUN_FAILED_MESSAGE: Final = (
    'The request could not be completed because of an error on the server.'
    ' Please try again.'
)
"""The sentence that goes with ``RUN_FAILED_CODE``."""

ERROR_EVENT_MESSAGE: Final = 'A step of this request failed.'
"""An error event's message, as a client in filter mode reads it."""

_FILTER: Final = 'filter'


def run_error_payload(
    exc: BaseException, visibility_mode: Optional[str], *, logged: bool = False
) -> Optional[dict[str, str]]:
  """Returns what a client is sent when ``exc`` ended its run.

  Args:
    exc: The exception that ended the run.
    visibility_mode: The run's ``RunConfig.visibility_mode``.
    logged: Whether the caller has already logged ``exc`` with its traceback;
      otherwise it is logged here, in full.

  Returns:
    ``{'error': <sentence>, 'errorCode': <code>}`` in filter mode; ``None``
    in any other mode, where the caller sends what it always has.
  """
  if visibility_mode != _FILTER:
    return None
  if not logged:
    logger.exception(
        'A run in filter mode failed; the client gets %s.',
        RUN_FAILED_CODE,
        exc_info=exc,
    )
  return {'error': RUN_FAILED_MESSAGE, 'errorCode': RUN_FAILED_CODE}


def client_error_message(event: Event) -> Optional[str]:
  """Returns the ``error_message`` a client in filter mode may read.

  An error event's message is often an exception's text: a node that raises
  is recorded as an error event with ``str(exc)``, which quotes what it worked
  on (a database error, its SQL parameters), whoever the node speaks to. So
  a client in filter mode reads a generic sentence; the event's
  ``error_code`` stays as it is, to tell errors apart, and the session keeps
  the full message for the operator.

  Args:
    event: An event of the session or of the run.

  Returns:
    ``None`` when the event has no error message; otherwise the message to
    send.
  """
  if not event.error_message:
    return None
  return ERROR_EVENT_MESSAGE
