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

"""The run order of an agent tree, as what is known when each agent starts.

Agents hand data on through session state (``output_key`` stores a reply,
``{key}`` reads it back) and through history. ``follow`` walks a tree in the
order its topology gives and records a ``Flow`` at the start of every agent
or node. Sequences run in order; parallel branches not before each other; a
loop's later sibling only possibly, from the second iteration; transfer
targets, agents run as tools and custom agents' children in an order decided
at run time, so what they produce is possible, never certain. Other kinds of
node register how they run with ``register_node_kind``. State that exists
before the run (seeded, persisted ``app:``/``user:`` keys) cannot be known.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any
from typing import Callable
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


@dataclasses.dataclass(frozen=True)
class TemplateKey:
  """A state key an instruction template reads."""

  key: str
  optional: bool
  """Written ``{key?}``: a missing key renders as an empty string."""


def template_keys(template: str) -> list[TemplateKey]:
  """Returns the state keys a string instruction reads, in order.

  The instruction renderer's own pattern and name rule are used, so what is
  checked is exactly what the renderer looks up; artifacts and text that it
  leaves as written are skipped.
  """
  keys = []
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
  """What is known about session state and history at one point of a run.

  Attributes:
    certain: Keys stored through ``output_key`` on every path to this point.
    producers: (key, agent) pairs whose agent may have stored the key.
    opaque: Agents and nodes that may have written keys from code the check
      cannot read (callbacks, tools, custom agents).
    ran: Agents and nodes that may have run.
    latest: Agents whose reply may be the latest message.
  """

  certain: frozenset[str] = frozenset()
  producers: frozenset[tuple[str, str]] = frozenset()
  opaque: frozenset[str] = frozenset()
  ran: frozenset[str] = frozenset()
  latest: frozenset[str] = frozenset()

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

  def replied(self, name: str) -> Flow:
    """Returns the flow after the agent ``name`` replied."""
    return dataclasses.replace(self, latest=frozenset({name}))

  def possibly(self, other: Flow) -> Flow:
    """Adds what ``other`` knows, as possible rather than certain."""
    return dataclasses.replace(union(self, other), certain=self.certain)

  def producers_of(self, key: str) -> list[str]:
    """Returns the agents that may have stored ``key``, sorted."""
    return sorted(p for k, p in self.producers if k == key)


def union(*flows: Flow) -> Flow:
  """Returns what any of ``flows`` knows, each key certain if it is in any."""
  return Flow(*(
      frozenset().union(*(getattr(f, field.name) for f in flows))
      for field in dataclasses.fields(Flow)
  ))


def meet(flows: Iterable[Flow], *, all_run: bool = False) -> Flow:
  """Joins the flows of several predecessors.

  Args:
    flows: The predecessors' flows.
    all_run: Whether every predecessor has run (a join, a parallel agent's
      branches) rather than any one of them (alternative paths).

  Returns:
    The combined flow: a key is certain if every predecessor produced it, or,
    with ``all_run``, if any did.
  """
  flows = list(flows)
  if not flows:
    return Flow()
  if all_run:
    return union(*flows)
  certain = frozenset.intersection(*(f.certain for f in flows))
  return dataclasses.replace(union(*flows), certain=certain)


@dataclasses.dataclass
class Topology:
  """The result of following a tree: what each node starts with."""

  starts: dict[int, tuple[BaseNode, Flow]] = dataclasses.field(
      default_factory=dict
  )
  """Each node and its flow at start, merged over visits (a loop)."""
  run_as_tool: set[int] = dataclasses.field(default_factory=set)
  """Agents and nodes that answer a calling agent rather than the run."""
  _recording: bool = True

  def started(self, node: BaseNode, flow: Flow) -> None:
    """Keeps the flow at the start of ``node``.

    A node visited more than once has a key if any visit has it, so what is
    reported goes wrong on every run.
    """
    if not self._recording:
      return
    if id(node) in self.starts:
      flow = union(self.starts[id(node)][1], flow)
    self.starts[id(node)] = (node, flow)

  @contextlib.contextmanager
  def quietly(self) -> Iterator[None]:
    """Follows nodes without recording them, to compute a flow ahead."""
    recording = self._recording
    self._recording = False
    try:
      yield
    finally:
      self._recording = recording


NodeFlow = Callable[[Any, Flow, Topology], Flow]
"""Follows one node: returns the flow after it ran, following its children
with ``follow_node``."""

_NODE_KINDS: dict[type, tuple[NodeFlow, bool]] = {}


def register_node_kind(
    kind: type, follow_kind: NodeFlow, *, writes_state: bool
) -> None:
  """Says how a kind of node runs, for kinds this module does not know.

  Args:
    kind: The node class; subclasses match too.
    follow_kind: How a node of that kind runs its children.
    writes_state: Whether such a node may write state keys the check cannot
      read.
  """
  _NODE_KINDS[kind] = (follow_kind, writes_state)


def follow(root: BaseNode) -> Topology:
  """Follows the tree under ``root`` in run order.

  Returns:
    The flow at the start of each node, and the agents run as tools.
  """
  topology = Topology()
  follow_node(root, Flow(), topology)
  return topology


def follow_node(node: BaseNode, flow: Flow, topology: Topology) -> Flow:
  """Returns the flow after ``node`` ran, recording where each node starts."""
  topology.started(node, flow)
  after = _flow_of_kind(node, flow, topology)
  return dataclasses.replace(after, ran=after.ran | {node.name})


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
  return [node.name for node in _walk_all(root) if writes_opaquely(node)]


def _walk_all(root: BaseNode) -> Iterator[BaseNode]:
  """Walks the tree, including agents run as tools."""
  from ..tools.agent_tool import AgentTool

  seen: set[int] = set()
  stack = [root]
  while stack:
    for node in _walk_static_nodes(stack.pop()):
      if id(node) in seen:
        continue
      seen.add(id(node))
      yield node
      for tool in getattr(node, 'tools', None) or ():
        if isinstance(tool, AgentTool):
          stack.append(tool.agent)


def _registered(node: BaseNode) -> tuple[NodeFlow, bool] | None:
  for kind, rule in _NODE_KINDS.items():
    if isinstance(node, kind):
      return rule
  return None


def _flow_of_kind(node: BaseNode, flow: Flow, topology: Topology) -> Flow:
  from ..agents.base_agent import BaseAgent
  from ..agents.llm_agent import LlmAgent
  from ..agents.loop_agent import LoopAgent
  from ..agents.parallel_agent import ParallelAgent
  from ..agents.sequential_agent import SequentialAgent

  registered = _registered(node)
  if registered is not None:
    return registered[0](node, flow, topology)
  if isinstance(node, LlmAgent):
    return _llm_agent_flow(node, flow, topology)
  if isinstance(node, SequentialAgent):
    for sub_agent in node.sub_agents:
      flow = follow_node(sub_agent, flow, topology)
    return flow
  if isinstance(node, ParallelAgent):
    branches = [follow_node(sub, flow, topology) for sub in node.sub_agents]
    return meet(branches, all_run=True) if branches else flow
  if isinstance(node, LoopAgent):
    first = flow
    for sub_agent in node.sub_agents:
      first = follow_node(sub_agent, first, topology)
    # From the second iteration on, everything the body produced may be
    # there, but only the first iteration's order is certain.
    again = flow.possibly(first)
    for sub_agent in node.sub_agents:
      again = follow_node(sub_agent, again, topology)
    return first.possibly(again)
  # A custom agent or node decides at run time whether and when its children
  # run, and may reply and write state itself.
  after = flow.with_opaque(node.name)
  if isinstance(node, BaseAgent):
    after = after.possibly(flow.replied(node.name))
  children = list(node._iter_static_children())
  return after.possibly(_unordered(children, after, topology))


def _unordered(children: list[Any], flow: Flow, topology: Topology) -> Flow:
  """Follows children whose order is decided at run time.

  Each child may run after any other, so each one starts with everything the
  others produce as possible.
  """
  if not children:
    return Flow()
  with topology.quietly():
    everything = flow
    for child in children:
      everything = everything.possibly(follow_node(child, flow, topology))
  start = flow.possibly(everything)
  result = Flow()
  for child in children:
    result = result.possibly(follow_node(child, start, topology))
  return result


def _llm_agent_flow(agent: Any, flow: Flow, topology: Topology) -> Flow:
  from ..tools._node_tool import NodeTool
  from ..tools.agent_tool import AgentTool
  from ..utils._agent_mode import AgentMode

  after = flow.replied(agent.name)
  if agent.output_key:
    after = after.produced(agent.output_key, agent.name)
  if writes_opaquely(agent):
    after = after.with_opaque(agent.name)
  helpers: list[BaseNode] = []
  for sub_agent in agent.sub_agents:
    if getattr(sub_agent, 'mode', None) == AgentMode.SINGLE_TURN:
      topology.run_as_tool.add(id(sub_agent))
    helpers.append(sub_agent)
  sub_agent_ids = {id(sub_agent) for sub_agent in agent.sub_agents}
  for tool in agent.tools:
    node: BaseNode | None = None
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


def writes_opaquely(node: Any) -> bool:
  """Whether the node may write state keys the check cannot see."""
  from ..agents.base_agent import BaseAgent
  from ..agents.llm_agent import LlmAgent
  from ..agents.loop_agent import LoopAgent
  from ..agents.parallel_agent import ParallelAgent
  from ..agents.sequential_agent import SequentialAgent
  from ..tools.agent_tool import AgentTool

  registered = _registered(node)
  if registered is not None:
    return registered[1]
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
  return isinstance(node, (BaseAgent, BaseNode))
