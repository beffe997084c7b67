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

A tool that runs an agent or a node answers at its level in every channel:

* A task-mode sub-agent's result reaches its caller as a function response
  the framework authors as ``'user'``, and as the arguments of the task
  agent's ``finish_task`` call; both take the level of the task's tool.
* The events an agent or node run as a tool produces on the tool's branch
  (``<tool>@<call id>``: single-turn sub-agents, workflows and nodes in
  ``tools``) are internal, as the visibility index places them, its
  workflow's checkpoints included; inside a ``'hidden'`` tool they are not
  sent at all. A task agent converses with the user, so its events keep
  their visibility.
* The state the tool's agent writes is the agent's output too. ``AgentTool``
  forwards it into the ``state_delta`` of the call's function response, which
  the user-facing caller authors; the keys of such a response are recorded
  as written by an internal agent (see ``events/_state_view.py``). A
  ``'hidden'`` tool shows the client nothing, its state included: the keys
  of an event that answers a hidden call are withheld as it is read. A
  parallel batch merges its calls' deltas into one event, so which call
  wrote a key cannot be told: every key of a batch that answers a tool
  running an agent or a hidden tool is withheld, and a key another tool of
  the same batch wrote reaches the client only when named in
  ``client_state_keys``.

The level is decided when the event is produced, where the tool objects are
known, and stored with the event in its ADK-internal visibility entry, so
stored events alone say what a client may see of them; they are read back,
failed closed, by ``events/_event_records.py``.
"""

from __future__ import annotations

from collections.abc import Container
from collections.abc import Mapping
import dataclasses
import logging
from typing import Any
from typing import cast
from typing import Final
from typing import Iterator
from typing import Literal
from typing import TYPE_CHECKING

from ..events import _event_records
from ..events import _visibility_metadata
from ..utils._did_you_mean import did_you_mean
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
_USER_AUTHOR: Final = 'user'
_FINISH_TASK: Final = 'finish_task'
_STRICTEST_FIRST: Final[tuple[str, ...]] = (HIDDEN, MINIMAL, FULL)


class ToolVisibilityError(ValueError):
  """A tool visibility the fork refuses, raised where it is set.

  Its text names the setting, the value and the fix. A level set on a tool
  object (``tool.user_visibility = ...``) is set outside any agent, so the
  doors (``adk run``, ``adk web``, ``adk check``) recognize this class to
  show the text rather than a traceback.
  """


def validate_tool_visibility(value: Any, *, owner: str) -> Any:
  """Checks a configured tool visibility.

  Args:
    value: The configured value. ``None`` keeps the default.
    owner: What the value was configured on, for the error message.

  Returns:
    The value, unchanged.

  Raises:
    ToolVisibilityError: If the value is not one of the allowed values.
  """
  if value is None or (
      isinstance(value, str) and value in ALLOWED_TOOL_VISIBILITIES
  ):
    return value
  raise ToolVisibilityError(
      f'Invalid tool visibility {value!r} on {owner}. '
      + did_you_mean(value, ALLOWED_TOOL_VISIBILITIES)
      + 'Allowed values: '
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
    ToolVisibilityError: If it is not a mapping of tool names to allowed
      levels, or names a call the client must act on, which always reaches
      it in full.
  """
  if value is None:
    return {}
  if not isinstance(value, Mapping):
    raise ToolVisibilityError(
        f'tool_visibility of agent {agent_name!r} must map tool names to'
        f' levels, got {type(value).__name__}.'
    )
  checked: dict[str, ToolVisibility] = {}
  for name, level in value.items():
    if not isinstance(name, str):
      raise ToolVisibilityError(
          f'tool_visibility of agent {agent_name!r} is keyed by tool name,'
          f' got {name!r}. A tool object sets its own level with'
          ' `tool.user_visibility = ...`.'
      )
    if name in CLIENT_FUNCTION_CALL_NAMES:
      raise ToolVisibilityError(
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
    ToolVisibilityError: If a name is not one of the agent's tools.
  """
  if not agent.tool_visibility:
    return
  names = _static_tool_names(agent)
  if names is None:
    return
  unknown = sorted(set(agent.tool_visibility) - names)
  if unknown:
    # transfer_to_agent is accepted always, but named only where it is a
    # tool the model sees: an agent with sub-agents.
    shown = sorted(names if agent.sub_agents else names - {'transfer_to_agent'})
    raise ToolVisibilityError(
        f'tool_visibility of agent {agent.name!r} names'
        f' {", ".join(repr(n) for n in unknown)}, not among its tools'
        f' ({", ".join(repr(n) for n in shown) or "none"}). '
        + did_you_mean(unknown[0], shown)
        + 'Use the name the model calls the tool by.'
    )


@dataclasses.dataclass
class _ToolTable:
  """What the Runner needs to know of the tools of one invocation's tree."""

  levels: dict[tuple[str, str], ToolVisibility] = dataclasses.field(
      default_factory=dict
  )
  """Levels by ``(author of the traffic, tool name)``."""
  agent_tools: set[tuple[str, str]] = dataclasses.field(default_factory=set)
  """``(author of the response, tool name)`` of tools that run an agent or
  a node."""
  branch_levels: dict[str, ToolVisibility] = dataclasses.field(
      default_factory=dict
  )
  """Levels of the tools whose agent or node runs on ``<tool>@<call id>``
  branches of this invocation, by tool name."""


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
  table = _ToolTable()
  try:
    _collect(root, table, visited=set())
  except Exception:  # pylint: disable=broad-except
    # A tree this cannot read runs as it would without tool levels.
    logger.debug('No tool visibility for %r.', root, exc_info=True)
    return
  invocation_context._private_metadata[_TABLE_METADATA_KEY] = table


def stamp_event(event: Event, invocation_context: InvocationContext) -> None:
  """Records on an event what its tools let the client see of it.

  The levels of calls and responses whose tool sets a level, or runs an
  agent, by call id; the rest take the default of the event's visibility.
  The calls of tools that run an agent or a node, which a client draws as
  that agent's work rather than as a tool. The state keys a tool's agent
  wrote into the event's ``state_delta``. And whether the event was
  produced inside a hidden tool's call.

  Args:
    event: The event, before plugins see it and before it is persisted.
    invocation_context: The invocation the event belongs to.
  """
  table = invocation_context._private_metadata.get(_TABLE_METADATA_KEY)
  if not isinstance(table, _ToolTable):
    return
  entries: dict[str, Any] = {}
  if _enclosing_tool_level(event, table) == HIDDEN:
    entries[_event_records.INSIDE] = HIDDEN
  parts = (event.content.parts if event.content else None) or []
  levels: dict[str, ToolVisibility] = {}
  agent_calls: list[str] = []
  answers_agent_tool = False
  for part in parts:
    call = part.function_call or part.function_response
    if call is None or not call.id or not call.name:
      continue
    key = (event.author, call.name)
    level = table.levels.get(key)
    if level is not None:
      levels[call.id] = level
    if key in table.agent_tools:
      if part.function_response is not None:
        answers_agent_tool = True
      elif level != HIDDEN:
        agent_calls.append(call.id)
  if levels:
    entries[_event_records.TOOLS] = levels
  if agent_calls:
    entries[_event_records.AGENTS] = agent_calls
  if answers_agent_tool and event.actions.state_delta:
    entries[_event_records.STATE] = sorted(event.actions.state_delta)
  if entries:
    event.custom_metadata = _visibility_metadata.with_entries(
        event.custom_metadata, **entries
    )


def _enclosing_tool_level(
    event: Event, table: _ToolTable
) -> ToolVisibility | None:
  """Returns the strictest level of the tools whose call produced an event.

  The runtime puts a tool's run on the ``<tool>@<call id>`` branch below its
  caller's, the checkpoints of a workflow run as a tool included.
  """
  if not event.branch or not table.branch_levels:
    return None
  found = [
      table.branch_levels[name]
      for name, at, _ in (
          segment.rpartition('@') for segment in event.branch.split('.')
      )
      if at and name in table.branch_levels
  ]
  if not found:
    return None
  return min(found, key=_STRICTEST_FIRST.index)


def level_of_tool(
    invocation_context: InvocationContext, author: str, tool_name: str
) -> ToolVisibility:
  """Returns the configured level of an agent's tool, before any default.

  A tool that runs an agent is ``'minimal'`` unless set; any other tool
  without a level is ``'full'`` here, the level of a user-facing agent's.
  """
  table = invocation_context._private_metadata.get(_TABLE_METADATA_KEY)
  if isinstance(table, _ToolTable):
    level = table.levels.get((author, tool_name))
    if level is not None:
      return level
  return FULL


def stricter(first: str, second: str) -> str:
  """Returns the level of the two that shows the client less."""
  return min(first, second, key=_STRICTEST_FIRST.index)


def tool_call_of_branch(
    branch: str | None, call_ids: Container[str]
) -> tuple[str, str] | None:
  """Returns the innermost tool call, of ``call_ids``, a branch runs under.

  The runtime runs an agent or node used as a tool in the caller's
  invocation on the ``<tool>@<call id>`` branch below the caller's.

  Returns:
    ``(call id, tool name)``, or None when the branch is under none of them.
  """
  if not branch:
    return None
  for segment in reversed(branch.split('.')):
    name, at, call_id = segment.rpartition('@')
    if at and call_id in call_ids:
      return call_id, name
  return None


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


def _runs_agent(tool: Any) -> bool:
  from ._node_tool import NodeTool
  from .agent_tool import AgentTool

  return isinstance(tool, (AgentTool, NodeTool))


def _runs_on_tool_branch(tool: Any) -> bool:
  """Whether a tool runs its agent or node in the caller's invocation.

  A plain ``AgentTool`` runs its agent in a nested Runner whose events never
  reach the caller's stream, and a task agent converses with the user.
  """
  from ._node_tool import NodeTool
  from .agent_tool import _SingleTurnAgentTool

  inner = getattr(tool, 'node', None) or getattr(tool, 'agent', None)
  if getattr(inner, 'visibility', None) == 'user':
    # Set on the agent or node itself: it speaks to the user as a tool too.
    return False
  return isinstance(tool, (NodeTool, _SingleTurnAgentTool))


def child_nodes(node: BaseNode) -> Iterator[BaseNode]:
  """Yields every agent and node ``node`` runs, agents run as tools included.

  This is the walk visibility inference makes, for the tables built over the
  same tree.
  """
  from ..agents import _visibility

  inference = _visibility.Inference(
      _visibility.VisibilityIndex(root_name=node.name)
  )
  for child, *_ in _visibility.rule_of(node).children(
      inference, node, covered=False
  ):
    yield child


def _collect(
    node: BaseNode,
    table: _ToolTable,
    visited: set[int],
) -> None:
  from ..agents.llm_agent import LlmAgent
  from .agent_tool import _TaskAgentTool
  from .base_tool import BaseTool

  if id(node) in visited:
    return
  visited.add(id(node))
  if isinstance(node, LlmAgent):
    tools = [
        tool
        for tool in getattr(node, 'tools', None) or ()
        if isinstance(tool, BaseTool)
    ]
    for tool in tools:
      # Its response is the inner agent's or node's own output.
      level = tool.user_visibility or (MINIMAL if _runs_agent(tool) else None)
      if level is not None:
        table.levels[(node.name, tool.name)] = level
    for name, level in (getattr(node, 'tool_visibility', None) or {}).items():
      table.levels[(node.name, name)] = level
    for tool in tools:
      level = table.levels.get((node.name, tool.name))
      if level is None or not _runs_agent(tool):
        continue
      table.agent_tools.add((node.name, tool.name))
      if _runs_on_tool_branch(tool):
        known = table.branch_levels.get(tool.name, level)
        table.branch_levels[tool.name] = cast(
            ToolVisibility, stricter(known, level)
        )
      if isinstance(tool, _TaskAgentTool):
        # The runtime answers the call as the user, with the task's result,
        # which the task agent handed over as finish_task's arguments.
        table.levels[(_USER_AUTHOR, tool.name)] = level
        table.agent_tools.add((_USER_AUTHOR, tool.name))
        table.levels.setdefault((tool.agent.name, _FINISH_TASK), level)
  for child in child_nodes(node):
    _collect(child, table, visited)
