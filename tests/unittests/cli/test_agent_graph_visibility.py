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

"""The graph ``adk web`` draws marks internal agents as dashed."""

from __future__ import annotations

import re

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.cli.agent_graph import get_agent_graph
from google.adk.events.event import Event
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
import graphviz
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)


def route_by_intent(intent: str) -> Event:
  return Event(route=intent)


def _booking_workflow() -> Workflow:
  classifier = LlmAgent(name='classifier', output_key='intent')
  return Workflow(
      name='booking',
      edges=[
          (START, classifier, route_by_intent),
          (
              route_by_intent,
              {
                  'booking': LlmAgent(name='booker'),
                  'info': LlmAgent(name='info'),
              },
          ),
      ],
  )


def _node_styles(dot_source: str) -> dict[str, str]:
  """Maps each plain node of a DOT source to its style attribute."""
  styles = {}
  for match in re.finditer(
      r'^\s*"?([A-Za-z_][\w ()]*?)"? \[label=.*?style="?([\w,]+)"?',
      dot_source,
      re.MULTILINE,
  ):
    styles[match.group(1)] = match.group(2)
  return styles


def _cluster_styles(dot_source: str) -> dict[str, str]:
  """Maps each cluster label of a DOT source to its style attribute."""
  return dict(
      re.findall(
          r'^\s*[^\[\n]*label="([^"]+)" style="?([\w,]+)"?\s*$',
          dot_source,
          re.MULTILINE,
      )
  )


@pytest.mark.asyncio
async def test_internal_agents_are_dashed():
  root = SequentialAgent(
      name='pipeline',
      sub_agents=[
          LoopAgent(
              name='refine',
              max_iterations=1,
              sub_agents=[LlmAgent(name='drafter')],
          ),
          LlmAgent(
              name='presenter',
              tools=[AgentTool(agent=LlmAgent(name='fact_checker'))],
          ),
      ],
  )

  graph = await get_agent_graph(root, [])

  assert isinstance(graph, graphviz.Digraph)
  nodes = _node_styles(graph.source)
  assert 'dashed' in nodes['drafter']
  assert 'dashed' in nodes['fact_checker']
  assert 'dashed' not in nodes['presenter']
  clusters = _cluster_styles(graph.source)
  assert 'dashed' in clusters['refine (Loop Agent)']
  assert 'dashed' not in clusters['pipeline (Sequential Agent)']


@pytest.mark.asyncio
async def test_sub_agents_drawn_as_tools_keep_their_visibility():
  root = LlmAgent(
      name='coordinator',
      sub_agents=[
          LlmAgent(name='lookup', mode='single_turn'),
          LlmAgent(name='form_filler', mode='task'),
      ],
  )

  graph = await get_agent_graph(root, [])

  nodes = _node_styles(graph.source)
  assert 'dashed' in nodes['lookup']
  assert 'dashed' not in nodes['form_filler']
  assert 'dashed' not in nodes['coordinator']


@pytest.mark.asyncio
async def test_highlighted_internal_agent_stays_dashed():
  root = SequentialAgent(
      name='pipeline',
      sub_agents=[LlmAgent(name='draft'), LlmAgent(name='final')],
  )

  graph = await get_agent_graph(root, [('draft', 'final')])

  nodes = _node_styles(graph.source)
  assert nodes['draft'] == 'filled,rounded,dashed'
  assert nodes['final'] == 'filled,rounded'


@pytest.mark.asyncio
async def test_internal_workflow_nodes_are_dashed():
  graph = await get_agent_graph(_booking_workflow(), [])

  styles = _node_styles(graph.source)
  assert 'dashed' in styles['classifier']
  assert 'dashed' in styles['route_by_intent']
  assert 'dashed' not in styles['booker']
  assert 'dashed' not in styles['info']


@pytest.mark.asyncio
async def test_nested_workflow_follows_its_position():
  # A workflow that is not the last node works for the node after it.
  root = Workflow(
      name='outer',
      edges=[(START, _booking_workflow(), LlmAgent(name='summarizer'))],
  )

  graph = await get_agent_graph(root, [])

  styles = _node_styles(graph.source)
  assert 'dashed' in styles['booker']
  assert 'dashed' not in styles['summarizer']
