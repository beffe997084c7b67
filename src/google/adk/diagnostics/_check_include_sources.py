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

"""ADK-D104: an ``include_sources`` entry names nothing in the tree.

An agent is built before the tree it ends up in, so ``include_sources`` can
only be checked against the agents' names once the tree is complete. A name
that is neither reserved nor a node's name never matches an event's author,
so the agent silently sees less than its author intended. In a ``Workflow``
every node is a possible source (a function node, a join, a nested workflow,
whose output may be a node's input); nodes a function creates at run time and
runs with ``ctx.run_node`` are in no graph, so their names cannot be known.

A name can also match a node the agent never hears from, on a parallel
branch of the same workflow; the workflow checks report that under this code.
"""

from __future__ import annotations

from typing import Iterator

from ..agents._include_sources import RESERVED_SOURCE_NAMES
from ..utils._did_you_mean import did_you_mean
from ..workflow._base_node import BaseNode
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

UNKNOWN_INCLUDE_SOURCE = 'ADK-D104'
CODES = (UNKNOWN_INCLUDE_SOURCE,)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports each (agent, entry) whose entry matches no known name."""
  from ..workflow._workflow import Workflow

  nodes = list(walk(root))
  node_names = {node.name for node in nodes}
  known_names = sorted(node_names | RESERVED_SOURCE_NAMES)
  # In a workflow a source may be any node: a function node, a join, a
  # nested workflow.
  kind = (
      'agent or workflow node'
      if any(isinstance(node, Workflow) for node in nodes)
      else 'agent'
  )
  for node in nodes:
    sources = getattr(node, 'include_sources', None) or ()
    sources = [s for s in sources if isinstance(s, str) and s != '*']
    for name in dict.fromkeys(sources):
      if name in RESERVED_SOURCE_NAMES or name in node_names:
        continue
      yield Diagnostic(
          Severity.WARNING,
          UNKNOWN_INCLUDE_SOURCE,
          node.name,
          f'Agent {node.name!r} lists {name!r} in include_sources, but no'
          f' {kind} named {name!r} runs in the tree rooted at {root.name!r},'
          f' so its model never sees messages from {name!r}.',
          unknown_name_hint(name, known_names),
      )


def unknown_name_hint(name: str, known_names: list[str]) -> str:
  """ADK-D104's fix for a source name that names nothing in the tree.

  Args:
    name: The name an entry gives.
    known_names: The names it may have meant.

  Returns:
    The closest known name when one is close, else the known names, then
    what to do.
  """
  guess = did_you_mean(name, known_names) or (
      f'Known names: {", ".join(repr(n) for n in known_names)}. '
  )
  return f'{guess}Fix the name or remove the entry.'
