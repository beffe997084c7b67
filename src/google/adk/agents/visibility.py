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


"""Who each agent of a tree speaks to, as the Runner infers it.

The Runner marks every event of an internal agent ``Event.is_user_facing ==
False``, from where the agent sits in the agent tree or workflow graph and the
``visibility`` values set on agents. ``effective_visibility`` gives the same
answer for a whole tree before anything runs, for tools that draw, check or
build agent trees and want to show what the Runner will do.

.. warning::
    This feature is **experimental** and its API or behavior may change in
    future releases.
"""

from __future__ import annotations

from typing import Any
from typing import TYPE_CHECKING

from . import _visibility
from ._visibility import Visibility
from ._visibility import visibility_index

if TYPE_CHECKING:
  from ..workflow._base_node import BaseNode

__all__ = ['Visibility', 'effective_visibility']


def effective_visibility(root: BaseNode) -> dict[str, Visibility]:
  """Returns the effective visibility of every agent and node under ``root``.

  Args:
    root: The root agent or workflow, as handed to the Runner.

  Returns:
    ``'user'`` or ``'internal'`` for each agent and node, keyed by its path
    from the root: ``'root'``, ``'root/child'``, ``'root/child/grandchild'``.
    A node reachable by two paths is listed under the first one found.
  """
  return dict(visibility_index(root).by_path)


def node_visibility(
    index: _visibility.VisibilityIndex, node: Any
) -> Visibility:
  """Returns the visibility of an agent or node of the tree ``index`` holds.

  A copy made at run time (workflows clone the agents they run) is matched
  by name; a node not in the tree has its explicit value, else ``'user'``.
  """
  visibility = index.by_node.get(id(node))
  if visibility is None:
    visibility = index.by_name.get(getattr(node, 'name', ''))
  if visibility is None:
    visibility = _visibility._explicit_visibility(node) or _visibility.USER
  return visibility
