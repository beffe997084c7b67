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

"""Which nodes of a drawn workflow graph are internal.

``plot_workflow_graph`` draws from the serialized app, where nodes are known
by name and an agent's inferred visibility is not recorded, so the names to
draw as internal are worked out from the live tree. A graph is drawn for one
level of the tree (the root, or the workflow at ``node``); a name drawn there
is internal only when every agent or node of that name below the level is
internal, so a name used twice is never marked wrongly.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
import functools
import logging
from typing import Any

from ...agents.visibility import effective_visibility

logger = logging.getLogger('google_adk.' + __name__)

_INTERNAL = 'internal'


def internal_nodes_by_level(root: Any) -> Callable[[str], frozenset[str]]:
  """Analyses the tree once; returns the internal names of each drawn level.

  Args:
    root: The app's root agent or node.

  Returns:
    A function of the level being drawn, as the dev server's graph endpoints
    name it (``''`` for the root, else ``'a/b'`` with or without the root's
    name in front), returning the names of the agents and nodes at or below
    that level whose events the Runner marks internal. It returns nothing if
    the tree cannot be analysed.
  """
  by_path: Mapping[str, str]
  try:
    by_path = effective_visibility(root)
  except Exception:  # pylint: disable=broad-except
    # Drawing the graph must not fail because the analysis did.
    logger.debug('Could not infer visibility for %r.', root, exc_info=True)
    by_path = {}
  return functools.partial(_internal_names, by_path, root.name)


def _internal_names(
    by_path: Mapping[str, str], root_name: str, drawn_path: str
) -> frozenset[str]:
  prefix = _absolute_path(root_name, drawn_path) + '/'
  levels_by_name: dict[str, set[str]] = {}
  for path, visibility in by_path.items():
    if path.startswith(prefix):
      name = path.rsplit('/', 1)[-1]
      levels_by_name.setdefault(name, set()).add(visibility)
  return frozenset(
      name for name, levels in levels_by_name.items() if levels == {_INTERNAL}
  )


def _absolute_path(root_name: str, drawn_path: str) -> str:
  parts = [part for part in drawn_path.strip('/').split('/') if part]
  if parts and parts[0] == root_name:
    parts = parts[1:]
  return '/'.join([root_name, *parts])
