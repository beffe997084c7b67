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

"""ADK-D102 and ADK-D103: what an agent receives in its conversation history.

An agent's reply reaches a later agent in two ways: through session state
(``output_key`` and ``{key}``) and as a message in the later agent's history,
unless its ``include_sources`` leaves the replying agent out. With
``include_contents='none'`` the history still holds the current turn, which
starts at the latest message from an included source: the reply of the agent
that spoke just before.

In a ``Workflow`` there is a third way: the node input. Each node is given
the output of the node that triggered it, and an ``LlmAgent`` node in
``single_turn`` mode receives it as a user message. Such a node without
``include_sources`` sees no other node's messages in its history (only its
own node path's events), so a predecessor's reply reaches it as node input
only. With ``include_sources`` it sees the sources it names, and its node
input only when the input's source is one of them.

* ADK-D102: an internal agent has no ``output_key``, so its reply reaches
  later agents only through history or node input, if at all.
* ADK-D103: an agent receives a peer's reply twice, through ``{key}`` and
  through history or its node input.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from typing import Iterator

from ..agents import _visibility
from ..agents._include_sources import source_authors
from ..agents.visibility import node_visibility
from ..flows.llm_flows.context._source_filter import cuts_to_node_path
from ..utils._agent_mode import AgentMode
from ..workflow._base_node import BaseNode
from ..workflow._base_node import START
from ._checks import quote_names
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity
from ._state_flow import Flow
from ._state_flow import follow
from ._state_flow import template_keys
from ._state_flow import Topology

INTERNAL_REPLY_UNUSED = 'ADK-D102'
SAME_DATA_TWICE = 'ADK-D103'
CODES = (INTERNAL_REPLY_UNUSED, SAME_DATA_TWICE)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports internal replies that go unused and replies received twice."""
  topology = follow(root)
  graphs = _workflow_graphs(root)
  yield from _internal_reply_findings(root, topology, graphs)
  names = {node.name for node in walk(root)}
  yield from _duplicate_channel_findings(topology, graphs, names)


def sees_reply_of(reader: Any, producer: str, start: Flow) -> bool:
  """Whether ``reader``'s model may receive ``producer``'s reply as history.

  Args:
    reader: The agent whose model request is built.
    producer: The name of the agent that replied.
    start: The flow when ``reader`` starts.
  """
  if (
      producer not in start.ran
      or not _admits(reader, producer)
      or _sees_only_its_own_events(reader)
  ):
    return False
  if getattr(reader, 'include_contents', 'default') != 'none':
    return True
  if producer in start.latest:
    return True
  # The current turn starts at the latest message from an included source:
  # when the agent that spoke last is excluded, an earlier one may start it.
  return _source_setting(reader) is not None and any(
      not _admits(reader, s) for s in start.latest
  )


def _source_setting(reader: Any) -> Any:
  """``include_sources``, or ``exclude_sources`` when only that is set."""
  sources = getattr(reader, 'include_sources', None)
  if sources is None:
    return getattr(reader, 'exclude_sources', None)
  return sources


def _admits(reader: Any, source: str) -> bool:
  """Whether ``reader``'s model may see messages from ``source``.

  A window entry (an object with a ``source``) admits its source; ``'*'``
  admits every source, and ``exclude_sources`` removes sources from either.
  """
  name = getattr(reader, 'name', '')
  excluded = getattr(reader, 'exclude_sources', None) or ()
  if excluded and source in source_authors(excluded, name):
    return False
  sources = getattr(reader, 'include_sources', None)
  if sources is None or '*' in sources:
    return True
  names = [getattr(entry, 'source', entry) for entry in sources]
  return source in source_authors(names, name)


def _sees_only_its_own_events(reader: Any) -> bool:
  """Whether no other agent's reply is ever in ``reader``'s history.

  A ``single_turn`` workflow node without ``include_sources`` sees only the
  events on its own node path and its ancestors' (the user's messages and its
  own turns): the request builder drops other nodes' events. With
  ``include_sources`` that filter is off, since the list says whose messages
  the model sees. A ``task`` agent sees only its task (``isolation_scope``).
  """
  mode = getattr(reader, 'mode', None)
  if mode == AgentMode.TASK:
    return True
  return cuts_to_node_path(
      mode == AgentMode.SINGLE_TURN, _source_setting(reader)
  )


@dataclasses.dataclass
class _WorkflowGraphs:
  """The edges of every ``Workflow`` in a tree, to follow node inputs."""

  predecessors: dict[int, list[BaseNode]] = dataclasses.field(
      default_factory=dict
  )
  """The nodes with an edge to each node."""
  workflow_of: dict[int, BaseNode] = dataclasses.field(default_factory=dict)
  """The workflow whose graph holds each node."""
  terminals: dict[int, list[BaseNode]] = dataclasses.field(default_factory=dict)
  """Each workflow's nodes without a successor: its output is theirs."""


def _workflow_graphs(root: BaseNode) -> _WorkflowGraphs:
  from ..workflow._workflow import Workflow

  graphs = _WorkflowGraphs()
  for workflow in walk(root):
    graph = workflow.graph if isinstance(workflow, Workflow) else None
    if graph is None:
      continue
    feeding = set()
    for edge in graph.edges:
      graphs.predecessors.setdefault(id(edge.to_node), []).append(
          edge.from_node
      )
      feeding.add(id(edge.from_node))
    for node in graph.nodes:
      graphs.workflow_of[id(node)] = workflow
    graphs.terminals[id(workflow)] = [
        node
        for node in graph.nodes
        if id(node) not in feeding and node.name != START.name
    ]
  return graphs


def _node_inputs(
    graphs: _WorkflowGraphs, node: BaseNode, seen: frozenset[int] = frozenset()
) -> list[tuple[str, BaseNode]]:
  """Whose output may be ``node``'s node input, and whom it is attributed to.

  A workflow gives a node the output of the predecessor that triggered it,
  attributed to that predecessor. A ``JoinNode``'s output holds its
  predecessors' outputs and a nested workflow's its terminal nodes', so
  their producers are followed through them. A node after ``START`` gets
  the input of the workflow that runs it, with the same source (in the root
  workflow: the user's message, which no agent produces).

  Returns:
    (source, producer) pairs: the name the input is attributed to, and the
    node whose output it carries.
  """
  if id(node) in seen:
    return []
  seen = seen | {id(node)}
  inputs = []
  for predecessor in graphs.predecessors.get(id(node), ()):
    if predecessor.name == START.name:
      # The workflow's own input, handed on unchanged.
      inputs += _node_inputs(graphs, graphs.workflow_of[id(node)], seen)
    else:
      inputs += [
          (predecessor.name, producer)
          for producer in _output_producers(graphs, predecessor, seen)
      ]
  return inputs


def _output_producers(
    graphs: _WorkflowGraphs, node: BaseNode, seen: frozenset[int]
) -> list[BaseNode]:
  """The nodes whose outputs make up ``node``'s output."""
  from ..workflow._join_node import JoinNode

  if isinstance(node, JoinNode):
    return [producer for _, producer in _node_inputs(graphs, node, seen)]
  if id(node) in graphs.terminals:
    return [
        producer
        for terminal in graphs.terminals[id(node)]
        for producer in _output_producers(graphs, terminal, seen)
    ]
  return [node]


def _mode(agent: Any) -> str:
  from ..workflow._llm_agent_wrapper import _effective_llm_agent_mode

  return _effective_llm_agent_mode(agent)


def _keeps_node_input(reader: Any, source: str) -> bool:
  """Whether ``reader``'s model receives a node input from ``source``.

  A ``single_turn`` node receives it unless its ``include_sources`` leaves
  the source out; a ``task`` node always does, the input being its task; a
  ``chat`` node is given none.
  """
  from ..agents.llm_agent import LlmAgent

  if not isinstance(reader, LlmAgent):
    # A function node or a custom node takes its input as it is.
    return True
  mode = _mode(reader)
  if mode == AgentMode.TASK:
    return True
  if mode != AgentMode.SINGLE_TURN:
    return False
  return _admits(reader, source)


def _handed_on(root: BaseNode, graphs: _WorkflowGraphs) -> set[int]:
  """Nodes whose output a workflow node receives as its node input."""
  from ..workflow._join_node import JoinNode
  from ..workflow._workflow import Workflow

  handed_on: set[int] = set()
  for node in walk(root):
    if isinstance(node, (JoinNode, Workflow)):
      # They pass their input on: it is counted where it ends up.
      continue
    for source, producer in _node_inputs(graphs, node):
      if _keeps_node_input(node, source):
        handed_on.add(id(producer))
  return handed_on


def _llm_agents(topology: Topology) -> list[tuple[Any, Flow]]:
  from ..agents.llm_agent import LlmAgent

  return [
      (node, flow)
      for node, flow in topology.starts.values()
      if isinstance(node, LlmAgent)
  ]


def _internal_reply_findings(
    root: BaseNode, topology: Topology, graphs: _WorkflowGraphs
) -> Iterator[Diagnostic]:
  index = _visibility.visibility_index(root)
  agents = _llm_agents(topology)
  handed_on = _handed_on(root, graphs)
  feeding = {id(p) for preds in graphs.predecessors.values() for p in preds}
  for agent, _ in agents:
    if (
        agent.output_key
        or id(agent) in topology.run_as_tool
        or id(agent) in handed_on
        or node_visibility(index, agent) != _visibility.INTERNAL
    ):
      continue
    readers = [
        other.name
        for other, start in agents
        if other is not agent and sees_reply_of(other, agent.name, start)
    ]
    filter_mode = (
        'In filter mode (RunConfig(visibility_mode="filter")) the user never'
        ' sees it'
    )
    if readers:
      yield Diagnostic(
          Severity.INFO,
          INTERNAL_REPLY_UNUSED,
          agent.name,
          f'Agent {agent.name!r} is internal and has no output_key: its reply'
          f' reaches {quote_names(readers)} only as a message in their'
          f' history. {filter_mode}, and no agent can read it from state.',
          f'Set output_key on {agent.name!r} to hand its reply on through'
          " state, or visibility='user' if the user should see it.",
      )
      continue
    # A workflow node's successor may drop it as node input.
    node_input = ' or as its node input' if id(agent) in feeding else ''
    # Named in its successor's include_sources, the reply is handed on as
    # node input. Named by an agent that only receives it in its history,
    # it would still be reported, as an info.
    sources_fix = (
        f' add {agent.name!r} to the include_sources of the node after it,'
        if node_input
        else ''
    )
    yield Diagnostic(
        Severity.WARNING,
        INTERNAL_REPLY_UNUSED,
        agent.name,
        f'Agent {agent.name!r} is internal and has no output_key, and no'
        ' agent that runs after it receives its reply in its history'
        f'{node_input} (include_sources, include_contents): the reply lives'
        f' only in the session. {filter_mode}, and no later agent gets it.',
        f'Set output_key on {agent.name!r} and read it with {{key}} where it'
        f" is needed,{sources_fix} or set visibility='user' if the user should"
        ' see it.',
    )


def _duplicate_channel_findings(
    topology: Topology, graphs: _WorkflowGraphs, names: set[str]
) -> Iterator[Diagnostic]:
  for reader, start in _llm_agents(topology):
    if not isinstance(reader.instruction, str):
      continue
    inputs = _node_inputs(graphs, reader)
    for template_key in template_keys(reader.instruction):
      key = template_key.key
      for producer in start.producers_of(key):
        if producer == reader.name:
          continue
        carriers = [
            source
            for source, node in inputs
            if node.name == producer and _keeps_node_input(reader, source)
        ]
        in_history = sees_reply_of(reader, producer, start)
        if in_history or carriers:
          yield _same_data_twice(
              reader, key, producer, carriers, in_history, names
          )


def _same_data_twice(
    reader: Any,
    key: str,
    producer: str,
    carriers: list[str],
    in_history: bool,
    names: set[str],
) -> Diagnostic:
  """ADK-D103, with the fix that removes the second channel.

  Args:
    reader: The agent that reads ``{key}``.
    key: The state key.
    producer: The agent that stores ``key``.
    carriers: The sources of the node inputs that carry the reply of
      ``producer`` and that the model of ``reader`` receives.
    in_history: Whether the reply is also a message in its history; the
      request builder then drops the node input's copy.
    names: The names of the agents and nodes of the tree.
  """
  if in_history:
    channel = 'as a message in its conversation history'
    dropped = f'the messages of {producer!r} from its history'
  else:
    channel = (
        f'as its node input from {carriers[0]!r}, which its model receives'
        ' as a user message'
    )
    dropped = f'its node input from {carriers[0]!r}'
  sources = reader.include_sources
  excluded = getattr(reader, 'exclude_sources', None)
  if excluded is not None:
    # A name that matches no agent is an ADK-D104 error of its own; the fix
    # keeps only the names that exclude someone.
    kept = [
        n for n in excluded if n in names and n not in (producer, *carriers)
    ]
    fix = f'exclude_sources={[*kept, producer, *dict.fromkeys(carriers)]!r}'
  elif sources is None:
    fix = "include_sources=['user', 'self']"
  else:
    dropping = {producer, *carriers}
    kept = [s for s in sources if s not in dropping] or ['user']
    fix = f'include_sources={kept!r}'
  if not in_history and _mode(reader) == AgentMode.TASK:
    hint = (
        f'Remove {{{key}}} from the instruction of {reader.name!r}: a task'
        ' node always receives its node input, which is the definition of'
        ' its task.'
    )
  else:
    hint = (
        f'Keep one channel: set {fix} on {reader.name!r} to drop {dropped},'
        f' or remove {{{key}}} from its instruction.'
    )
  return Diagnostic(
      Severity.INFO,
      SAME_DATA_TWICE,
      reader.name,
      f'Agent {reader.name!r} receives the reply of {producer!r} twice:'
      f' through {{{key}}} in its instruction (state) and {channel}.',
      hint,
  )
