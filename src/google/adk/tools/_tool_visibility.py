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


"""How much of a tool's traffic reaches the user when a run filters its events.

A tool's calls and responses are part of an agent's work. In filter mode
(``RunConfig.visibility_mode='filter'``) the caller of a run sees each of them
at one of three levels:

* ``'full'``: the call with its arguments and the response with its result.
* ``'minimal'``: that the tool was called and that it answered, by name and
  call id, without the arguments or the result.
* ``'hidden'``: nothing.

Unless a tool or its agent sets a level, a tool of a user-facing agent is
``'full'``, as every event is in annotate mode, and a tool of an internal agent
is ``'minimal'``: the client can show the work as progress without the data the
internal agent works on. A tool that runs an agent (``AgentTool``, single-turn
and task sub-agents, workflows and nodes in ``tools``) is ``'minimal'`` even
for a user-facing agent, because its response is the inner agent's own text.
Traffic the client must act on is always ``'full'``: long-running and
client-executed calls, tool confirmations, credential and input requests.

The level is decided when the event is produced, where the tool objects are
known, and stored with the event in its ADK-internal visibility entry (see
``events/_visibility_metadata.py``), so stored events alone say what a client
may see of them.
"""

from __future__ import annotations

from collections.abc import Mapping
import logging
from typing import Any
from typing import Final
from typing import Literal
from typing import TYPE_CHECKING

from ..events import _visibility_metadata
from ..events._internal_metadata import INTERNAL_METADATA_PREFIX
from ..utils._function_call_names import CLIENT_FUNCTION_CALL_NAMES

if TYPE_CHECKING:
  from ..agents.invocation_context import InvocationContext
  from ..events.event import Event
  from ..workflow._base_node import BaseNode

logger = logging.getLogger('google_adk.' + __name__)

ToolVisibility = Literal['hidden', 'minimal', 'full']
"""How much of a tool's traffic reaches the user in filter mode."""

HIDDEN: Final = 'hidden'
MINIMAL: Final = 'minimal'
FULL: Final = 'full'
ALLOWED_TOOL_VISIBILITIES: Final[tuple[str, ...]] = (HIDDEN, MINIMAL, FULL)

_TABLE_METADATA_KEY: Final = '_adk_tool_visibility_table'
# The entry of the event's visibility metadata that holds its levels.
_LEVELS_ENTRY: Final = 'tools'
# Where earlier builds of this distribution stored the levels; the events they
# stored keep them there.
_EARLIER_LEVELS_KEY: Final = INTERNAL_METADATA_PREFIX + 'tool_visibility'


def validate_tool_visibility(value: Any, *, owner: str) -> Any:
  """Checks a configured tool visibility.

  Args:
    value: The configured value. ``None`` keeps the default.
    owner: What the value was configured on, for the error message.

  Returns:
    The value, unchanged.

  Raises:
    ValueError: If the value is not one of the allowed values.
  """
  if value is None or (
      isinstance(value, str) and value in ALLOWED_TOOL_VISIBILITIES
  ):
    return value
  raise ValueError(
      f'Invalid tool visibility {value!r} on {owner}. Allowed values: '
      + ', '.join(repr(v) for v in ALLOWED_TOOL_VISIBILITIES)
      + ', or None for the default.'
  )


def validate_tool_visibility_mapping(
    value: Any, *, agent_name: str
) -> dict[str, ToolVisibility]:
  """Checks ``LlmAgent.tool_visibility``: tool names to levels.

  Args:
    value: The configured mapping.
    agent_name: The agent's name, for the error message.

  Returns:
    The mapping as a new dict.

  Raises:
    ValueError: If it is not a mapping of tool names to allowed levels, or
      names a call the client must act on, which always reaches it in full.
  """
  if value is None:
    return {}
  if not isinstance(value, Mapping):
    raise ValueError(
        f'tool_visibility of agent {agent_name!r} must map tool names to'
        f' levels, got {type(value).__name__}.'
    )
  checked: dict[str, ToolVisibility] = {}
  for name, level in value.items():
    if not isinstance(name, str):
      raise ValueError(
          f'tool_visibility of agent {agent_name!r} is keyed by tool name,'
          f' got {name!r}. A tool object sets its own level with'
          ' `tool.user_visibility = ...`.'
      )
    if name in CLIENT_FUNCTION_CALL_NAMES:
      raise ValueError(
          f'tool_visibility of agent {agent_name!r} names {name!r}, which the'
          ' client must answer, so it always reaches the client in full.'
      )
    checked[name] = validate_tool_visibility(
        level, owner=f'tool {name!r} of agent {agent_name!r}'
    )
  return checked


def check_names_are_tools(agent: Any) -> None:
  """Checks that ``agent.tool_visibility`` names only the agent's tools.

  Toolsets name their tools at run time, so an agent with a toolset is not
  checked.

  Args:
    agent: An ``LlmAgent``.

  Raises:
    ValueError: If a name is not one of the agent's tools.
  """
  if not agent.tool_visibility:
    return
  names = _static_tool_names(agent)
  if names is None:
    return
  unknown = sorted(set(agent.tool_visibility) - names)
  if unknown:
    raise ValueError(
        f'tool_visibility of agent {agent.name!r} names {unknown}, not among'
        f' its tools {sorted(names)}. Use the name the model calls the tool'
        ' by.'
    )


def bind_to_invocation(
    invocation_context: InvocationContext, root: BaseNode | None
) -> None:
  """Collects the configured levels of every agent's tools for an invocation.

  Args:
    invocation_context: A new invocation context created by the Runner.
    root: The root agent or node the Runner runs.
  """
  if root is None:
    return
  table: dict[tuple[str, str], ToolVisibility] = {}
  try:
    _collect(root, table, visited=set())
  except Exception:  # pylint: disable=broad-except
    # A tree this cannot read runs as it would without tool levels.
    logger.debug('No tool visibility for %r.', root, exc_info=True)
    return
  invocation_context._private_metadata[_TABLE_METADATA_KEY] = table


def stamp_event(event: Event, invocation_context: InvocationContext) -> None:
  """Records on an event the levels configured for its tool traffic.

  Only calls and responses whose tool sets a level, or runs an agent, are
  recorded; the rest take the default of the event's visibility.

  Args:
    event: The event, before plugins see it and before it is persisted.
    invocation_context: The invocation the event belongs to.
  """
  table = invocation_context._private_metadata.get(_TABLE_METADATA_KEY)
  if not table or event.content is None or not event.content.parts:
    return
  levels: dict[str, ToolVisibility] = {}
  for part in event.content.parts:
    call = part.function_call or part.function_response
    if call is None or not call.id or not call.name:
      continue
    level = table.get((event.author, call.name))
    if level is not None:
      levels[call.id] = level
  if levels:
    event.custom_metadata = _visibility_metadata.with_entries(
        event.custom_metadata, **{_LEVELS_ENTRY: levels}
    )


def stamped_levels(event: Event) -> Mapping[str, Any]:
  """Returns the levels stored on an event, by function call id."""
  metadata = event.custom_metadata
  levels = _visibility_metadata.read_entries(metadata).get(_LEVELS_ENTRY)
  if levels is None and metadata:
    levels = metadata.get(_EARLIER_LEVELS_KEY)
  return levels if isinstance(levels, Mapping) else {}


def _static_tool_names(agent: Any) -> set[str] | None:
  from .base_tool import BaseTool
  from .base_toolset import BaseToolset

  names = {sub_agent.name for sub_agent in agent.sub_agents}
  names.add('transfer_to_agent')
  for tool in agent.tools:
    if isinstance(tool, BaseToolset):
      return None
    if isinstance(tool, BaseTool):
      names.add(tool.name)
    else:
      names.add(getattr(tool, '__name__', ''))
  return names


def _default_level(tool: Any) -> ToolVisibility | None:
  from ._node_tool import NodeTool
  from .agent_tool import AgentTool

  if isinstance(tool, (AgentTool, NodeTool)):
    # Its response is the inner agent's or node's own output.
    return MINIMAL
  return None


def _collect(
    node: BaseNode,
    table: dict[tuple[str, str], ToolVisibility],
    visited: set[int],
) -> None:
  from ..agents._visibility import child_nodes
  from ..agents.llm_agent import LlmAgent
  from .base_tool import BaseTool

  if id(node) in visited:
    return
  visited.add(id(node))
  if isinstance(node, LlmAgent):
    for tool in getattr(node, 'tools', None) or ():
      if isinstance(tool, BaseTool):
        level = tool.user_visibility or _default_level(tool)
        if level is not None:
          table[(node.name, tool.name)] = level
    for name, level in (getattr(node, 'tool_visibility', None) or {}).items():
      table[(node.name, name)] = level
  for child in child_nodes(node):
    _collect(child, table, visited)
