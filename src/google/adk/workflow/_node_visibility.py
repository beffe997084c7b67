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

"""Visibility of the nodes a node runs through ``ctx.run_node``.

The agent tree and the workflow graph place every static node (see
``google.adk.agents._visibility``), but a node scheduled at run time is in
neither. What it is for is decided where it is scheduled, and the workflow
runtime already records it: ``ctx.run_node(child, use_as_output=True)`` makes
the child's output its parent's output (``node_info.output_for`` then lists
the parent), while a child run without it produces a value its parent
consumes. So a dynamic child of a user-facing node speaks to the user only
when its output is its parent's output, or when what it says is addressed to
the user wherever it runs (a function node's message, a task-mode agent);
every other dynamic child works for its parent and is internal. An explicit
``visibility`` on the child, or one set on an ancestor, wins as it does for
static nodes.

The decision is made when the node's events are enriched, where the node's
context still says whether its output was claimed; the Runner later keeps a
visibility already set on an event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _workflow_visibility
from ..agents import _visibility
from ._function_node import FunctionNode

if TYPE_CHECKING:
  from ..agents.context import Context
  from ..events.event import Event

_Placement = tuple[_visibility.Visibility, bool]


def annotate_event(event: Event, ctx: Context) -> None:
  """Sets the visibility of an event a dynamically scheduled node produced.

  Events of static nodes are left to the Runner, which places them from the
  tree.

  Args:
    event: The event, after its author and node path are set.
    ctx: The context of the node that produced it.
  """
  if event.visibility is not None:
    return
  index = _visibility.index_for_invocation(ctx._invocation_context)
  if index is None or index.static_placement(ctx.node_path) is not None:
    return
  visibility, forced = _placement(index, ctx)
  if (
      not forced
      and isinstance(ctx._node, FunctionNode)
      and _workflow_visibility.is_message(event)
  ):
    # A function node's message is the user's, whoever runs the node.
    visibility = _visibility.USER
  if (
      visibility == _visibility.INTERNAL
      or index.visibility_of_event(event) != visibility
  ):
    event.visibility = visibility


def _placement(index: _visibility.VisibilityIndex, ctx: Context) -> _Placement:
  """Returns ``(visibility, explicitly set)`` of the node ``ctx`` runs."""
  static = index.static_placement(ctx.node_path)
  if static is not None:
    return static
  explicit = _visibility._explicit_visibility(ctx._node)
  if explicit is not None:
    return explicit, True
  parent = ctx._parent_ctx
  if parent is None:
    return _visibility.USER, False
  parent_visibility, parent_forced = _placement(index, parent)
  if parent_forced:
    return parent_visibility, parent_forced
  if _visibility.addresses_user(ctx._node):
    return _visibility.USER, False
  if parent_visibility == _visibility.INTERNAL:
    return parent_visibility, False
  claimed = ctx._output_for_ancestors[:1] == [parent.node_path]
  return (_visibility.USER if claimed else _visibility.INTERNAL), False
