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

"""The ids and texts a message has both in the live stream and in the history.

A client merges a ``MESSAGES_SNAPSHOT`` into the messages it has drawn by
id, so the live stream (``_run_view``) and the history (``_history``) must
give the same message the same id, and write a tool call's arguments and
result the same way: both take them from here. A turn's reply is named after
the user's message that opens the turn, by the id the client sent it under
where the event records it.
"""

from __future__ import annotations

from typing import Any
from typing import cast
from typing import Optional

from ...events.event import Event
from ._ag_ui_adk import _serialize_tool_response
from ._ag_ui_adk import serialize_tool_args

_CLIENT_MESSAGE_ID_KEY = '_ag_ui_user_view_message_id'
"""The state key a user's event records the client's id of its message under.

Written with the event (the Runner's ``state_delta``), so the history gives
the message the id the client knows it by: a client merges a snapshot by id,
and a message it knows under another id would move to the end.
"""


def _reply_id(turn_id: str) -> str:
  """The id of the assistant message that answers the turn ``turn_id`` opens."""
  return f'{turn_id}-reply'


def _work_id(run_id: str) -> str:
  """The id of the message holding the steps of the nested run ``run_id``."""
  return f'{run_id}-work'


def _result_id(call_id: str) -> str:
  """The id of the tool message answering the call ``call_id``."""
  return f'{call_id}-result'


def _result_text(result: Any) -> str:
  # ag-ui-adk's own serialization, so that a result reads the same live (its
  # translator) and in the history built here.
  return cast(str, _serialize_tool_response(result))


def _args_text(args: Optional[dict[str, Any]]) -> str:
  # As ag-ui-adk writes a call's arguments: "{}" when there are none, which
  # is also what a client gets for a call shown without its arguments.
  return cast(str, serialize_tool_args(args)) if args else '{}'


def _client_message_id(event: Optional[Event]) -> Optional[str]:
  """The client's id of the message a user's event holds, if recorded."""
  if event is None:
    return None
  recorded = event.actions.state_delta.get(_CLIENT_MESSAGE_ID_KEY)
  return recorded if isinstance(recorded, str) and recorded else None


def _typed_text(event: Event) -> bool:
  """Whether a user event carries text the user typed (it starts a turn)."""
  parts = (event.content.parts if event.content else None) or ()
  return any(part.text and not part.thought for part in parts)
