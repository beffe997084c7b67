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

"""Draws agents that work for another agent dashed in the agent graph.

``build_graph`` is a public, recursive coroutine, so the visibility index of
the tree being drawn is not threaded through its signature: ``get_agent_graph``
builds the index once and sets it for the duration of the drawing in a context
variable, which is local to the drawing task, so concurrent drawings of
different trees do not see each other's index. Agents and nodes inside a
``Workflow`` have no ``parent_agent``, so without the index of the root being
drawn they would each look like the root of a tree of their own, and always
user-facing.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any
from typing import Iterator

from ..agents._visibility import INTERNAL
from ..agents._visibility import Visibility
from ..agents._visibility import visibility_index
from ..agents._visibility import VisibilityIndex
from ..agents.base_agent import BaseAgent
from ..agents.visibility import node_visibility
from ..tools._node_tool import NodeTool
from ..tools.agent_tool import AgentTool
from ..workflow._base_node import BaseNode

_drawing_index: contextvars.ContextVar[VisibilityIndex | None] = (
    contextvars.ContextVar('_drawing_index', default=None)
)


@contextlib.contextmanager
def drawing_tree(root: BaseNode) -> Iterator[None]:
  """Makes ``graph_style`` look drawn agents and nodes up in ``root``'s tree.

  Args:
    root: The root agent or node of the graph being drawn.

  Yields:
    Nothing; the lookup applies until the block ends.
  """
  token = _drawing_index.set(visibility_index(root))
  try:
    yield
  finally:
    _drawing_index.reset(token)


def graph_style(drawn: Any, base_style: str) -> str:
  """Returns the graphviz style for a drawn agent or tool.

  Args:
    drawn: The agent, tool or node being drawn.
    base_style: The style it is drawn with when it is user-facing.

  Returns:
    ``base_style``, plus ``dashed`` when what is drawn works for another agent.
  """
  if _visibility_for_drawing(drawn) == INTERNAL:
    return f'{base_style},dashed'
  return base_style


def _visibility_for_drawing(drawn: Any) -> Visibility | None:
  if isinstance(drawn, AgentTool):
    if drawn.agent.parent_agent is None:
      return drawn.agent.visibility or INTERNAL
    # Single-turn and task-mode sub-agents are also drawn as their parent's
    # tools; they keep the visibility they have as sub-agents.
    drawn = drawn.agent
  if isinstance(drawn, NodeTool):
    node = drawn.node
    explicit = node.visibility if isinstance(node, BaseAgent) else None
    return explicit or INTERNAL
  index = _drawing_index.get()
  if index is not None and isinstance(drawn, BaseNode):
    return node_visibility(index, drawn)
  if isinstance(drawn, BaseAgent):
    return node_visibility(visibility_index(drawn.root_agent), drawn)
  return None
