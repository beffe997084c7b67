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

"""Visibility rules of workflow graphs and function nodes.

What reaches a person is speech, not data:

* **Speech** is what an agent says in text, a function node's message
  (``Event(message=...)``, a ``types.Content``) and a ``RequestInput``. A node
  that runs one speaker for each item (``parallel_worker``) speaks as that
  speaker does.
* **Data** is what code reads: a node's return value, a route, a join, and
  an agent's structured output (``output_schema``, which the runtime already
  keeps out of ``message_as_output``), or its text when every node after it
  is code that reads it (a function node choosing a route, a worker fanning
  out over a list).

A workflow node is covered when one of its unconditional successors, or every
route it can take, leads to a node that speaks or is covered. A node without
outgoing edges ends the workflow (the runtime makes its output the
workflow's), and so does a route whose every branch leads back to it, which is
a loop's exit test: when no route matches, the workflow ends. A function
node's message is the user's wherever the node sits, except inside a tool or
under an explicit value.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from typing import Any
from typing import Callable
from typing import Final
from typing import Iterator
from typing import TYPE_CHECKING

from ..agents import _visibility
from ..events._node_path_builder import _NodePathBuilder

if TYPE_CHECKING:
  from ..events.event import Event

_START_NAME: Final = '__START__'
# Calls that build something a function node says to the user rather than
# returns to the next node: ``Event(message=...)`` or ``Event(content=...)``,
# a ``Content``, or a request for the user's input.
_MESSAGE_TYPES: Final = frozenset(
    {'Content', 'ModelContent', 'UserContent', 'RequestInput'}
)
_MESSAGE_EVENT_FIELDS: Final = frozenset({'message', 'content'})


class WorkflowRule(_visibility.NodeRule):
  """A workflow speaks when every path from its start reaches a speaker."""

  def speaks(self, inference: _visibility.Inference, node: Any) -> bool:
    coverage, _ = graph_coverage(inference, node, exit_covered=False)
    return coverage.get(_START_NAME, False)

  def placed(
      self, index: _visibility.VisibilityIndex, path: str, forced: bool
  ) -> None:
    del path, forced
    _add_rule(index, _is_run_output)

  def children(
      self, inference: _visibility.Inference, node: Any, covered: bool
  ) -> Iterator[_visibility.Placement]:
    coverage, data = graph_coverage(inference, node, exit_covered=covered)
    for child in node._iter_static_children():
      child_covered = coverage.get(child.name, covered)
      yield child, child.name, child_covered, False, child.name in data


class FunctionNodeRule(_visibility.NodeRule):
  """A function node speaks when its code builds a message for the user."""

  def placed(
      self, index: _visibility.VisibilityIndex, path: str, forced: bool
  ) -> None:
    _add_rule(index, _is_run_output)
    if not forced:
      _add_rule(index, _NodeMessages).paths.add(path)

  def speaks(self, inference: _visibility.Inference, node: Any) -> bool:
    return _builds_messages(node) or super().speaks(inference, node)

  def addresses_user(self, node: Any) -> bool:
    return _builds_messages(node)

  def is_speaker(self, node: Any) -> bool:
    return _builds_messages(node)


WORKFLOW: Final = WorkflowRule()
FUNCTION_NODE: Final = FunctionNodeRule()


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


def _is_run_output(index: _visibility.VisibilityIndex, event: Event) -> bool:
  """Whether the event is what the run produced, not set internal.

  The runtime lists in ``node_info.output_for`` every node whose output the
  event is; when that reaches the root, only an explicit ``visibility`` hides
  it.
  """
  output_for = event.node_info.output_for
  if not output_for or not any(
      _NodePathBuilder.from_string(path).static_path == index.root_name
      for path in output_for
  ):
    return False
  placement = index.static_placement(event.node_info.path)
  return placement is None or not placement[1]


class _NodeMessages:
  """Whether an event is a message a function node wrote for the user.

  Inference reads a node's code to know whether it speaks; the event says it
  for certain, also for a message the code builds out of sight.
  """

  def __init__(self) -> None:
    self.paths: set[str] = set()

  def __call__(self, index: _visibility.VisibilityIndex, event: Event) -> bool:
    if not is_message(event):
      return False
    segments = _NodePathBuilder.from_string(event.node_info.path).static_path
    anchored = index.anchored(segments.split('/'))
    return anchored is not None and '/'.join(anchored) in self.paths


def _add_rule(index: _visibility.VisibilityIndex, rule: Any) -> Any:
  """Adds an event rule to the index once; a class is added as an instance."""
  for existing in index.event_rules:
    if existing is rule or (isinstance(rule, type) and type(existing) is rule):
      return existing
  added = rule() if isinstance(rule, type) else rule
  index.event_rules.append(added)
  return added


def graph_coverage(
    inference: _visibility.Inference, workflow: Any, *, exit_covered: bool
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
    return (inference.speaks(nodes[name]) and name not in data) or coverage[
        name
    ]

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


def _continuation_covered(
    name: str,
    edges: list[Any],
    reachable: dict[str, set[str]],
    through: Callable[[str], bool],
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
  from ._graph import DEFAULT_ROUTE

  routes = route if isinstance(route, list) else [route]
  return DEFAULT_ROUTE in routes


def _read_as_data(
    node: Any, edges: list[Any], outgoing: dict[str, list[Any]]
) -> bool:
  """Whether the nodes after a workflow node read its reply as data.

  Structured output is data wherever another node follows it. An agent's text
  is data when every node after it is code that reads it: a function node
  choosing a route from it, or a worker fanning out over it.
  """
  from ..agents.base_agent import BaseAgent
  from ._function_node import FunctionNode
  from ._parallel_worker import _ParallelWorker

  if _visibility.returns_data(node):
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
  func = getattr(node, '_unwrapped_func', None) or getattr(node, '_func', None)
  code = getattr(getattr(func, '__func__', func), '__code__', None)
  return code is not None and _code_builds_messages(code)


@functools.lru_cache(maxsize=256)
def _code_builds_messages(code: Any) -> bool:
  # Read once per function: the index is built per invocation.
  tree = source_tree(code)
  return tree is not None and any(
      isinstance(call, ast.Call) and builds_message(call)
      for call in ast.walk(tree)
  )


def source_tree(code: Any) -> ast.AST | None:
  """The syntax tree of a code object's source, None without source."""
  try:
    return ast.parse(textwrap.dedent(inspect.getsource(code)))
  except (OSError, TypeError, SyntaxError):
    return None


def builds_message(call: ast.Call) -> bool:
  """Whether a call builds something said to the user, not returned."""
  name = call_name(call)
  return name in _MESSAGE_TYPES or (
      name == 'Event'
      and any(k.arg in _MESSAGE_EVENT_FIELDS for k in call.keywords)
  )


def call_name(call: ast.Call) -> str | None:
  """The name a call is made by: ``f`` in ``f(...)`` and ``x.f(...)``."""
  func = call.func
  if isinstance(func, ast.Attribute):
    return func.attr
  return func.id if isinstance(func, ast.Name) else None
