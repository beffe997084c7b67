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


"""``effective_visibility`` agrees with how the Runner marks events."""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.agents.visibility import effective_visibility
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)


class _EchoLlm(BaseLlm):
  """Answers every request with the agent's name."""

  model: str = 'echo'

  async def generate_content_async(self, llm_request, stream=False):
    del llm_request, stream
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.model)])
    )


def _agent(name: str, **kwargs) -> LlmAgent:
  return LlmAgent(name=name, model=_EchoLlm(model=name), **kwargs)


def test_pipeline_with_agent_tool_and_explicit_value():
  root = SequentialAgent(
      name='desk',
      sub_agents=[
          _agent('classifier'),
          _agent('notes', visibility='user'),
          _agent('booker', tools=[AgentTool(agent=_agent('lookup'))]),
      ],
  )

  assert effective_visibility(root) == {
      'desk': 'user',
      'desk/classifier': 'internal',
      'desk/notes': 'user',
      'desk/booker': 'user',
      'desk/booker/lookup': 'internal',
  }


def test_workflow_terminal_nodes_speak():
  flow = Workflow(
      name='flow',
      edges=[(START, _agent('classifier'), _agent('booker'))],
  )

  visibility = effective_visibility(flow)

  assert visibility['flow'] == 'user'
  assert visibility['flow/classifier'] == 'internal'
  assert visibility['flow/booker'] == 'user'


@pytest.mark.asyncio
async def test_matches_the_marks_on_events():
  root = SequentialAgent(
      name='desk', sub_agents=[_agent('classifier'), _agent('booker')]
  )
  runner = InMemoryRunner(agent=root, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )

  events: list[Event] = [
      event
      async for event in runner.run_async(
          user_id='u',
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='hi')]),
      )
  ]

  visibility = effective_visibility(root)
  assert [(e.author, e.is_user_facing) for e in events] == [
      (name, visibility[f'desk/{name}'] == 'user')
      for name in ('classifier', 'booker')
  ]
