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

"""Visibility rules of agent trees: sequences, loops, parallel agents, LLMs.

In a pipeline only the last step answers the user; the steps before it produce
input for the step after them.

* ``SequentialAgent``: a sub-agent is internal when a later one speaks, so
  every sub-agent but the last is internal unless later ones are internal by
  choice.
* ``LoopAgent``: the loop can end after its last sub-agent (max_iterations)
  and after any sub-agent that can escalate: one carrying the ``exit_loop``
  tool, or a composite with such an agent inside (an escalation ends every
  loop around it; a sequence runs its remaining steps first). With something
  after the loop that speaks, the whole body is internal; at the end of a run
  those sub-agents speak on every pass.
* ``ParallelAgent``: sub-agents run side by side and inherit.
* ``LlmAgent``: sub-agents reached by transfer (and task-mode sub-agents,
  which converse with the user) inherit, and a task-mode agent is the user's
  wherever it sits. Agents and nodes the agent runs as tools (``AgentTool``,
  ``mode='single_turn'`` sub-agents, workflows and nodes in ``tools``) answer
  the calling agent, so they are ``'internal'``.
"""

from __future__ import annotations

from typing import Any
from typing import Final
from typing import Iterator

from . import _visibility

_EXIT_LOOP_TOOL_NAME: Final = 'exit_loop'


class _CompositeRule(_visibility.NodeRule):
  """An agent that speaks only through its sub-agents, which run side by side
  unless a subclass orders them."""

  def speaks(self, inference: _visibility.Inference, node: Any) -> bool:
    return any(inference.speaks(s) for s in _visibility.sub_agents(node))

  def is_speaker(self, node: Any) -> bool:
    return False


class SequenceRule(_CompositeRule):
  """Each step is covered by the steps after it."""

  def children(
      self, inference: _visibility.Inference, node: Any, covered: bool
  ) -> Iterator[_visibility.Placement]:
    after = covered
    placed = []
    for position, sub_agent in enumerate(
        reversed(_visibility.sub_agents(node))
    ):
      read_as_data = position > 0 and _visibility.returns_data(sub_agent)
      placed.append((sub_agent, sub_agent.name, after, False, read_as_data))
      after = after or inference.speaks(sub_agent)
    yield from reversed(placed)


class LoopRule(_CompositeRule):
  """A body covered by what follows, except where the loop can end."""

  def speaks(self, inference: _visibility.Inference, node: Any) -> bool:
    # The first pass runs every sub-agent up to one that can end the loop.
    for sub_agent in _visibility.sub_agents(node):
      if inference.speaks(sub_agent):
        return True
      if _can_end_loop(sub_agent):
        return False
    return False

  def children(
      self, inference: _visibility.Inference, node: Any, covered: bool
  ) -> Iterator[_visibility.Placement]:
    # The loop can end after its last sub-agent (max_iterations) and after
    # any sub-agent that can end it early; every other sub-agent is followed
    # by the next one.
    placed = []
    next_covered: bool | None = None
    for sub_agent in reversed(_visibility.sub_agents(node)):
      if next_covered is None:
        after = covered
        read_as_data = False
      else:
        after = next_covered and (covered or not _can_end_loop(sub_agent))
        read_as_data = _visibility.returns_data(sub_agent)
      placed.append((sub_agent, sub_agent.name, after, False, read_as_data))
      next_covered = inference.speaks(sub_agent) or after
    yield from reversed(placed)


class LlmAgentRule(_visibility.NodeRule):
  """Transfer targets answer in the agent's place; tools answer the agent."""

  def children(
      self, inference: _visibility.Inference, node: Any, covered: bool
  ) -> Iterator[_visibility.Placement]:
    from ..tools._node_tool import NodeTool
    from ..tools.agent_tool import AgentTool
    from ..utils._agent_mode import AgentMode
    from ..workflow._base_node import BaseNode
    from .base_agent import BaseAgent

    del inference
    sub_agent_ids = set()
    for sub_agent in _visibility.sub_agents(node):
      sub_agent_ids.add(id(sub_agent))
      if getattr(sub_agent, 'mode', None) == AgentMode.SINGLE_TURN:
        yield sub_agent, sub_agent.name, True, True, False
      else:
        # Reached by transfer, it answers in the agent's place.
        yield sub_agent, sub_agent.name, covered, False, False
    for tool in getattr(node, 'tools', None) or ():
      # Sub-agents in single-turn or task mode also appear here as tools;
      # they were placed above.
      if isinstance(tool, AgentTool):
        if id(tool.agent) not in sub_agent_ids:
          yield tool.agent, tool.name, True, True, False
      elif isinstance(tool, NodeTool):
        yield tool.node, tool.name, True, True, False
      elif isinstance(tool, BaseNode) and not isinstance(tool, BaseAgent):
        yield tool, tool.name, True, True, False

  def addresses_user(self, node: Any) -> bool:
    # A task-mode agent converses with the user until its task is done.
    from ..utils._agent_mode import AgentMode
    from .llm_agent import LlmAgent

    return isinstance(node, LlmAgent) and node.mode == AgentMode.TASK


SEQUENCE: Final = SequenceRule()
PARALLEL: Final = _CompositeRule()
LOOP: Final = LoopRule()
LLM_AGENT: Final = LlmAgentRule()


def _can_end_loop(agent: Any) -> bool:
  """Whether an agent can end the loops around it.

  It can when it carries upstream's ``exit_loop`` tool, when its rule says
  its own code can (``NodeRule.ends_loops``), or when an agent it runs in its
  place can (its sub-agents, other than single-turn ones, which
  run as tools): a loop ends on an escalating event from anywhere below it,
  and a sequence runs its remaining steps first.
  """
  from ..utils._agent_mode import AgentMode

  for tool in getattr(agent, 'tools', None) or ():
    name = getattr(tool, 'name', None) or getattr(tool, '__name__', None)
    if name == _EXIT_LOOP_TOOL_NAME:
      return True
  if _visibility.rule_of(agent).ends_loops(agent):
    return True
  return any(
      _can_end_loop(sub_agent)
      for sub_agent in _visibility.sub_agents(agent)
      if getattr(sub_agent, 'mode', None) != AgentMode.SINGLE_TURN
  )
