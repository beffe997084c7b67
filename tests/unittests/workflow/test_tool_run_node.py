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

"""A function tool's tool_context.run_node keys the child run by its call.

The cases of the test functions this change adds to upstream's
test_dynamic_node_scheduler.py, runnable without upstream's test helpers.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.events.request_input import RequestInput
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import node
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedModel(BaseLlm):
  """Answers with its replies in turn and keeps every request."""

  model: str = 'scripted'
  replies: list[types.Part] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    part = self.replies[len(self.requests) - 1]
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


def _function_responses(events: list[Event]) -> list[Any]:
  return [r.response for e in events for r in e.get_function_responses()]


def _user_texts(llm_request: LlmRequest) -> list[str]:
  return [
      part.text
      for content in llm_request.contents
      if content.role == 'user'
      for part in content.parts or []
      if part.text
  ]


class _Session:
  """One session of an app whose root agent calls `tool` once per args."""

  def __init__(self, tool: Any, calls: list[dict[str, str]]):
    root_model = _ScriptedModel(
        replies=[
            *(
                types.Part.from_function_call(name=tool.__name__, args=args)
                for args in calls
            ),
            types.Part(text='done'),
        ]
    )
    root = LlmAgent(name='root', model=root_model, tools=[tool])
    self.runner = InMemoryRunner(app=App(name='test_app', root_agent=root))
    self.session_id: str | None = None

  async def send(self, *parts: types.Part) -> list[Event]:
    if self.session_id is None:
      session = await self.runner.session_service.create_session(
          app_name='test_app', user_id='user'
      )
      self.session_id = session.id
    events = []
    async for event in self.runner.run_async(
        user_id='user',
        session_id=self.session_id,
        new_message=types.Content(role='user', parts=list(parts)),
    ):
      events.append(event)
    return events


@pytest.mark.asyncio
async def test_two_calls_in_one_turn_each_run_on_their_own_input():
  worker_model = _ScriptedModel(
      replies=[types.Part(text='summary of A'), types.Part(text='summary of B')]
  )
  summary_flow = Workflow(
      name='summary_flow',
      edges=[(START, LlmAgent(name='worker', model=worker_model))],
  )

  async def summarize(doc: str, tool_context: ToolContext) -> dict[str, Any]:
    output = await tool_context.run_node(summary_flow, node_input=doc)
    return {'summary': output}

  session = _Session(summarize, [{'doc': 'A'}, {'doc': 'B'}])
  events = await session.send(types.Part(text='A, then B'))

  assert _function_responses(events) == [
      {'summary': 'summary of A'},
      {'summary': 'summary of B'},
  ]
  assert [_user_texts(r) for r in worker_model.requests] == [['A'], ['B']]


@pytest.mark.asyncio
async def test_explicit_run_id_is_kept():
  @node
  async def step(*, ctx, node_input):
    yield f'done: {node_input}'

  async def run_step(doc: str, tool_context: ToolContext) -> dict[str, Any]:
    output = await tool_context.run_node(
        step, node_input=doc, run_id=f'doc-{doc}'
    )
    return {'result': output}

  session = _Session(run_step, [{'doc': 'A'}])
  events = await session.send(types.Part(text='A'))

  assert [e.node_info.path for e in events if e.output is not None] == [
      'root@1/step@doc-A'
  ]


@pytest.mark.asyncio
async def test_resumed_call_keeps_its_run_id():
  @node(rerun_on_resume=True)
  async def approve(*, ctx, node_input):
    if 'approval' in ctx.resume_inputs:
      yield f'{node_input}: {ctx.resume_inputs["approval"]["answer"]}'
      return
    yield RequestInput(
        interrupt_id='approval', message=f'Publish {node_input}?'
    )

  approval_flow = Workflow(name='approval_flow', edges=[(START, approve)])

  async def publish(doc: str, tool_context: ToolContext) -> dict[str, Any]:
    output = await tool_context.run_node(approval_flow, node_input=doc)
    return {'result': output}

  session = _Session(publish, [{'doc': 'A'}])
  paused = await session.send(types.Part(text='Publish A'))
  resumed = await session.send(
      types.Part(
          function_response=types.FunctionResponse(
              id='approval',
              name='adk_request_input',
              response={'answer': 'yes'},
          )
      )
  )

  call_id = next(
      call.id
      for e in paused
      for call in e.get_function_calls()
      if call.name == 'publish'
  )
  child_path = f'root@1/approval_flow@{call_id}/approve@1'
  assert [e.node_info.path for e in paused if e.long_running_tool_ids] == [
      child_path
  ]
  assert [e.node_info.path for e in resumed if e.output is not None] == [
      child_path
  ]
  assert _function_responses(resumed) == [{'result': 'A: yes'}]
