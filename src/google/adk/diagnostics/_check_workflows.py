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

"""ADK-D106: a workflow node reads a state key nothing before it produces.

A ``FunctionNode`` with ``parameter_binding='state'`` (the default) takes each
parameter without a default from session state; a route function or a loop's
exit decision is the common case. When the key is missing the node fails with
``WorkflowDataError``. The run order in a ``Workflow`` comes from its graph: a
node's keys are certain when every path from ``START`` produces them (a
``JoinNode`` waits for all of its predecessors); keys produced on some paths
only, or on a loop back, are possible.
"""

from __future__ import annotations

import inspect
from typing import Any
from typing import Iterator

from ..workflow._base_node import BaseNode
from ..workflow._base_node import START
from ..workflow._function_node import FunctionNode
from ..workflow._join_node import JoinNode
from ..workflow._workflow import Workflow
from ._check_state_keys import missing_key
from ._check_state_keys import StateRead
from ._checks import walk
from ._diagnostic import Diagnostic
from ._state_flow import Flow
from ._state_flow import follow
from ._state_flow import follow_node
from ._state_flow import meet
from ._state_flow import opaque_writers
from ._state_flow import produced_keys
from ._state_flow import register_node_kind
from ._state_flow import Topology

MISSING_ROUTE_STATE = 'ADK-D106'
CODES = (MISSING_ROUTE_STATE,)

# A graph that loops back reaches its fixed point in a few passes; the bound
# only guards against a flow that never settles.
_MAX_PASSES = 50


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports each function-node parameter not certainly in state."""
  topology = follow(root)
  producers = produced_keys(root)
  writers = opaque_writers(root)
  routing = _routing_nodes(root)
  for node, flow in topology.starts.values():
    if not isinstance(node, FunctionNode) or node.parameter_binding != 'state':
      continue
    for key, optional in _state_parameters(node):
      if optional or key in flow.certain:
        continue
      role = ' (which chooses the route)' if id(node) in routing else ''
      yield missing_key(
          StateRead(
              code=MISSING_ROUTE_STATE,
              reader=node.name,
              key=key,
              flow=flow,
              what=(
                  f'Workflow node {node.name!r}{role} takes its parameter'
                  f' {key!r} from session state'
              ),
              failure=(
                  'the node fails with WorkflowDataError ("Missing value for'
                  ' parameter")'
              ),
              optional_fix=f'give the parameter a default ({key}=None)',
          ),
          producers,
          writers,
      )


def _state_parameters(node: Any) -> Iterator[tuple[str, bool]]:
  """Yields each parameter taken from state, and whether it has a default."""
  for name, parameter in node._sig.parameters.items():
    if name in (node._context_param_name, 'node_input') or parameter.kind in (
        inspect.Parameter.VAR_POSITIONAL,
        inspect.Parameter.VAR_KEYWORD,
    ):
      continue
    yield name, parameter.default is not inspect.Parameter.empty


def _routing_nodes(root: BaseNode) -> set[int]:
  """Workflow nodes with a routed outgoing edge: they choose the next node."""
  routing: set[int] = set()
  for node in walk(root):
    if isinstance(node, Workflow) and node.graph is not None:
      routing.update(
          id(edge.from_node)
          for edge in node.graph.edges
          if edge.route is not None
      )
  return routing


def _workflow_flow(workflow: Any, flow: Flow, topology: Topology) -> Flow:
  graph = workflow.graph
  if graph is None or not graph.edges:
    return flow
  predecessors: dict[int, list[BaseNode]] = {}
  has_successor: set[int] = set()
  for edge in graph.edges:
    predecessors.setdefault(id(edge.to_node), []).append(edge.from_node)
    has_successor.add(id(edge.from_node))
  nodes = [node for node in graph.nodes if node.name != START.name]
  after: dict[int, Flow] = {}

  def start_of(node: BaseNode) -> Flow | None:
    flows = [
        flow if predecessor.name == START.name else after[id(predecessor)]
        for predecessor in predecessors.get(id(node), [])
        if predecessor.name == START.name or id(predecessor) in after
    ]
    if not flows:
      return None
    # A join waits for every predecessor; any other node runs when one of
    # them triggers it, so only what all of them produce is certain.
    return meet(flows, all_run=isinstance(node, JoinNode))

  # Iterate to a fixed point first (graphs may loop back), without recording,
  # then record each node's start once with the final flows.
  with topology.quietly():
    for _ in range(_MAX_PASSES):
      changed = False
      for node in nodes:
        start = start_of(node)
        if start is None:
          continue
        result = follow_node(node, start, topology)
        if after.get(id(node)) != result:
          after[id(node)] = result
          changed = True
      if not changed:
        break
  for node in nodes:
    start = start_of(node)
    if start is not None:
      follow_node(node, start, topology)
  terminals = [
      after[id(node)]
      for node in nodes
      if id(node) not in has_successor and id(node) in after
  ]
  return meet(terminals) if terminals else flow


register_node_kind(Workflow, _workflow_flow, writes_state=False)
register_node_kind(JoinNode, lambda node, flow, _: flow, writes_state=False)
register_node_kind(
    FunctionNode,
    lambda node, flow, _: flow.with_opaque(node.name),
    writes_state=True,
)
