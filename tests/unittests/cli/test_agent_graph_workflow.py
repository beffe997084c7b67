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

"""The CLI's agent graph (behind ``adk web``) draws Workflow graphs."""

from __future__ import annotations

import re

from google.adk.agents.llm_agent import LlmAgent
from google.adk.cli.agent_graph import get_agent_graph
from google.adk.events.event import Event
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


def _edges(dot_source: str) -> set[tuple[str, str]]:
  """The (from, to) edges of a DOT source."""
  edges = set()
  for line in dot_source.splitlines():
    match = re.match(r'\s*"?(\w+)"? -> "?(\w+)"? \[', line)
    if match:
      edges.add((match.group(1), match.group(2)))
  return edges


@pytest.mark.asyncio
async def test_workflow_is_drawn_with_its_edges():
  graph = await get_agent_graph(_booking_workflow(), [])

  assert isinstance(graph, graphviz.Digraph)
  assert _edges(graph.source) == {
      ('classifier', 'route_by_intent'),
      ('route_by_intent', 'booker'),
      ('route_by_intent', 'info'),
  }
