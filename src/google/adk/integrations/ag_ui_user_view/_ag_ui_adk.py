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

"""What the AG-UI adapter takes from ag-ui-adk 0.11.0 and FastAPI.

They are imported here alone, so that an app without ag-ui-adk (or with
another version, which lacks one of them) gets the one sentence saying what
to install, whichever of the adapter's modules needs them; and the names the
adapter relies on, ag-ui-adk internals among them, stand in one list.
"""

from __future__ import annotations

try:
  from ag_ui.core import AssistantMessage
  from ag_ui.core import BaseEvent
  from ag_ui.core import EventType
  from ag_ui.core import FunctionCall
  from ag_ui.core import MessagesSnapshotEvent
  from ag_ui.core import RunAgentInput
  from ag_ui.core import RunErrorEvent
  from ag_ui.core import StateSnapshotEvent
  from ag_ui.core import SubagentErrorEvent
  from ag_ui.core import SubagentFinishedEvent
  from ag_ui.core import SubagentStartedEvent
  from ag_ui.core import ToolCall
  from ag_ui.core import ToolCallArgsEvent
  from ag_ui.core import ToolCallEndEvent
  from ag_ui.core import ToolCallResultEvent
  from ag_ui.core import ToolCallStartEvent
  from ag_ui.core import ToolMessage
  from ag_ui.core import UserMessage as AgUiUserMessage
  from ag_ui_adk import add_adk_fastapi_endpoint
  from ag_ui_adk import ADKAgent
  from ag_ui_adk.event_translator import _serialize_tool_response
  from ag_ui_adk.request_state_service import RequestStateSessionService
  from ag_ui_adk.serialization import serialize_tool_args
  from fastapi import APIRouter
  from fastapi import FastAPI
  from fastapi import Request
  from fastapi.responses import JSONResponse
  from fastapi.routing import APIRoute
except ImportError as e:
  raise ImportError(
      'google.adk.integrations.ag_ui_user_view needs ag-ui-adk:'
      ' pip install ag-ui-adk==0.11.0'
  ) from e

__all__ = [
    '_serialize_tool_response',
    'add_adk_fastapi_endpoint',
    'ADKAgent',
    'AgUiUserMessage',
    'APIRoute',
    'APIRouter',
    'AssistantMessage',
    'BaseEvent',
    'EventType',
    'FastAPI',
    'FunctionCall',
    'JSONResponse',
    'MessagesSnapshotEvent',
    'Request',
    'RequestStateSessionService',
    'RunAgentInput',
    'RunErrorEvent',
    'serialize_tool_args',
    'StateSnapshotEvent',
    'SubagentErrorEvent',
    'SubagentFinishedEvent',
    'SubagentStartedEvent',
    'ToolCall',
    'ToolCallArgsEvent',
    'ToolCallEndEvent',
    'ToolCallResultEvent',
    'ToolCallStartEvent',
    'ToolMessage',
]
