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

"""The output of a workflow that ends inside a loop.

A workflow's output is its terminal node's output. A review loop such as
``(START, writer, reviewer, route)`` with ``route -> {'revise': writer}`` has
no terminal node: when the route does not revise, no edge matches and the
run ends without any node's output being the workflow's. The answer of such
a loop is what the node the loop re-enters produced last: the writer's last
draft. The verdict after it (``'OK'``) decides that the loop ends, it is not
the answer, so "the last output of the run" would pick the wrong node.

The node a loop re-enters is the target of a back edge: an edge that closes
a cycle in the static graph, found by a depth-first walk from ``START``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._base_node import START

if TYPE_CHECKING:
  from ._graph import Graph


def loop_entry_names(graph: Graph) -> frozenset[str]:
  """Returns the names of the nodes that a back edge of ``graph`` re-enters.

  Edges are walked in the order they were declared, so the result does not
  depend on how the graph's nodes are stored.
  """
  successors: dict[str, list[str]] = {}
  for edge in graph.edges:
    successors.setdefault(edge.from_node.name, []).append(edge.to_node.name)

  entries: set[str] = set()
  on_path: set[str] = {START.name}
  visited: set[str] = {START.name}
  # Each frame is a node on the current path and its successors left to walk.
  stack = [(START.name, iter(successors.get(START.name, ())))]
  while stack:
    name, pending = stack[-1]
    target = next(pending, None)
    if target is None:
      stack.pop()
      on_path.discard(name)
    elif target in on_path:
      entries.add(target)
    elif target not in visited:
      visited.add(target)
      on_path.add(target)
      stack.append((target, iter(successors.get(target, ()))))
  return frozenset(entries)
