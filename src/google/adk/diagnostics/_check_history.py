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

* ADK-D102: an internal agent has no ``output_key``, so its reply reaches
  later agents only through history, if at all.
* ADK-D103: an agent receives a peer's reply twice, through ``{key}`` and
  through history.
"""

from __future__ import annotations

from typing import Any
from typing import Iterator

from ..agents import _visibility
from ..workflow._base_node import BaseNode
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
  yield from _internal_reply_findings(root, topology)
  yield from _duplicate_channel_findings(topology)


def sees_reply_of(reader: Any, producer: str, start: Flow) -> bool:
  """Whether ``reader``'s model may receive ``producer``'s reply as history.

  Args:
    reader: The agent whose model request is built.
    producer: The name of the agent that replied.
    start: The flow when ``reader`` starts.
  """
  sources = getattr(reader, 'include_sources', None)
  if producer not in start.ran or (
      sources is not None and producer not in sources
  ):
    return False
  if getattr(reader, 'include_contents', 'default') != 'none':
    return True
  if producer in start.latest:
    return True
  # The current turn starts at the latest message from an included source:
  # when the agent that spoke last is excluded, an earlier one may start it.
  return sources is not None and any(s not in sources for s in start.latest)


def _llm_agents(topology: Topology) -> list[tuple[Any, Flow]]:
  from ..agents.llm_agent import LlmAgent

  return [
      (node, flow)
      for node, flow in topology.starts.values()
      if isinstance(node, LlmAgent)
  ]


def _internal_reply_findings(
    root: BaseNode, topology: Topology
) -> Iterator[Diagnostic]:
  index = _visibility.visibility_index(root)
  agents = _llm_agents(topology)
  handed_on = _feeds_next_node(root)
  for agent, _ in agents:
    if (
        agent.output_key
        or id(agent) in topology.run_as_tool
        or id(agent) in handed_on
        or index.visibility_of_node(agent) != _visibility.INTERNAL
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
    yield Diagnostic(
        Severity.WARNING,
        INTERNAL_REPLY_UNUSED,
        agent.name,
        f'Agent {agent.name!r} is internal and has no output_key, and no'
        ' agent that runs after it receives its reply in its history'
        ' (include_sources, include_contents): the reply lives only in the'
        f' session. {filter_mode}, and no later agent gets it.',
        f'Set output_key on {agent.name!r} and read it with {{key}} where it'
        f" is needed, add {agent.name!r} to a later agent's include_sources,"
        " or set visibility='user' if the user should see it.",
    )


def _feeds_next_node(root: BaseNode) -> set[int]:
  """Workflow nodes with a successor: their reply is that node's input."""
  from ..workflow._workflow import Workflow

  feeding: set[int] = set()
  for node in walk(root):
    graph = node.graph if isinstance(node, Workflow) else None
    for edge in graph.edges if graph is not None else ():
      feeding.add(id(edge.from_node))
  return feeding


def _duplicate_channel_findings(topology: Topology) -> Iterator[Diagnostic]:
  for reader, start in _llm_agents(topology):
    if not isinstance(reader.instruction, str):
      continue
    for template_key in template_keys(reader.instruction):
      key = template_key.key
      for producer in start.producers_of(key):
        if producer == reader.name or not sees_reply_of(
            reader, producer, start
        ):
          continue
        sources = getattr(reader, 'include_sources', None)
        if sources is None:
          fix = "include_sources=['user', 'self']"
        else:
          kept = [s for s in sources if s != producer] or ['user']
          fix = f'include_sources={kept!r}'
        yield Diagnostic(
            Severity.INFO,
            SAME_DATA_TWICE,
            reader.name,
            f'Agent {reader.name!r} receives the reply of {producer!r}'
            f' twice: through {{{key}}} in its instruction (state) and as a'
            ' message in its conversation history.',
            f'Keep one channel: set {fix} on {reader.name!r} to drop the'
            f' messages of {producer!r} from its history, or remove'
            f' {{{key}}} from its instruction.',
        )
