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

"""A workflow node that keeps the history sees the user's message once.

The cases of the test functions this change adds to upstream's
test_llm_agent_as_node.py, runnable without upstream's test helpers.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import node
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedModel(BaseLlm):
  """Answers with its replies in turn and keeps every request."""

  model: str = 'scripted'
  replies: list[str] = Field(default_factory=lambda: ['first', 'second'])
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    text = self.replies[len(self.requests) - 1]
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=text)])
    )


def _texts_by_role(llm_request: LlmRequest) -> list[tuple[str, str]]:
  return [
      (content.role, part.text)
      for content in llm_request.contents
      for part in content.parts or []
      if part.text
  ]


async def _run_two_turns(workflow: Workflow) -> None:
  runner = InMemoryRunner(node=workflow, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  for message in ('My name is Ada.', 'What is my name?'):
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(
            role='user', parts=[types.Part(text=message)]
        ),
    ):
      pass


_EACH_MESSAGE_ONCE = [
    [('user', 'My name is Ada.')],
    [
        ('user', 'My name is Ada.'),
        ('model', 'first'),
        ('user', 'What is my name?'),
    ],
]


def _assistant() -> tuple[LlmAgent, _ScriptedModel]:
  model = _ScriptedModel()
  agent = LlmAgent(name='assistant', model=model, include_contents='default')
  return agent, model


@pytest.mark.asyncio
async def test_node_after_start_with_history_sees_each_message_once():
  agent, model = _assistant()

  await _run_two_turns(Workflow(name='wf', edges=[(START, agent)]))

  assert [_texts_by_role(r) for r in model.requests] == _EACH_MESSAGE_ONCE


@pytest.mark.asyncio
async def test_first_node_of_nested_workflow_sees_each_message_once():
  agent, model = _assistant()
  inner = Workflow(name='inner', edges=[(START, agent)])

  await _run_two_turns(Workflow(name='wf', edges=[(START, inner)]))

  assert [_texts_by_role(r) for r in model.requests] == _EACH_MESSAGE_ONCE


@pytest.mark.asyncio
async def test_node_run_in_sub_branch_on_user_message_sees_it_once():
  agent, model = _assistant()

  @node(rerun_on_resume=True)
  async def delegate(*, ctx, node_input):
    yield await ctx.run_node(agent, node_input=node_input, use_sub_branch=True)

  await _run_two_turns(Workflow(name='wf', edges=[(START, delegate)]))

  assert [_texts_by_role(r) for r in model.requests] == _EACH_MESSAGE_ONCE
