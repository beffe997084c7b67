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

"""A run in filter mode: its RunConfig, and the RUN_ERROR its client gets.

Every run the adapter serves is in ``visibility_mode='filter'``, whatever
RunConfig the app's factory makes; and as filter mode does on the fork's own
server, a run an exception ended reaches the client as a stable code and a
generic sentence, since the exception's text may quote what the user must not
see.
"""

from __future__ import annotations

from collections.abc import Callable
import logging

from ...agents.run_config import RunConfig
from ...events._client_errors import RUN_FAILED_CODE
from ...events._client_errors import RUN_FAILED_MESSAGE
from ._ag_ui_adk import RunAgentInput
from ._ag_ui_adk import RunErrorEvent

logger = logging.getLogger('google_adk.' + __name__)

_EXCEPTION_ERROR_CODES = frozenset({
    'BACKGROUND_EXECUTION_ERROR',
    'EXECUTION_ERROR',
    'TOOL_RESULT_PROCESSING_ERROR',
})
"""ag-ui-adk 0.11.0's RUN_ERROR codes whose message is an exception's text.

It logs each of them with its traceback; its other codes carry fixed
sentences (a timeout, a missing tool result) that quote nothing of the run.
"""


def _client_run_error(event: RunErrorEvent) -> RunErrorEvent:
  """A RUN_ERROR as a client in filter mode may read it.

  An exception that ended the run reaches the client as the fork's stable
  code and generic sentence (``events/_client_errors.py``): its text may quote
  an internal agent's reply, the state or a hidden tool's arguments.
  """
  if event.code not in _EXCEPTION_ERROR_CODES:
    return event
  logger.info(
      'A run failed (%s); the client gets %s, the log above has the error.',
      event.code,
      RUN_FAILED_CODE,
  )
  return event.model_copy(
      update={'message': RUN_FAILED_MESSAGE, 'code': RUN_FAILED_CODE}
  )


def _in_filter_mode(
    run_config_factory: Callable[[RunAgentInput], RunConfig],
    client_state_keys: tuple[str, ...],
    nested_progress: str,
    input_data: RunAgentInput,
) -> RunConfig:
  run_config = run_config_factory(input_data)
  return run_config.model_copy(
      update={
          'visibility_mode': 'filter',
          'client_state_keys': [
              *run_config.client_state_keys,
              *client_state_keys,
          ],
          'nested_progress': nested_progress,
      }
  )
