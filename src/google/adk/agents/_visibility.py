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

"""Infers which agents talk to the user and which work for another agent.

The shape of an agent tree, or of a workflow graph, already says who answers
the user: in a pipeline only the last step does, the steps before it produce
input for the step after them. This module turns that shape into a lookup
table, built once per invocation, so the Runner can mark every event as
user-facing or internal with a dictionary lookup instead of a walk over the
tree. Building it per invocation rather than once per tree keeps it right for
a tree changed between runs.

What reaches a person is speech, not data:

* **Speech** is what an agent says in text, a function node's message
  (``Event(message=...)``, a ``types.Content``), a ``RequestInput`` and a
  task-mode agent's conversation. A node that runs one speaker for each item
  (``parallel_worker``) speaks as that speaker does.
* **Data** is what code reads: a node's return value, a route, a join, and
  an agent's structured output (``output_schema``, which upstream already
  keeps out of ``message_as_output``), or its text when every node after it
  is code that reads it (a function node choosing a route, a worker fanning
  out over a list).

Inference, from the root down, follows one rule: an agent is internal only
when, on every path from it to the end of the run, something still speaks to
the user; otherwise it may say the last thing the user hears. Data that
another node reads is internal; data nothing reads after it is the run's
output (its ``node_info.output_for`` reaches the root) and is not. Speech
addressed to the user by construction (function-node messages, input
requests, task-mode agents) is user-facing wherever it sits. So inference
alone never leaves a run without an answer:

* The root is ``'user'`` unless it sets ``visibility`` itself.
* ``SequentialAgent``: a sub-agent is internal when a later one speaks, so
  every sub-agent but the last is internal unless later ones are internal by
  choice.
* ``LoopAgent``: the loop can end after its last sub-agent (max_iterations)
  and after any sub-agent carrying the ``exit_loop`` tool. With something
  after the loop that speaks, the whole body is internal; at the end of a run
  those sub-agents speak on every pass.
* ``ParallelAgent`` and agents this module has no rule for: sub-agents run
  side by side and inherit.
* ``LlmAgent``: sub-agents reached by transfer (and task-mode sub-agents, which
  converse with the user) inherit. Agents and nodes the agent runs as tools
  (``AgentTool``, ``mode='single_turn'`` sub-agents, workflows and nodes in
  ``tools``) answer the calling agent, so they are ``'internal'``.
* ``Workflow``: the rule over the graph's paths. A node is covered when one
  of its unconditional successors, or every route it can take, leads to a
  node that speaks or is covered. A node without outgoing edges ends the
  workflow (the runtime makes its output the workflow's), and so does a route
  whose every branch leads back to it, which is a loop's exit test: when no
  route matches, the workflow ends. Nested workflows and agents inside nodes
  recurse. Nodes scheduled at run time are placed by
  ``google.adk.workflow._node_visibility`` from ``use_as_output``.

An explicit ``visibility`` on an agent or node (a workflow, a function node,
a join) applies to its whole subtree, except descendants that set their own.
It does not cross into agents and nodes run as tools: those report to their
caller whatever the caller's audience is, speech addressed to the user
included.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import logging
import textwrap
from typing import Any
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

_USER_AUTHOR: Final = 'user'
_INDEX_METADATA_KEY: Final = '_adk_visibility_index'
# Event paths carry run ids, so a long session produces an unbounded number of
# distinct paths. The memo only saves re-parsing; dropping it costs nothing.
_MAX_MEMOIZED_PATHS: Final = 4096
_START_NAME: Final = '__START__'
_EXIT_LOOP_TOOL_NAME: Final = 'exit_loop'
# Calls that build something a function node says to the user rather than
# returns to the next node: ``Event(message=...)`` or ``Event(content=...)``,
# a ``Content``, or a request for the user's input.
_MESSAGE_TYPES: Final = frozenset(
    {'Content', 'ModelContent', 'UserContent', 'RequestInput'}
)
_MESSAGE_EVENT_FIELDS: Final = frozenset({'message', 'content'})


def validate_visibility(value: Any, *, owner: str) -> Any:
  """Checks an explicitly configured visibility.

  Args:
    value: The configured value. ``None`` asks for inference.
    owner: What the value was configured on, for the error message.

  Returns:
    The value, unchanged.

  Raises:
    ValueError: If the value is not one of the allowed values.
  """
  if value is None or (
      isinstance(value, str) and value in ALLOWED_VISIBILITIES
  ):
    return value
  raise ValueError(
      f'Invalid visibility {value!r} on {owner}. Allowed values: '
      + ', '.join(repr(v) for v in ALLOWED_VISIBILITIES)
      + ', or None to infer it from where the agent sits in the agent tree.'
  )


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
  below the root, and to place events without a path (a workflow's
  checkpoints) by their author."""
  message_paths: set[str] = dataclasses.field(default_factory=set)
  """Static paths of function nodes whose messages are the user's wherever
  they sit (not set explicitly, not inside a tool)."""
  forced_paths: set[str] = dataclasses.field(default_factory=set)
  """Static paths whose visibility was not inferred from what follows them:
  set explicitly, on the node or on an ancestor, or inside an agent or node
  run as a tool, which reports to its caller."""
  _event_paths: dict[tuple[str, str], Visibility] = dataclasses.field(
      default_factory=dict
  )
  _placements: dict[str, tuple[Visibility, bool] | None] = dataclasses.field(
      default_factory=dict
  )

  def visibility_of_node(self, node: Any) -> Visibility:
    """Returns the effective visibility of an agent or node of this tree.

    Args:
      node: The agent or node. A copy made at run time (workflows clone the
        agents they run) is matched by its name.

    Returns:
      The node's effective visibility, or its own explicit value (else
      ``'user'``) when the node is not part of this tree.
    """
    visibility = self.by_node.get(id(node))
    if visibility is None:
      visibility = self.by_name.get(getattr(node, 'name', ''))
    if visibility is None:
      visibility = _explicit_visibility(node) or USER
    return visibility

  def visibility_of_event(self, event: Event) -> Visibility:
    """Returns who an event of this tree is meant for.

    The user's own events are user-facing, and so is an event that waits for
    the client to answer a long-running call: hiding it would leave the
    invocation paused with nobody able to resume it. Every other event has the
    visibility of the agent or node that produced it, which also gives a
    function response the visibility of the agent whose call it answers, since
    that agent authors it. Events this tree cannot place stay user-facing,
    as every event is without this mark.

    Args:
      event: The event to classify.

    Returns:
      The event's visibility.
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
    if visibility == INTERNAL and (
        self._is_run_output(event) or self._is_node_message(event)
    ):
      return USER
    return visibility

  def _is_node_message(self, event: Event) -> bool:
    """Whether the event is a message a function node wrote for the user.

    Inference reads a node's code to know whether it speaks; the event says
    it for certain, also for a message the code builds out of sight.
    """
    if not self.message_paths or not is_message(event):
      return False
    segments = _NodePathBuilder.from_string(event.node_info.path).static_path
    anchored = self._anchored(segments.split('/'))
    return anchored is not None and '/'.join(anchored) in self.message_paths

  def _is_run_output(self, event: Event) -> bool:
    """Whether the event carries the root's own output, not set internal.

    The workflow runtime lists in ``node_info.output_for`` every node whose
    output the event is; when that reaches the root, the event is what the
    run produced, and only an explicit ``visibility`` may hide it.
    """
    output_for = event.node_info.output_for
    if not output_for or not any(
        _NodePathBuilder.from_string(path).static_path == self.root_name
        for path in output_for
    ):
      return False
    placement = self.static_placement(event.node_info.path)
    return placement is None or not placement[1]

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

  def _anchored(self, segments: list[str]) -> list[str] | None:
    """Static path segments from the root, or None if the path is foreign."""
    if segments[0] == self.root_name:
      return segments
    anchor = self.path_of_agent.get(segments[0])
    return None if anchor is None else anchor.split('/') + segments[1:]

  def _longest_known_prefix(self, segments: list[str]) -> Visibility | None:
    segments = self._anchored(segments) or []
    # Paths below a node the tree does not hold (events a run-time node's
    # hook left unmarked) take the visibility of the nearest node it holds.
    for end in range(len(segments), 0, -1):
      visibility = self.by_path.get('/'.join(segments[:end]))
      if visibility is not None:
        return visibility
    return None

  def static_placement(self, path: str) -> tuple[Visibility, bool] | None:
    """Returns the visibility of the node at an event path, if it is static.

    Args:
      path: A node path as events carry it, run ids included.

    Returns:
      ``(visibility, whether it was set explicitly)`` for a node of the tree
      this index was built from, or None for a node scheduled at run time.
    """
    if path in self._placements:
      return self._placements[path]
    segments = _NodePathBuilder.from_string(path).static_path.split('/')
    static_path = '/'.join(self._anchored(segments) or [])
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
    from ..workflow._function_node import FunctionNode
    from ..workflow._workflow import Workflow
    from .base_agent import BaseAgent

    self.by_node.setdefault(id(node), visibility)
    if path not in self.by_path:
      self.by_path[path] = visibility
      if forced:
        self.forced_paths.add(path)
      elif isinstance(node, FunctionNode):
        self.message_paths.add(path)
    if isinstance(node, BaseAgent):
      self.by_name.setdefault(node.name, visibility)
    if isinstance(node, (BaseAgent, Workflow)):
      self.path_of_agent.setdefault(node.name, path)


def visibility_index(root: BaseNode) -> VisibilityIndex:
  """Builds the visibility index of the tree under ``root``.

  Args:
    root: The root agent or node of the tree.

  Returns:
    The index for the tree as it is now.
  """
  index = VisibilityIndex(root_name=root.name)
  _Inference(index).assign(root, path=root.name, covered=False, forced=None)
  logger.debug('Effective visibility under %s: %s', root.name, index.by_path)
  return index


def bind_to_invocation(
    invocation_context: InvocationContext, root: BaseNode | None
) -> None:
  """Builds the index of the tree an invocation runs and keeps it there.

  The context is shared, by reference, with the contexts of the agents the
  invocation runs, so every event of the invocation is looked up in one index.
  An agent nested in a workflow has no parent link to the workflow, so the
  tree it belongs to can only be found through its context.

  Args:
    invocation_context: A new invocation context created by the Runner.
    root: The root agent or node the Runner runs.
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

  A visibility already set on the event, by the agent that built it or by an
  earlier pass, is kept. User-facing events are left unset, so they serialize
  exactly as they do without this feature.

  Args:
    event: The event, before plugins see it and before it is persisted.
    invocation_context: The invocation the event belongs to.
  """
  if event.visibility is not None:
    return
  index = index_for_invocation(invocation_context)
  if index is not None and index.visibility_of_event(event) == INTERNAL:
    event.visibility = INTERNAL


def _explicit_visibility(node: Any) -> Visibility | None:
  from ..workflow._base_node import BaseNode

  if isinstance(node, BaseNode):
    value = getattr(node, 'visibility', None)
    return value if value in (USER, INTERNAL) else None
  return None


def _sub_agents(node: Any) -> list[Any]:
  """Returns ``node.sub_agents``, or none for an agent without the field.

  Duck-typed agents and test doubles such as ``Mock(spec=BaseAgent)`` run
  under a Runner without the fields of a pydantic agent; they are read as
  having no sub-agents, and run exactly as they would without visibility.
  """
  sub_agents = getattr(node, 'sub_agents', None)
  return list(sub_agents) if isinstance(sub_agents, (list, tuple)) else []


class _Inference:
  """Places every node of one tree; see the module docstring for the rules.

  ``covered`` below means "on every path from here to the end of the run,
  something still speaks to the user". A node whose continuation is covered
  is internal: whatever it says is followed by an answer. A node whose
  continuation is not covered may say the last thing the user hears, so it
  is user-facing. Reasoning about paths rather than positions is what keeps
  loops answered: the last agent before a loop can end has nothing after it
  on the path that leaves the loop.
  """

  def __init__(self, index: VisibilityIndex) -> None:
    self._index = index
    self._visited: set[int] = set()
    self._speaks: dict[int, bool] = {}

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
    """Records the visibility of ``node`` and recurses into what it runs.

    Args:
      node: The agent or node to place.
      path: Its static path from the root.
      covered: Whether what runs after ``node`` always speaks to the user.
      forced: The explicit value of its nearest ancestor that set one, which
        overrides inference for the whole subtree.
      read_as_data: Whether what runs after ``node`` reads its reply as data.
      in_tool: Whether ``node`` runs inside an agent or node run as a tool.
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
      effective = INTERNAL if covered or read_as_data else USER
    self._index._record(node, path, effective, forced is not None or in_tool)
    for (
        child,
        segment,
        child_covered,
        runs_as_tool,
        child_data,
    ) in self._children(node, covered):
      self.assign(
          child,
          path=f'{path}/{segment}',
          covered=child_covered or effective == INTERNAL,
          forced=None if runs_as_tool else forced,
          read_as_data=child_data,
          in_tool=in_tool or runs_as_tool,
      )

  def speaks(self, node: Any) -> bool:
    """Whether every run of ``node`` says something the user is meant to see.

    An agent that is not internal either speaks to the user or is followed by
    something that does, so it covers everything before it. Agents whose
    output is structured data, and function nodes, joins and routes that
    build no message, compute rather than speak.
    """
    key = id(node)
    if key not in self._speaks:
      # A cycle of agent references is read as not speaking.
      self._speaks[key] = False
      self._speaks[key] = self._compute_speaks(node)
    return self._speaks[key]

  def _compute_speaks(self, node: Any) -> bool:
    from ..workflow._workflow import Workflow
    from .base_agent import BaseAgent
    from .loop_agent import LoopAgent
    from .parallel_agent import ParallelAgent
    from .sequential_agent import SequentialAgent

    explicit = _explicit_visibility(node)
    if explicit is not None:
      return explicit == USER
    if isinstance(node, LoopAgent):
      # The first pass runs every sub-agent up to one that can end the loop.
      for sub_agent in _sub_agents(node):
        if self.speaks(sub_agent):
          return True
        if _can_end_loop(sub_agent):
          return False
      return False
    if isinstance(node, (SequentialAgent, ParallelAgent)):
      return any(self.speaks(sub_agent) for sub_agent in _sub_agents(node))
    if isinstance(node, BaseAgent):
      return not _returns_data(node)
    if isinstance(node, Workflow):
      coverage, _ = self._graph_coverage(node, exit_covered=False)
      return coverage.get(_START_NAME, False)
    if _builds_messages(node):
      return True
    # A node that wraps another (a parallel worker) speaks as what it runs.
    return any(self.speaks(child) for child in _static_children(node))

  def _children(
      self, node: BaseNode, covered: bool
  ) -> Iterator[tuple[BaseNode, str, bool, bool, bool]]:
    """Yields ``(child, segment, covered, runs as tool, read as data)``."""
    from ..workflow._workflow import Workflow
    from .base_agent import BaseAgent
    from .llm_agent import LlmAgent
    from .loop_agent import LoopAgent
    from .sequential_agent import SequentialAgent

    if isinstance(node, SequentialAgent):
      sub_agents = _sub_agents(node)
      after = covered
      placed = []
      for position, sub_agent in enumerate(reversed(sub_agents)):
        read_as_data = position > 0 and _returns_data(sub_agent)
        placed.append((sub_agent, sub_agent.name, after, False, read_as_data))
        after = after or self.speaks(sub_agent)
      yield from reversed(placed)
    elif isinstance(node, LoopAgent):
      yield from self._loop_children(node, covered)
    elif isinstance(node, LlmAgent):
      yield from _llm_agent_children(node, covered)
    elif isinstance(node, BaseAgent):
      # ParallelAgent branches run side by side, none after another; agents
      # this module has no rule for are not assumed to hide anything.
      for sub_agent in _sub_agents(node):
        yield sub_agent, sub_agent.name, covered, False, False
    elif isinstance(node, Workflow):
      coverage, data = self._graph_coverage(node, exit_covered=covered)
      for child in node._iter_static_children():
        child_covered = coverage.get(child.name, covered)
        yield child, child.name, child_covered, False, child.name in data
    else:
      for child in _static_children(node):
        yield child, child.name, covered, False, False

  def _loop_children(
      self, loop: Any, covered: bool
  ) -> Iterator[tuple[BaseNode, str, bool, bool, bool]]:
    # The loop can end after its last sub-agent (max_iterations) and after
    # any sub-agent that can end it early; every other sub-agent is followed
    # by the next one.
    placed = []
    next_covered: bool | None = None
    for sub_agent in reversed(_sub_agents(loop)):
      if next_covered is None:
        after = covered
        read_as_data = False
      else:
        after = next_covered and (covered or not _can_end_loop(sub_agent))
        read_as_data = _returns_data(sub_agent)
      placed.append((sub_agent, sub_agent.name, after, False, read_as_data))
      next_covered = self.speaks(sub_agent) or after
    yield from reversed(placed)

  def _graph_coverage(
      self, workflow: Any, *, exit_covered: bool
  ) -> tuple[dict[str, bool], set[str]]:
    """Places each node of a workflow graph against what runs after it.

    Returns whether each node's continuation is covered, and which nodes'
    replies the nodes after them read as data.

    Coverage is the least fixed point over the graph: a node is covered when
    one of its unconditional successors speaks or is covered, or when every
    route it can take leads to one that is. A node whose routes all lead back
    into a loop through itself is where that loop ends, and so is a node
    without outgoing edges: there the workflow's own continuation decides.
    """
    graph = workflow.graph
    if graph is None:
      return {}, set()
    outgoing: dict[str, list[Any]] = {}
    nodes: dict[str, Any] = {}
    for edge in graph.edges:
      outgoing.setdefault(edge.from_node.name, []).append(edge)
      nodes[edge.from_node.name] = edge.from_node
      nodes[edge.to_node.name] = edge.to_node
    reachable = _reachability(outgoing)
    data = {
        name
        for name, edges in outgoing.items()
        if _read_as_data(nodes[name], edges, outgoing)
    }
    coverage = dict.fromkeys(nodes, False)

    def through(name: str) -> bool:
      return (self.speaks(nodes[name]) and name not in data) or coverage[name]

    changed = True
    while changed:
      changed = False
      for name in nodes:
        edges = outgoing.get(name, [])
        value = _continuation_covered(name, edges, reachable, through)
        if not edges or value is None:
          value = exit_covered
        if value and not coverage[name]:
          coverage[name] = True
          changed = True
    return coverage, data


def child_nodes(node: BaseNode) -> Iterator[BaseNode]:
  """Yields every agent and node ``node`` runs, agents run as tools included.

  This is the walk the index makes, for other tables built over the same tree.
  """
  inference = _Inference(VisibilityIndex(root_name=node.name))
  for child, *_ in inference._children(node, covered=False):
    yield child


def _continuation_covered(
    name: str,
    edges: list[Any],
    reachable: dict[str, set[str]],
    through: Any,
) -> bool | None:
  """Whether a node's successors cover it; None where the workflow may end."""
  unconditional = [e.to_node.name for e in edges if e.route is None]
  routed = [e for e in edges if e.route is not None]
  if any(through(target) for target in unconditional):
    return True
  if not routed:
    return False if unconditional else None
  targets = [e.to_node.name for e in routed]
  # A route with no default branch that only ever leads back to this node is
  # a loop's exit test: when none of its routes match, the workflow ends.
  may_end = (
      not unconditional
      and not any(_is_default_route(e.route) for e in routed)
      and all(name in reachable.get(target, ()) for target in targets)
  )
  covered = all(through(target) for target in targets)
  if may_end:
    return None if covered else False
  return covered


def _reachability(outgoing: dict[str, list[Any]]) -> dict[str, set[str]]:
  reachable: dict[str, set[str]] = {}
  for start in outgoing:
    seen: set[str] = set()
    stack = [e.to_node.name for e in outgoing[start]]
    while stack:
      name = stack.pop()
      if name in seen:
        continue
      seen.add(name)
      stack.extend(e.to_node.name for e in outgoing.get(name, ()))
    reachable[start] = seen
  return reachable


def _is_default_route(route: Any) -> bool:
  from ..workflow._graph import DEFAULT_ROUTE

  routes = route if isinstance(route, list) else [route]
  return DEFAULT_ROUTE in routes


def addresses_user(node: Any) -> bool:
  """Whether a node's speech is addressed to the user wherever it sits.

  A function node's message and a request for input are written for the user,
  and a task-mode agent converses with the user until its task is done, so
  none of them is anyone's intermediate step.
  """
  from ..utils._agent_mode import AgentMode
  from .llm_agent import LlmAgent

  if isinstance(node, LlmAgent):
    return node.mode == AgentMode.TASK
  return _builds_messages(node)


def says_something(event: Event) -> bool:
  """Whether an event carries something to read: words or media."""
  parts = (event.content.parts if event.content else None) or ()
  return any(
      (part.text and not part.thought) or part.inline_data or part.file_data
      for part in parts
  )


def is_message(event: Event) -> bool:
  """Whether a node's event is a message: words or media, not its output."""
  return event.output is None and says_something(event)


def is_speaker(node: Any) -> bool:
  """Whether a node itself says something to read, as inference counts it.

  An agent that replies in text (not a composite, which speaks through its
  sub-agents, nor an agent whose output is structured data), or a function
  node that builds messages.
  """
  from .base_agent import BaseAgent
  from .loop_agent import LoopAgent
  from .parallel_agent import ParallelAgent
  from .sequential_agent import SequentialAgent

  if isinstance(node, BaseAgent):
    return not isinstance(
        node, (SequentialAgent, ParallelAgent, LoopAgent)
    ) and not _returns_data(node)
  return _builds_messages(node)


def _returns_data(agent: Any) -> bool:
  """Whether an agent's output is structured data for code to read."""
  from .llm_agent import LlmAgent

  return isinstance(agent, LlmAgent) and agent.output_schema is not None


def _read_as_data(
    node: Any, edges: list[Any], outgoing: dict[str, list[Any]]
) -> bool:
  """Whether the nodes after a workflow node read its reply as data.

  Structured output is data wherever another node follows it. An agent's text
  is data when every node after it is code that reads it: a function node
  choosing a route from it, or a worker fanning out over it.
  """
  from ..workflow._function_node import FunctionNode
  from ..workflow._parallel_worker import _ParallelWorker
  from .base_agent import BaseAgent

  if _returns_data(node):
    return True
  if not isinstance(node, BaseAgent):
    return False
  for edge in edges:
    target = edge.to_node
    chooses_route = isinstance(target, FunctionNode) and any(
        e.route is not None for e in outgoing.get(target.name, ())
    )
    if not (chooses_route or isinstance(target, _ParallelWorker)):
      return False
  return True


def _builds_messages(node: Any) -> bool:
  """Whether a function node's code builds a message for the user."""
  from ..workflow._function_node import FunctionNode

  if not isinstance(node, FunctionNode):
    return False
  func = getattr(node, '_unwrapped_func', None) or getattr(node, '_func', None)
  code = getattr(getattr(func, '__func__', func), '__code__', None)
  return code is not None and _code_builds_messages(code)


@functools.lru_cache(maxsize=256)
def _code_builds_messages(code: Any) -> bool:
  # Read once per function: the index is built per invocation.
  try:
    tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
  except (OSError, TypeError, SyntaxError):
    return False
  for call in ast.walk(tree):
    if not isinstance(call, ast.Call):
      continue
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else None
    if isinstance(func, ast.Name):
      name = func.id
    if name in _MESSAGE_TYPES or (
        name == 'Event'
        and any(k.arg in _MESSAGE_EVENT_FIELDS for k in call.keywords)
    ):
      return True
  return False


def _static_children(node: Any) -> list[Any]:
  iter_children = getattr(node, '_iter_static_children', None)
  return list(iter_children()) if callable(iter_children) else []


def _can_end_loop(agent: Any) -> bool:
  """Whether an agent carries upstream's ``exit_loop`` tool."""
  for tool in getattr(agent, 'tools', None) or ():
    name = getattr(tool, 'name', None) or getattr(tool, '__name__', None)
    if name == _EXIT_LOOP_TOOL_NAME:
      return True
  return False


def _llm_agent_children(
    agent: Any, covered: bool
) -> Iterator[tuple[BaseNode, str, bool, bool, bool]]:
  from ..tools._node_tool import NodeTool
  from ..tools.agent_tool import AgentTool
  from ..utils._agent_mode import AgentMode
  from ..workflow._base_node import BaseNode
  from .base_agent import BaseAgent

  sub_agent_ids = set()
  for sub_agent in _sub_agents(agent):
    sub_agent_ids.add(id(sub_agent))
    if getattr(sub_agent, 'mode', None) == AgentMode.SINGLE_TURN:
      yield sub_agent, sub_agent.name, True, True, False
    else:
      # Reached by transfer, it answers in the agent's place.
      yield sub_agent, sub_agent.name, covered, False, False
  for tool in getattr(agent, 'tools', None) or ():
    # Sub-agents in single-turn or task mode also appear here as tools; they
    # were placed above.
    if isinstance(tool, AgentTool):
      if id(tool.agent) not in sub_agent_ids:
        yield tool.agent, tool.name, True, True, False
    elif isinstance(tool, NodeTool):
      yield tool.node, tool.name, True, True, False
    elif isinstance(tool, BaseNode) and not isinstance(tool, BaseAgent):
      yield tool, tool.name, True, True, False
