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

"""Validation and configuration checks for ``LlmAgent.include_sources``.

``include_sources`` names whose messages an agent's model sees: ``'user'`` for
what the human typed, ``'self'`` for the agent's own earlier turns, and any
other string for the agent of that name. How the history is filtered lives in
``google.adk.flows.llm_flows.context._source_filter``; this module only checks
the setting itself, and is kept free of flow imports so ``LlmAgent`` can use it
at construction time.

Unknown names are reported rather than rejected: an agent is built before the
tree it ends up in, so at construction time there is nothing to check a name
against. When a ``Runner`` starts an invocation the tree is complete, and
``warn_unknown_include_sources`` checks every ``include_sources`` in it
against the names of the tree's nodes.

Each (root, agent, unknown name) triple is reported once per process: a runner
builds a context per invocation, and a server commonly builds a runner per
request, so anything coarser than the triple would either repeat on every turn
or hide a second typo behind the first. Keying on names rather than object
identity keeps the report single when the same tree is rebuilt from YAML or
cloned into a ``Workflow``. The tree itself is walked once per root object,
not once per invocation, so the check costs nothing on later turns; a tree
changed after it first ran is not checked again.
"""

from __future__ import annotations

import dataclasses
import difflib
import logging
from typing import Any
import weakref

from ..workflow._base_node import _walk_static_nodes
from ..workflow._base_node import BaseNode

logger = logging.getLogger('google_adk.' + __name__)

USER_SOURCE = 'user'
"""Messages the human typed (author ``user``, not a posted-back tool result)."""

SELF_SOURCE = 'self'
"""The agent's own earlier model turns and tool traffic."""

RESERVED_SOURCE_NAMES = frozenset({USER_SOURCE, SELF_SOURCE})

_EXAMPLE = "['user', 'self']"


def validate_include_sources(value: Any) -> list[str] | None:
  """Checks an ``include_sources`` value.

  Args:
    value: The value to check: None, or a list (tuple, set) of source names.

  Returns:
    None when ``value`` is None, otherwise the names as a new list in the order
    given. Duplicates are kept; they do not change what is included.

  Raises:
    ValueError: If ``value`` is a bare string, is not a collection of names, is
      empty, or holds an entry that is not a non-empty string.
  """
  if value is None:
    return None
  if isinstance(value, (str, bytes)):
    # A string is iterable, so without this check 'user' would quietly become
    # the sources 'u', 's', 'e' and 'r'.
    raise ValueError(
        'include_sources must be a list of source names, not the string'
        f' {value!r}. Write include_sources=[{value!r}] to include only that'
        ' source.'
    )
  if not isinstance(value, (list, tuple, set, frozenset)):
    raise ValueError(
        'include_sources must be a list of source names such as'
        f' {_EXAMPLE}, or None to include every source; got'
        f' {type(value).__name__}.'
    )
  if not value:
    raise ValueError(
        'include_sources=[] would hide every message, including the'
        " user's. Use include_sources=None to include every source, or"
        f' list the sources to include, such as {_EXAMPLE}.'
    )
  names = list(value)
  for position, name in enumerate(names):
    if not isinstance(name, str) or not name.strip():
      raise ValueError(
          'include_sources entries must be non-empty strings: '
          f'{USER_SOURCE!r}, {SELF_SOURCE!r} or an agent name. Entry'
          f' {position} is {name!r}.'
      )
  return names


_reported_unknown_sources: set[tuple[str, str, str]] = set()

# Roots already checked, by id (agents are unhashable).
_checked_roots: dict[int, weakref.ref[BaseNode]] = {}


def _did_you_mean(name: str, known_names: list[str]) -> str:
  """Returns a hint naming the known name closest to ``name``."""
  matches = difflib.get_close_matches(name, known_names, n=1)
  if matches:
    return f' Did you mean {matches[0]!r}?'
  return f' Known names: {", ".join(repr(n) for n in known_names)}.'


def already_checked(
    root: BaseNode, checked: dict[int, weakref.ref[BaseNode]]
) -> bool:
  """Returns whether ``root`` is in ``checked``, and adds it if not.

  Args:
    root: The root of an agent tree.
    checked: The roots a check has seen, by id. The weak reference drops an
      entry when its tree is collected, so a reused id is checked again.

  Returns:
    True if the same root object was checked before.
  """
  key = id(root)
  seen = checked.get(key)
  if seen is not None and seen() is root:
    return True
  checked[key] = weakref.ref(root, lambda _, key=key: checked.pop(key, None))
  return False


@dataclasses.dataclass(frozen=True)
class UnknownIncludeSource:
  """An ``include_sources`` entry that names nothing in the agent tree."""

  agent_name: str
  """The agent whose ``include_sources`` lists the name."""
  name: str
  """The entry that matches no reserved name and no node of the tree."""
  suggestion: str
  """A sentence naming the closest known name, or listing the known names."""

  def describe(self, root_name: str) -> str:
    """Returns what the entry does at run time, in plain words."""
    return (
        f'Agent {self.agent_name!r} lists {self.name!r} in include_sources,'
        f' but no agent named {self.name!r} runs in the tree rooted at'
        f' {root_name!r}, so that entry never matches a message.'
    )


def find_unknown_include_sources(root: BaseNode) -> list[UnknownIncludeSource]:
  """Finds the ``include_sources`` names that match nothing in a tree.

  A name that is neither reserved nor the name of a node in the tree can never
  match an event's author, so the agent silently sees less than its author
  intended.

  Args:
    root: The root of the agent tree.

  Returns:
    One entry per (agent, unknown name), in tree and list order.
  """
  nodes = list(_walk_static_nodes(root))
  configured = [
      (node, sources)
      for node in nodes
      if (sources := getattr(node, 'include_sources', None))
  ]
  if not configured:
    return []
  node_names = {node.name for node in nodes if getattr(node, 'name', None)}
  known_names = sorted(node_names | RESERVED_SOURCE_NAMES)
  unknown = []
  for node, sources in configured:
    for name in dict.fromkeys(sources):
      if name in RESERVED_SOURCE_NAMES or name in node_names:
        continue
      unknown.append(
          UnknownIncludeSource(
              agent_name=node.name,
              name=name,
              suggestion=_did_you_mean(name, known_names).strip(),
          )
      )
  return unknown


def warn_unknown_include_sources(root: BaseNode | None) -> None:
  """Warns about ``include_sources`` names that match nothing in a tree.

  Each unknown name is reported once per (root, agent) pair, with the closest
  known name as a suggestion.

  Args:
    root: The root of the agent tree about to run. None is ignored.
  """
  if root is None or already_checked(root, _checked_roots):
    return
  for entry in find_unknown_include_sources(root):
    key = (root.name, entry.agent_name, entry.name)
    if key in _reported_unknown_sources:
      continue
    _reported_unknown_sources.add(key)
    logger.warning('%s %s', entry.describe(root.name), entry.suggestion)
