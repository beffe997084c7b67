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

"""Which state keys are known to exist when each agent or node starts.

ADK agents hand data to each other through session state: an ``LlmAgent``
with ``output_key`` stores its reply there, an instruction reads it back with
``{key}``, and a workflow ``FunctionNode`` receives its parameters from it.
This module follows the order the topology gives and records, for every such
read, what is known about the key at that point:

* ``certain``: keys produced, through ``output_key``, on every path that leads
  to the reader.
* ``producers``: every (key, agent) pair whose producer may have run before
  the reader, certainly or not.
* ``opaque``: agents and nodes that may have run before the reader and may
  write state in ways the check cannot read (callbacks, tools, function nodes,
  custom agents).

Order, by topology:

* ``SequentialAgent``: each sub-agent runs after the ones before it.
* ``ParallelAgent``: branches start together and do not run before each
  other; all have finished when the agent ends.
* ``LoopAgent``: the body runs in order; a later sibling's key is only
  *possibly* there, from the second iteration on.
* ``LlmAgent`` transfer, agents and nodes run as tools, and custom agents'
  children: the order is decided at run time, so what they produce is
  possible, never certain.
* ``Workflow``: a node's keys are certain when every path from ``START``
  produces them (a ``JoinNode`` waits for all of its predecessors); keys
  produced on some paths, or on a loop back, are possible.

State that exists before the run (seeded with ``create_session(state=...)``,
persisted ``app:`` and ``user:`` keys, or a previous turn's values) cannot be
known here; the checks in ``_checks`` weigh that when they choose a severity.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any
from typing import Iterable
from typing import Iterator

from ..flows.llm_flows.prompt._instructions_utils import _is_valid_state_name
from ..flows.llm_flows.prompt._instructions_utils import _TEMPLATE_VAR_PATTERN
from ..workflow._base_node import _walk_static_nodes
from ..workflow._base_node import BaseNode

_ARTIFACT_PREFIX = 'artifact.'

# Tools that ship with ADK and never write session state: they do not make an
# agent an opaque state writer.
_TOOLS_THAT_KEEP_STATE = frozenset({
    'exit_loop',
    'transfer_to_agent',
    'google_search',
    'url_context',
    'load_artifacts',
    'load_memory',
    'preload_memory',
})

_MAX_WORKFLOW_PASSES = 50


@dataclasses.dataclass(frozen=True)
class TemplateKey:
  """A state key an instruction template reads."""

  key: str
  optional: bool
  """Written ``{key?}``: a missing key renders as an empty string."""


def template_keys(template: str) -> list[TemplateKey]:
  """Returns the state keys a string instruction reads, in order.

  Args:
    template: The instruction, as configured on the agent.

  Returns:
    One entry per placeholder that names session state; artifacts and text
    that upstream leaves as written are skipped.
  """
  keys = []
  # The instruction renderer's own pattern and name rule, so that what is
  # checked is exactly what the renderer will look up.
  for match in _TEMPLATE_VAR_PATTERN.finditer(template):
    name = match.group().lstrip('{').rstrip('}').strip()
    optional = name.endswith('?')
    if optional:
      name = name[:-1]
    if name.startswith(_ARTIFACT_PREFIX) or not _is_valid_state_name(name):
      continue
    keys.append(TemplateKey(key=name, optional=optional))
  return keys


@dataclasses.dataclass(frozen=True)
class Flow:
  """What is known about session state at one point of a run."""

  certain: frozenset[str] = frozenset()
  producers: frozenset[tuple[str, str]] = frozenset()
  opaque: frozenset[str] = frozenset()
  ran: frozenset[str] = frozenset()
  """Agents and nodes that may have run before this point."""

  def produced(self, key: str, producer: str) -> Flow:
    """Returns the flow after ``producer`` stored ``key``."""
    return dataclasses.replace(
        self,
        certain=self.certain | {key},
        producers=self.producers | {(key, producer)},
    )

  def with_opaque(self, name: str) -> Flow:
    """Returns the flow after ``name`` may have written unknown keys."""
    return dataclasses.replace(self, opaque=self.opaque | {name})

  def after_run_of(self, name: str) -> Flow:
    """Returns the flow after the agent or node ``name`` ran."""
    return dataclasses.replace(self, ran=self.ran | {name})

  def possibly(self, other: Flow) -> Flow:
    """Adds what ``other`` produced, as possible rather than certain."""
    return Flow(
        self.certain,
        self.producers | other.producers,
        self.opaque | other.opaque,
        self.ran | other.ran,
    )

  def producers_of(self, key: str) -> list[str]:
    """Returns the agents that may have stored ``key``, sorted."""
    return sorted(p for k, p in self.producers if k == key)


def _meet(flows: Iterable[Flow], *, all_run: bool = False) -> Flow:
  """Joins the flows of several predecessors.

  Args:
    flows: The predecessors' flows.
    all_run: Whether every predecessor has run (a join, a parallel agent's
      branches) rather than any one of them (alternative paths).

  Returns:
    The combined flow.
  """
  flows = list(flows)
  if not flows:
    return Flow()
  certain = [f.certain for f in flows]
  return Flow(
      frozenset.union(*certain)
      if all_run
      else frozenset.intersection(*certain),
      frozenset.union(*(f.producers for f in flows)),
      frozenset.union(*(f.opaque for f in flows)),
      frozenset.union(*(f.ran for f in flows)),
  )


@dataclasses.dataclass
class StateRead:
  """A read of a state key by an agent's instruction or a workflow node."""

  reader: Any
  key: str
  optional: bool
  by_function_node: bool
  flow: Flow
  routes: bool = False
  """The node decides which edge the workflow follows next."""


@dataclasses.dataclass
class Topology:
  """The result of following a tree: its reads and how agents run."""

  reads: dict[tuple[int, str], StateRead] = dataclasses.field(
      default_factory=dict
  )
  run_as_tool: set[int] = dataclasses.field(default_factory=set)
  """Agents and nodes that answer a calling agent rather than the run."""
  feeds_next_node: set[int] = dataclasses.field(default_factory=set)
  """Workflow nodes whose output is a later node's input."""
  starts: dict[int, Flow] = dataclasses.field(default_factory=dict)
  """The flow when each agent or node starts, over all visits."""
  routing_nodes: set[int] = dataclasses.field(default_factory=set)
  """Workflow nodes with a routed outgoing edge: they choose the next node."""
  _recording: bool = True

  def record(self, read: StateRead) -> None:
    """Keeps the read, merged with earlier visits of the same reader."""
    if not self._recording:
      return
    key = (id(read.reader), read.key)
    earlier = self.reads.get(key)
    if earlier is None:
      self.reads[key] = read
      return
    # A reader visited more than once (a loop's second iteration) has the key
    # if any visit has it: the check reports what can go wrong on every run.
    earlier.flow = _union(earlier.flow, read.flow)

  def started(self, node: Any, flow: Flow) -> None:
    """Keeps the flow at the start of ``node``, merged over visits."""
    if not self._recording:
      return
    earlier = self.starts.get(id(node))
    self.starts[id(node)] = flow if earlier is None else _union(earlier, flow)


def _union(first: Flow, second: Flow) -> Flow:
  return Flow(
      first.certain | second.certain,
      first.producers | second.producers,
      first.opaque | second.opaque,
      first.ran | second.ran,
  )


def follow(root: BaseNode) -> Topology:
  """Follows the tree under ``root`` in run order and records state reads.

  Args:
    root: The root agent or workflow.

  Returns:
    The reads, with what was known about each key, and the agents that run
    as tools or feed a workflow successor.
  """
  topology = Topology()
  _flow(root, Flow(), topology)
  return topology


def produced_keys(root: BaseNode) -> dict[str, list[str]]:
  """Maps every ``output_key`` in the tree to the agents that set it."""
  keys: dict[str, list[str]] = {}
  for node in _walk_all(root):
    output_key = getattr(node, 'output_key', None)
    if isinstance(output_key, str) and output_key:
      keys.setdefault(output_key, []).append(node.name)
  return keys


def opaque_writers(root: BaseNode) -> list[str]:
  """Names the agents and nodes in the tree that may write unknown keys."""
  return [node.name for node in _walk_all(root) if _writes_opaquely(node)]


def _walk_all(root: BaseNode) -> Iterator[BaseNode]:
  """Walks the tree, including agents run as tools."""
  from ..tools.agent_tool import AgentTool

  seen: set[int] = set()
  for node in _walk_static_nodes(root):
    if id(node) in seen:
      continue
    seen.add(id(node))
    yield node
    for tool in getattr(node, 'tools', None) or ():
      if isinstance(tool, AgentTool) and id(tool.agent) not in seen:
        yield from _walk_all(tool.agent)


def _flow(node: BaseNode, flow: Flow, topology: Topology) -> Flow:
  """Returns the flow after ``node`` ran, recording the reads inside it."""
  topology.started(node, flow)
  return _flow_of_kind(node, flow, topology).after_run_of(node.name)


def _flow_of_kind(node: BaseNode, flow: Flow, topology: Topology) -> Flow:
  from ..agents.base_agent import BaseAgent
  from ..agents.llm_agent import LlmAgent
  from ..agents.loop_agent import LoopAgent
  from ..agents.parallel_agent import ParallelAgent
  from ..agents.sequential_agent import SequentialAgent
  from ..workflow._function_node import FunctionNode
  from ..workflow._join_node import JoinNode
  from ..workflow._workflow import Workflow

  if isinstance(node, LlmAgent):
    return _llm_agent_flow(node, flow, topology)
  if isinstance(node, SequentialAgent):
    for sub_agent in node.sub_agents:
      flow = _flow(sub_agent, flow, topology)
    return flow
  if isinstance(node, ParallelAgent):
    branches = [_flow(sub, flow, topology) for sub in node.sub_agents]
    return _meet(branches, all_run=True) if branches else flow
  if isinstance(node, LoopAgent):
    first = flow
    for sub_agent in node.sub_agents:
      first = _flow(sub_agent, first, topology)
    # From the second iteration on, everything the body produced may be
    # there, but only the first iteration's order is certain.
    again = flow.possibly(first)
    for sub_agent in node.sub_agents:
      again = _flow(sub_agent, again, topology)
    return first.possibly(again)
  if isinstance(node, Workflow):
    return _workflow_flow(node, flow, topology)
  if isinstance(node, FunctionNode):
    _record_function_reads(node, flow, topology)
    return flow.with_opaque(node.name)
  if isinstance(node, JoinNode):
    return flow
  if isinstance(node, BaseAgent):
    # A custom agent decides at run time whether and when its children run.
    after = flow.with_opaque(node.name)
    return after.possibly(_unordered(node.sub_agents, after, topology))
  after = flow.with_opaque(node.name)
  children = list(node._iter_static_children())
  return after.possibly(_unordered(children, after, topology))


def _unordered(children: list[Any], flow: Flow, topology: Topology) -> Flow:
  """Follows children whose order is decided at run time.

  Each child may run after any other, so each one starts with everything the
  others produce as possible.
  """
  if not children:
    return Flow()
  recording = topology._recording
  topology._recording = False
  try:
    everything = flow
    for child in children:
      everything = everything.possibly(_flow(child, flow, topology))
  finally:
    topology._recording = recording
  start = flow.possibly(everything)
  result = Flow()
  for child in children:
    result = result.possibly(_flow(child, start, topology))
  return result


def _llm_agent_flow(agent: Any, flow: Flow, topology: Topology) -> Flow:
  from ..tools._node_tool import NodeTool
  from ..tools.agent_tool import AgentTool
  from ..utils._agent_mode import AgentMode

  # A before_agent_callback runs before the instruction is rendered.
  own = flow.with_opaque(agent.name) if agent.before_agent_callback else flow
  if isinstance(agent.instruction, str):
    for template_key in template_keys(agent.instruction):
      topology.record(
          StateRead(
              reader=agent,
              key=template_key.key,
              optional=template_key.optional,
              by_function_node=False,
              flow=own,
          )
      )
  after = flow
  if agent.output_key:
    after = after.produced(agent.output_key, agent.name)
  if _writes_opaquely(agent):
    after = after.with_opaque(agent.name)
  helpers = []
  for sub_agent in agent.sub_agents:
    if getattr(sub_agent, 'mode', None) == AgentMode.SINGLE_TURN:
      topology.run_as_tool.add(id(sub_agent))
    helpers.append(sub_agent)
  sub_agent_ids = {id(sub_agent) for sub_agent in agent.sub_agents}
  for tool in agent.tools:
    node = None
    if isinstance(tool, AgentTool):
      node = tool.agent
    elif isinstance(tool, NodeTool):
      node = tool.node
    elif isinstance(tool, BaseNode):
      node = tool
    if node is not None and id(node) not in sub_agent_ids:
      topology.run_as_tool.add(id(node))
      helpers.append(node)
  if not helpers:
    return after
  # Transfer targets and tools run during the agent's turn, in an order the
  # model chooses; the agent itself may run again after a transfer back.
  # The agent's own output_key is stored when its turn ends, so for them it
  # is only possible (from an earlier turn).
  return after.possibly(_unordered(helpers, flow.possibly(after), topology))


def _writes_opaquely(node: Any) -> bool:
  """Whether the node may write state keys the check cannot see."""
  from ..agents.base_agent import BaseAgent
  from ..agents.llm_agent import LlmAgent
  from ..agents.loop_agent import LoopAgent
  from ..agents.parallel_agent import ParallelAgent
  from ..agents.sequential_agent import SequentialAgent
  from ..tools.agent_tool import AgentTool
  from ..workflow._join_node import JoinNode
  from ..workflow._workflow import Workflow

  if isinstance(node, (SequentialAgent, ParallelAgent, LoopAgent)):
    return bool(node.before_agent_callback or node.after_agent_callback)
  if isinstance(node, LlmAgent):
    callbacks = (
        node.before_agent_callback,
        node.after_agent_callback,
        node.before_model_callback,
        node.after_model_callback,
        node.before_tool_callback,
        node.after_tool_callback,
    )
    if any(callbacks):
      return True
    return any(
        not isinstance(tool, (AgentTool, BaseNode))
        and getattr(tool, 'name', None) not in _TOOLS_THAT_KEEP_STATE
        for tool in node.tools
    )
  if isinstance(node, (Workflow, JoinNode)):
    return False
  return isinstance(node, (BaseAgent, BaseNode))


def _record_function_reads(node: Any, flow: Flow, topology: Topology) -> None:
  if node.parameter_binding != 'state':
    return
  for name, parameter in node._sig.parameters.items():
    if name in (node._context_param_name, 'node_input'):
      continue
    if parameter.kind in (
        inspect.Parameter.VAR_POSITIONAL,
        inspect.Parameter.VAR_KEYWORD,
    ):
      continue
    topology.record(
        StateRead(
            reader=node,
            key=name,
            optional=parameter.default is not inspect.Parameter.empty,
            by_function_node=True,
            flow=flow,
            routes=id(node) in topology.routing_nodes,
        )
    )


def _workflow_flow(workflow: Any, flow: Flow, topology: Topology) -> Flow:
  from ..workflow._base_node import START
  from ..workflow._join_node import JoinNode

  graph = workflow.graph
  if graph is None or not graph.edges:
    return flow
  predecessors: dict[int, list[BaseNode]] = {}
  has_successor: set[int] = set()
  for edge in graph.edges:
    predecessors.setdefault(id(edge.to_node), []).append(edge.from_node)
    has_successor.add(id(edge.from_node))
    if edge.route is not None:
      topology.routing_nodes.add(id(edge.from_node))
  nodes = [node for node in graph.nodes if node.name != START.name]
  topology.feeds_next_node.update(
      id(node) for node in nodes if id(node) in has_successor
  )
  after: dict[int, Flow] = {}

  def start_of(node: BaseNode) -> Flow | None:
    flows = []
    for predecessor in predecessors.get(id(node), []):
      if predecessor.name == START.name:
        flows.append(flow)
      elif id(predecessor) in after:
        flows.append(after[id(predecessor)])
    if not flows:
      return None
    # A join waits for every predecessor; any other node runs when one of
    # them triggers it, so only what all of them produce is certain.
    return _meet(flows, all_run=isinstance(node, JoinNode))

  # Iterate to a fixed point first (graphs may loop back), without recording,
  # then record each read once with the final flows.
  recording = topology._recording
  topology._recording = False
  try:
    for _ in range(_MAX_WORKFLOW_PASSES):
      changed = False
      for node in nodes:
        start = start_of(node)
        if start is None:
          continue
        result = _flow(node, start, topology)
        if after.get(id(node)) != result:
          after[id(node)] = result
          changed = True
      if not changed:
        break
  finally:
    topology._recording = recording
  for node in nodes:
    start = start_of(node)
    if start is not None:
      _flow(node, start, topology)
  terminals = [
      after[id(node)]
      for node in nodes
      if id(node) not in has_successor and id(node) in after
  ]
  return _meet(terminals) if terminals else flow
