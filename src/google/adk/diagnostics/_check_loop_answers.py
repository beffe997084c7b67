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

"""ADK-D107 and ADK-D111: what the user hears of a loop.

Inference makes the last agent before a loop can end the one the user hears
(see ``google.adk.agents._visibility``): at the end of a run, nothing speaks
after it on the way out of the loop. Inside a ``LoopAgent``, or a cycle of a
workflow graph, that agent speaks once per pass, which may not be what the
builder meant; ADK-D107 names it and says how to choose another answer.

When that agent ends the loop with ``exit_loop`` it often says nothing more,
and the last thing said is the verdict that made it stop, such as a critic's
"no further changes". The user's view then falls back to an internal reply
(``google.adk.events.user_view``): the latest one that wrote the answering
agent's ``output_key``, such as the first draft, else the last one, the
verdict. ADK-D111 warns when no other agent writes that key.
"""

from __future__ import annotations

from typing import Any
from typing import Iterator

from ..agents import _tree_visibility
from ..agents import _visibility
from ..agents.visibility import node_visibility
from ..workflow import _workflow_visibility
from ..workflow._base_node import BaseNode
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

LOOP_ANSWER = 'ADK-D107'
VERDICT_ANSWER = 'ADK-D111'
CODES = (LOOP_ANSWER, VERDICT_ANSWER)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports each inferred user-facing agent inside a loop."""
  index = _visibility.visibility_index(root)
  for loop_name, members, presenter_hint in _loops(root):
    for node in members:
      if (
          _visibility.is_speaker(node)
          and _visibility._explicit_visibility(node) is None
          and node_visibility(index, node) == _visibility.USER
      ):
        yield Diagnostic(
            Severity.INFO,
            LOOP_ANSWER,
            node.name,
            f'{node.name!r} answers the user on every pass of the loop'
            f' {loop_name!r}: it is the last agent before the loop can end,'
            ' so each of its replies is user-facing.',
            f'To answer with the agent before it instead, set visibility='
            f"'internal' on {node.name!r}. To answer once, after the loop,"
            f' add a presenter ({presenter_hint}) and the loop becomes'
            ' internal.',
        )
  yield from _verdict_answers(root, index)


def _verdict_answers(
    root: BaseNode, index: _visibility.VisibilityIndex
) -> Iterator[Diagnostic]:
  """Reports loop agents that can end the loop silently after a verdict."""
  from ..agents.llm_agent import LlmAgent
  from ..agents.loop_agent import LoopAgent

  writers: dict[str, int] = {}
  for node in walk(root):
    key = (
        getattr(node, 'output_key', None)
        if isinstance(node, LlmAgent)
        else None
    )
    if key:
      writers[key] = writers.get(key, 0) + 1
  for loop in walk(root):
    if not isinstance(loop, LoopAgent):
      continue
    for node in loop.sub_agents:
      if not (
          _visibility.is_speaker(node)
          and _tree_visibility._can_end_loop(node)
          and node_visibility(index, node) == _visibility.USER
      ):
        continue
      key = getattr(node, 'output_key', None)
      if key and writers.get(key, 0) > 1:
        continue
      yield Diagnostic(
          Severity.WARNING,
          VERDICT_ANSWER,
          node.name,
          f'{node.name!r} answers the user but can end the loop'
          f' {loop.name!r} with exit_loop and nothing else; the user then'
          ' gets the last internal reply, the verdict that made it stop,'
          ' not the result.',
          f'Give {node.name!r} an output_key and write the result under the'
          ' same key from the agent that drafts it (for example'
          " output_key='current_document' on both), so the draft is the"
          ' answer when the loop ends at once; or add a presenter'
          f' (SequentialAgent(sub_agents=[..., {loop.name}, presenter])).',
      )


def _loops(root: BaseNode) -> Iterator[tuple[str, list[BaseNode], str]]:
  """Yields ``(loop name, agents and nodes in it, how to add a presenter)``."""
  from ..agents.loop_agent import LoopAgent
  from ..workflow._workflow import Workflow

  for node in walk(root):
    if isinstance(node, LoopAgent):
      yield node.name, list(walk(node))[1:], (
          f'SequentialAgent(sub_agents=[{node.name}, presenter])'
      )
    elif isinstance(node, Workflow):
      members = [m for n in _nodes_on_cycles(node) for m in walk(n)]
      yield node.name, members, 'a node on the route that leaves the loop'


def _nodes_on_cycles(workflow: BaseNode) -> list[BaseNode]:
  """Returns the nodes of a workflow graph that can run again after running."""
  graph = getattr(workflow, 'graph', None)
  outgoing: dict[str, list[Any]] = {}
  for edge in graph.edges if graph is not None else ():
    outgoing.setdefault(edge.from_node.name, []).append(edge)
  reachable = _workflow_visibility._reachability(outgoing)
  return [
      edges[0].from_node
      for name, edges in outgoing.items()
      if name in reachable[name]
  ]
