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

"""The graph ``adk web`` draws marks the agents the user does not hear from."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
import re

from fastapi.testclient import TestClient
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.cli.fast_api import get_fast_api_app
from google.adk.cli.utils.base_agent_loader import BaseAgentLoader
from google.adk.cli.utils.graph_visualization import plot_workflow_graph
from google.adk.workflow import START
from google.adk.workflow import Workflow
import pytest


def _agent(name: str, **kwargs: object) -> LlmAgent:
  return LlmAgent(name=name, model='gemini-2.5-flash', **kwargs)


def _pipeline() -> BaseAgent:
  return SequentialAgent(
      name='router',
      sub_agents=[
          _agent('classifier', output_key='intent'),
          SequentialAgent(name='desk', sub_agents=[_agent('booker')]),
      ],
  )


def _workflow() -> BaseAgent:
  return Workflow(
      name='router',
      edges=[
          (START, _agent('classifier', output_key='intent'), _agent('booker'))
      ],
  )


def _pinned() -> BaseAgent:
  # The author says the classifier speaks to the user after all.
  return SequentialAgent(
      name='router',
      sub_agents=[
          _agent('classifier', visibility='user'),
          _agent('booker'),
      ],
  )


_APPS = {'pipeline': _pipeline, 'workflow': _workflow, 'pinned': _pinned}


class _Loader(BaseAgentLoader):

  def load_agent(self, agent_name: str) -> BaseAgent:
    return _APPS[agent_name]()

  def list_agents(self) -> list[str]:
    return sorted(_APPS)


@pytest.fixture(name='client')
def _client_fixture(tmp_path: Path) -> Iterator[TestClient]:
  app = get_fast_api_app(
      agents_dir=str(tmp_path),
      agent_loader=_Loader(),
      session_service_uri='memory://',
      artifact_service_uri='memory://',
      memory_service_uri='memory://',
      web=True,
  )
  with TestClient(app) as client:
    yield client


def _node_lines(client: TestClient, app_name: str) -> dict[str, str]:
  response = client.get(f'/dev/apps/{app_name}/build_graph_image')
  assert response.status_code == 200, response.text
  (graph,) = response.json().values()
  lines = {}
  for line in graph['dotSrc'].splitlines():
    match = re.match(r'\s*(\w+) \[label=', line)
    if match:
      lines[match.group(1)] = line
  return lines


def _is_marked_internal(line: str) -> bool:
  return 'dashed' in line and '>internal</FONT>' in line


@pytest.mark.parametrize('app_name', ['pipeline', 'workflow'])
def test_graph_marks_the_internal_agent_only(client: TestClient, app_name):
  lines = _node_lines(client, app_name)

  assert _is_marked_internal(lines['classifier'])
  assert 'the user does not see its replies' in lines['classifier']
  assert not _is_marked_internal(lines['booker'])
  # A workflow's graph draws its nodes, not the workflow itself.
  assert not _is_marked_internal(lines.get('router', ''))


def test_graph_follows_an_explicit_visibility(client: TestClient):
  lines = _node_lines(client, 'pinned')

  assert not any(_is_marked_internal(line) for line in lines.values())


def test_plot_without_internal_nodes_is_unchanged():
  app_info = {
      'root_agent': {
          'name': 'root',
          'sub_agents': [{'name': 'child', 'sub_agents': []}],
      }
  }

  plain = plot_workflow_graph(app_info, format='dot')
  marked = plot_workflow_graph(app_info, format='dot', internal_nodes={'child'})

  assert plain == plot_workflow_graph(
      app_info, format='dot', internal_nodes=set()
  )
  assert 'dashed' not in plain and 'internal' not in plain
  assert [line for line in marked.splitlines() if 'internal' in line] == [
      line for line in marked.splitlines() if line.strip().startswith('child ')
  ]
