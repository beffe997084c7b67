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

"""ADK-D104 in a workflow: an ``include_sources`` entry names a parallel node.

A name can match a node the agent never hears from. Two nodes reached from
one fan-out (a node with two or more unconditional edges), with no path from
one to the other, run on branches of their own: each writes its events on
its branch, and a request leaves other branches' events out. The named node
has often not spoken yet when the agent runs, either. Routed edges choose one
successor, which runs on its predecessor's branch, so alternatives of a route
are not parallel.
"""

from __future__ import annotations

from typing import Any
from typing import Iterator

from ..workflow._base_node import BaseNode
from ._check_include_sources import UNKNOWN_INCLUDE_SOURCE
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

# The code belongs to _check_include_sources, which lists it.
CODES: tuple[str, ...] = ()


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports entries naming a node on a parallel branch of the reader's."""
  from ..workflow._workflow import Workflow

  for workflow in walk(root):
    graph = workflow.graph if isinstance(workflow, Workflow) else None
    if graph is None:
      continue
    parallel = _parallel_pairs(graph)
    for node in graph.nodes:
      entries = getattr(node, 'include_sources', None) or ()
      # A window entry names its source in ``source``.
      for name in dict.fromkeys(getattr(e, 'source', e) for e in entries):
        if (node.name, name) not in parallel:
          continue
        yield Diagnostic(
            Severity.WARNING,
            UNKNOWN_INCLUDE_SOURCE,
            node.name,
            f'Agent {node.name!r} lists {name!r} in include_sources, but'
            f' {name!r} runs in parallel with it in workflow'
            f' {workflow.name!r}: its events are on another branch, so the'
            f' model of {node.name!r} never sees messages from {name!r}.',
            'Join the branches first (a JoinNode after both, and'
            f' {node.name!r} after the join), or remove the entry.',
        )


def _parallel_pairs(graph: Any) -> set[tuple[str, str]]:
  """Returns the pairs of node names that run on parallel branches."""
  successors: dict[str, set[str]] = {}
  fan_outs: dict[str, list[str]] = {}
  for edge in graph.edges:
    source, target = edge.from_node.name, edge.to_node.name
    successors.setdefault(source, set()).add(target)
    if edge.route is None:
      fan_outs.setdefault(source, []).append(target)
  reach = {node.name: _reachable(successors, node.name) for node in graph.nodes}
  pairs: set[tuple[str, str]] = set()
  for targets in fan_outs.values():
    for first in targets:
      for second in targets:
        if first == second:
          continue
        for a in reach.get(first, {first}):
          for b in reach.get(second, {second}):
            if b not in reach.get(a, {a}) and a not in reach.get(b, {b}):
              pairs.add((a, b))
  return pairs


def _reachable(successors: dict[str, set[str]], start: str) -> set[str]:
  """The names reachable from ``start``, itself included."""
  seen = {start}
  pending = [start]
  while pending:
    for target in successors.get(pending.pop(), ()):
      if target not in seen:
        seen.add(target)
        pending.append(target)
  return seen
