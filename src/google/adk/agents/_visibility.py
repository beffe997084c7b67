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

"""Marks each event as user-facing or internal, from the tree that ran it.

The Runner builds a lookup table of its tree once per invocation (so a tree
changed between runs is read afresh) and marks each event by a lookup.

Placement reads the tree from the root down; the root is ``'user'`` unless it
says otherwise. ``covered`` means "on every path from here to the end of the
run, something still speaks to the user": such a node is internal, since an
answer follows whatever it says. What speaks, and what runs after what, depend
on the kind of node: a class names its ``NodeRule`` in ``_visibility_rule``;
under the base rule what a node runs shares its place.

An explicit ``visibility`` applies to the node's subtree, except descendants
that set their own, and does not cross into agents and nodes run as tools,
which answer their caller. ``'internal'`` silences what the subtree says,
except a descendant's set to ``'user'``, which still covers what runs before.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any
from typing import Callable
from typing import Final
from typing import Iterator
from typing import Literal
from typing import TYPE_CHECKING

from ..events._node_path_builder import _NodePathBuilder

if TYPE_CHECKING:
  from ..events.event import Event
  from ..workflow._base_node import BaseNode
  from .invocation_context import InvocationContext

logger = logging.getLogger('google_adk.' + __name__)

Visibility = Literal['user', 'internal']
"""Who an agent's events are meant for: the user, or another agent."""

USER: Final = 'user'
INTERNAL: Final = 'internal'
ALLOWED_VISIBILITIES: Final[tuple[str, ...]] = (USER, INTERNAL)

Placement = tuple['BaseNode', str, bool, bool, bool]
"""``(child, path segment, covered, runs as a tool, read as data)``."""

_USER_AUTHOR: Final = 'user'
_INDEX_METADATA_KEY: Final = '_adk_visibility_index'
# Event paths carry run ids, so a long session produces an unbounded number of
# distinct paths. The memo only saves re-parsing; dropping it costs nothing.
_MAX_MEMOIZED_PATHS: Final = 4096


def validate_visibility(value: Any, *, owner: str) -> Any:
  """Returns ``value`` if it is None (inferred) or an allowed visibility.

  Raises:
    ValueError: Naming ``owner`` and the allowed values, for any other value.
  """
  if value is None or value in ALLOWED_VISIBILITIES:
    return value
  raise ValueError(
      f'Invalid visibility {value!r} on {owner}. Allowed values: '
      + ', '.join(repr(v) for v in ALLOWED_VISIBILITIES)
      + ', or None to infer it from where the agent sits in the agent tree.'
  )


class NodeRule:
  """How inference reads one kind of node; this base rule is for a class
  without ``_visibility_rule``: an agent speaks unless its output is data,
  another node when something it runs does, and what it runs shares its place.
  """

  def speaks(self, inference: Inference, node: Any) -> bool:
    """Whether every run of ``node`` says something the user is meant to see."""
    from .base_agent import BaseAgent

    if isinstance(node, BaseAgent):
      return not returns_data(node)
    return any(inference.speaks(child) for child in static_children(node))

  def children(
      self, inference: Inference, node: Any, covered: bool
  ) -> Iterator[Placement]:
    """Places what ``node`` runs, given whether its own continuation is."""
    from .base_agent import BaseAgent

    del inference
    children = sub_agents(node) if isinstance(node, BaseAgent) else None
    for child in static_children(node) if children is None else children:
      yield child, child.name, covered, False, False

  def placed(self, index: VisibilityIndex, path: str, forced: bool) -> None:
    """Called once per static path, with whether it was set explicitly."""
    del index, path, forced

  def addresses_user(self, node: Any) -> bool:
    """Whether the node's speech is for the user wherever it sits."""
    del node
    return False

  def is_speaker(self, node: Any) -> bool:
    """Whether the node itself, not what it runs, says something to read."""
    from .base_agent import BaseAgent

    return isinstance(node, BaseAgent) and not returns_data(node)

  def ends_loops(self, node: Any) -> bool:
    """Whether the node's own code can end the loops around it."""
    del node
    return False

  def reads_reply(self, node: Any, agent: Any) -> bool:
    """Whether the code of ``node`` reads the reply of ``agent`` as data."""
    del node, agent
    return False


_BASE_RULE: Final = NodeRule()


def rule_of(node: Any) -> NodeRule:
  """Returns the rule the class of ``node`` names, or the base rule."""
  # ``__class__`` rather than ``type()``: a test double built with
  # ``Mock(spec=...)`` reports its spec's class there.
  rule = getattr(node.__class__, '_visibility_rule', None)
  return rule if isinstance(rule, NodeRule) else _BASE_RULE


@dataclasses.dataclass
class VisibilityIndex:
  """Effective visibility of every agent and node under one root."""

  root_name: str
  by_node: dict[int, Visibility] = dataclasses.field(default_factory=dict)
  """Keyed by ``id()`` of the node objects in the tree."""
  by_name: dict[str, Visibility] = dataclasses.field(default_factory=dict)
  """Keyed by agent name; the first agent of a name in depth-first order wins,
  as in ``BaseAgent.find_agent``."""
  by_path: dict[str, Visibility] = dataclasses.field(default_factory=dict)
  """Keyed by static node path (``'root/child/grandchild'``, no run ids)."""
  path_of_agent: dict[str, str] = dataclasses.field(default_factory=dict)
  """Static path of each agent and workflow, to anchor event paths that start
  below the root and place events without a path by their author."""
  forced_paths: set[str] = dataclasses.field(default_factory=set)
  """Static paths set explicitly (on the node or an ancestor) or inside an
  agent or node run as a tool: not inferred from what follows them."""
  _event_paths: dict[tuple[str, str], Visibility] = dataclasses.field(
      default_factory=dict
  )
  _placements: dict[str, tuple[Visibility, bool] | None] = dataclasses.field(
      default_factory=dict
  )
  event_rules: list[Callable[[VisibilityIndex, Event], bool]] = (
      dataclasses.field(default_factory=list)
  )
  """Tests under which an event of an internal node is the user's all the
  same; the rules of the nodes in the tree add them."""

  def visibility_of_event(self, event: Event) -> Visibility:
    """Returns who an event of this tree is meant for.

    The user's events are user-facing, and so is one that waits for the client
    to answer a long-running call (hidden, nobody could resume the run). Other
    events have the visibility of the node that produced it (its author, for a
    function response); events the tree cannot place stay user-facing.
    """
    author = event.author
    if author == _USER_AUTHOR or event.long_running_tool_ids:
      return USER
    path = event.node_info.path
    if not path:
      visibility = self.by_name.get(author)
      if visibility is None:
        visibility = self.by_path.get(self.path_of_agent.get(author, ''))
      return visibility or USER
    key = (path, author)
    visibility = self._event_paths.get(key)
    if visibility is None:
      visibility = self._visibility_from_path(path, author)
      if len(self._event_paths) >= _MAX_MEMOIZED_PATHS:
        self._event_paths.clear()
      self._event_paths[key] = visibility
    if visibility == INTERNAL and any(
        rule(self, event) for rule in self.event_rules
    ):
      return USER
    return visibility

  def _visibility_from_path(self, path: str, author: str) -> Visibility:
    segments = _NodePathBuilder.from_string(path).static_path.split('/')
    # A composite agent running as a workflow node stamps its own path on its
    # sub-agents' events, so a path only names the author when its leaf does.
    # Events of plain nodes are authored by their workflow, not by the node.
    if segments[-1] == author or author not in self.by_name:
      visibility = self._longest_known_prefix(segments)
      if visibility is not None:
        return visibility
    visibility = self.by_name.get(author)
    if visibility is not None:
      return visibility
    return self._longest_known_prefix(segments) or USER

  def anchored(self, segments: list[str]) -> list[str] | None:
    """Static path segments from the root, or None if the path is foreign."""
    if segments[0] == self.root_name:
      return segments
    anchor = self.path_of_agent.get(segments[0])
    return None if anchor is None else anchor.split('/') + segments[1:]

  def _longest_known_prefix(self, segments: list[str]) -> Visibility | None:
    segments = self.anchored(segments) or []
    # Paths below a node the tree does not hold (events a run-time node's
    # hook left unmarked) take the visibility of the nearest node it holds.
    for end in range(len(segments), 0, -1):
      visibility = self.by_path.get('/'.join(segments[:end]))
      if visibility is not None:
        return visibility
    return None

  def static_placement(self, path: str) -> tuple[Visibility, bool] | None:
    """Returns ``(visibility, set explicitly)`` of the node at an event path
    (run ids included), or None for a node scheduled at run time."""
    if path in self._placements:
      return self._placements[path]
    segments = _NodePathBuilder.from_string(path).static_path.split('/')
    static_path = '/'.join(self.anchored(segments) or [])
    visibility = self.by_path.get(static_path)
    placement = None
    if visibility is not None:
      placement = visibility, static_path in self.forced_paths
    if len(self._placements) >= _MAX_MEMOIZED_PATHS:
      self._placements.clear()
    self._placements[path] = placement
    return placement

  def _record(
      self, node: BaseNode, path: str, visibility: Visibility, forced: bool
  ) -> None:
    from ..workflow._workflow import Workflow
    from .base_agent import BaseAgent

    self.by_node.setdefault(id(node), visibility)
    if path not in self.by_path:
      self.by_path[path] = visibility
      if forced:
        self.forced_paths.add(path)
      rule_of(node).placed(self, path, forced)
    if isinstance(node, BaseAgent):
      self.by_name.setdefault(node.name, visibility)
    if isinstance(node, (BaseAgent, Workflow)):
      self.path_of_agent.setdefault(node.name, path)


def visibility_index(root: BaseNode) -> VisibilityIndex:
  """Builds the visibility index of the tree under ``root`` as it is now."""
  index = VisibilityIndex(root_name=root.name)
  Inference(index).assign(root, path=root.name, covered=False, forced=None)
  logger.debug('Effective visibility under %s: %s', root.name, index.by_path)
  return index


def bind_to_invocation(
    invocation_context: InvocationContext, root: BaseNode | None
) -> None:
  """Builds the index of the tree an invocation runs and keeps it there.

  The contexts of the agents the invocation runs share it by reference; an
  agent nested in a workflow has no parent link to find its tree otherwise.
  """
  if root is None:
    return
  try:
    index = visibility_index(root)
  except Exception:  # pylint: disable=broad-except
    # A tree the index cannot read runs as it would without it: no event is
    # marked internal.
    logger.debug('No visibility index for %r.', root, exc_info=True)
    return
  invocation_context._private_metadata[_INDEX_METADATA_KEY] = index


def index_for_invocation(
    invocation_context: InvocationContext,
) -> VisibilityIndex | None:
  """Returns the index the Runner bound to an invocation, if any."""
  index = invocation_context._private_metadata.get(_INDEX_METADATA_KEY)
  return index if isinstance(index, VisibilityIndex) else None


def annotate_event(event: Event, invocation_context: InvocationContext) -> None:
  """Marks an event internal when the agent that produced it is internal.

  Called before plugins see the event and before it is persisted. A value
  already set is kept; user-facing events are left unset, so they serialize
  as they do without this feature.
  """
  if event.visibility is not None:
    return
  index = index_for_invocation(invocation_context)
  if index is not None and index.visibility_of_event(event) == INTERNAL:
    event.visibility = INTERNAL


def _explicit_visibility(node: Any) -> Visibility | None:
  # A test double's attribute is neither value.
  value = getattr(node, 'visibility', None)
  return value if value in (USER, INTERNAL) else None


def sub_agents(node: Any) -> list[Any]:
  """Returns ``node.sub_agents``; none for a duck-typed agent or a test
  double such as ``Mock(spec=BaseAgent)``, which run as without visibility."""
  sub_agents = getattr(node, 'sub_agents', None)
  return list(sub_agents) if isinstance(sub_agents, (list, tuple)) else []


class Inference:
  """Places every node of one tree; see the module docstring."""

  def __init__(self, index: VisibilityIndex) -> None:
    self._index = index
    self._visited: set[int] = set()
    self._speaks: dict[tuple[int, bool], bool] = {}
    self._silenced = False

  def assign(
      self,
      node: BaseNode,
      *,
      path: str,
      covered: bool,
      forced: Visibility | None,
      read_as_data: bool = False,
      in_tool: bool = False,
  ) -> None:
    """Records the visibility of ``node`` at ``path`` and recurses.

    ``forced`` is the explicit value of the nearest ancestor that set one;
    ``read_as_data``, whether what runs next reads the node's reply as data;
    ``in_tool``, whether the node runs inside an agent or node run as a tool.
    """
    if id(node) in self._visited:
      return
    self._visited.add(id(node))
    forced = _explicit_visibility(node) or forced
    if forced is not None:
      effective = forced
    elif addresses_user(node) and not in_tool:
      effective = USER
    else:
      read_as_data = read_as_data or read_by_ancestor(node)
      effective = INTERNAL if covered or read_as_data else USER
    self._index._record(node, path, effective, forced is not None or in_tool)
    placements = rule_of(node).children(self, node, covered)
    for child, segment, child_covered, runs_as_tool, child_data in placements:
      self.assign(
          child,
          path=f'{path}/{segment}',
          covered=child_covered or effective == INTERNAL,
          forced=None if runs_as_tool else forced,
          read_as_data=child_data,
          in_tool=in_tool or runs_as_tool,
      )

  def speaks(self, node: Any) -> bool:
    """Whether every run of ``node`` says something the user is meant to
    see, which covers everything before it."""
    key = (id(node), self._silenced)
    if key not in self._speaks:
      # A cycle of agent references is read as not speaking.
      self._speaks[key] = False
      explicit = _explicit_visibility(node)
      silenced = self._silenced
      self._silenced = silenced or explicit == INTERNAL
      try:
        self._speaks[key] = explicit == USER or (
            not (self._silenced and is_speaker(node))
            and rule_of(node).speaks(self, node)
        )
      finally:
        self._silenced = silenced
    return self._speaks[key]


def addresses_user(node: Any) -> bool:
  """Whether a node's speech is the user's wherever it sits (not in a tool,
  not under an explicit value), even when something speaks after it."""
  return rule_of(node).addresses_user(node)


def is_speaker(node: Any) -> bool:
  """Whether a node itself, not what it runs, says something to read."""
  return rule_of(node).is_speaker(node)


def returns_data(agent: Any) -> bool:
  """Whether an agent's reply is data: structured, or read by code above."""
  from .llm_agent import LlmAgent

  return isinstance(agent, LlmAgent) and (
      agent.output_schema is not None or read_by_ancestor(agent)
  )


def read_by_ancestor(node: Any) -> bool:
  """Whether the code of an agent running ``node`` reads its reply as data."""
  ancestor = getattr(node, 'parent_agent', None)
  while ancestor is not None:
    if rule_of(ancestor).reads_reply(ancestor, node):
      return True
    ancestor = ancestor.parent_agent
  return False


def static_children(node: Any) -> list[Any]:
  """Returns the nodes a node declares it runs (none for a plain node)."""
  iter_children = getattr(node, '_iter_static_children', None)
  return list(iter_children()) if callable(iter_children) else []
