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

"""ADK-D113: a user-facing agent's agent tool returns structured data.

A tool that runs an agent is ``'minimal'`` unless set otherwise: its result
is the inner agent's own reply, which the calling agent turns into its
answer. An inner agent with an ``output_schema`` replies with data instead,
and a client may render that data itself (a list of hotels as cards). In
filter mode such a client receives the call's name and status only. Whether
the data is for the client or for the calling agent alone, only the app can
say, so the check names each such tool and the one setting that sends its
result, and the level stays as it is.
"""

from __future__ import annotations

from typing import Any
from typing import Iterator

from ..agents import _visibility
from ..agents.visibility import node_visibility
from ..workflow._base_node import BaseNode
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

STRUCTURED_RESULT_WITHHELD = 'ADK-D113'
CODES = (STRUCTURED_RESULT_WITHHELD,)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports agent tools of user-facing agents whose result is data."""
  from ..agents.llm_agent import LlmAgent
  from ..tools.agent_tool import AgentTool

  index = _visibility.visibility_index(root)
  for node in walk(root):
    if not isinstance(node, LlmAgent):
      continue
    if node_visibility(index, node) != _visibility.USER:
      continue
    levels = node.tool_visibility or {}
    for tool in node.tools:
      if not isinstance(tool, AgentTool) or tool.user_visibility is not None:
        continue
      if tool.name in levels:
        continue
      schema = _output_schema_name(tool.agent)
      if schema is None:
        continue
      yield Diagnostic(
          Severity.INFO,
          STRUCTURED_RESULT_WITHHELD,
          node.name,
          f'{node.name!r} calls {tool.name!r}, whose agent replies with'
          f' structured output ({schema}). In filter mode a client receives'
          " that call's name and status only, not the result.",
          'If the client renders the result itself, send it with'
          f" tool_visibility={{{tool.name!r}: 'full'}} on {node.name!r} (or"
          f" user_visibility='full' on the tool); if only {node.name!r}"
          ' reads it, nothing is to be done.',
      )


def _output_schema_name(agent: Any) -> str | None:
  schema = getattr(agent, 'output_schema', None)
  if schema is None:
    return None
  return getattr(schema, '__name__', None) or type(schema).__name__
