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

"""Tests for a Workflow run from a function tool with tool_context.run_node.

The scenario of https://github.com/google/adk-python/issues/7227: a root chat
agent whose tools each run a Workflow of single_turn LlmAgent nodes, calling
two tools one after the other in the same user turn.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _RecordingLlm(BaseLlm):
  """Answers from a list of replies and keeps every request it is sent.

  With no replies left it echoes the last user text it was sent, so the
  answer tells which input the model saw.
  """

  model: str = 'recording-llm'
  replies: list[str | types.FunctionCall] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    if self.replies:
      reply = self.replies.pop(0)
    else:
      reply = f'SUMMARY({_user_texts(llm_request)[-1]})'
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


def _user_texts(llm_request: LlmRequest) -> list[str]:
  """Returns the text of every user-role part of a request, in order."""
  return [
      part.text
      for content in llm_request.contents
      if content.role == 'user'
      for part in content.parts or []
      if part.text
  ]


def _summarize_call(doc: str) -> types.FunctionCall:
  return types.FunctionCall(name='summarize', args={'doc': doc})


def _build_app(
    *docs: str, with_run_ids: bool = False
) -> tuple[App, _RecordingLlm, _RecordingLlm]:
  """Builds a root agent whose tool runs a one-node Workflow per call.

  Args:
    *docs: The documents the root model asks to summarize, in order, all in
      one user turn.
    with_run_ids: Whether the tool names each child run (``doc-<doc>``).

  Returns:
    The app, the root agent's model and the workflow node's model.
  """
  worker_llm = _RecordingLlm()
  workflow = Workflow(
      name='summary_flow',
      edges=[(
          'START',
          LlmAgent(
              name='worker',
              model=worker_llm,
              instruction='Summarize the document.',
          ),
      )],
  )

  async def summarize(doc: str, tool_context: ToolContext) -> dict[str, str]:
    """Summarizes a document."""
    run_id = {'run_id': f'doc-{doc}'} if with_run_ids else {}
    output = await tool_context.run_node(
        workflow, node_input=f'INPUT-{doc}', **run_id
    )
    return {'summary': output}

  root_llm = _RecordingLlm(
      replies=[*(_summarize_call(doc) for doc in docs), 'ROOT-DONE']
  )
  root_agent = LlmAgent(
      name='root',
      model=root_llm,
      instruction='Summarize what the user asks for.',
      tools=[summarize],
  )
  return App(name='test_app', root_agent=root_agent), root_llm, worker_llm


async def _run_one_turn(app: App, message: str) -> list[Event]:
  """Runs one user turn and returns the events the session stored."""
  runner = InMemoryRunner(app=app)
  session = await runner.session_service.create_session(
      app_name=app.name, user_id='user'
  )
  async for _ in runner.run_async(
      user_id='user',
      session_id=session.id,
      new_message=types.Content(role='user', parts=[types.Part(text=message)]),
  ):
    pass
  session = await runner.session_service.get_session(
      app_name=app.name, user_id='user', session_id=session.id
  )
  assert session is not None
  return session.events


@pytest.mark.asyncio
async def test_second_tool_call_runs_the_workflow_on_its_own_input():
  app, _, worker_llm = _build_app('A', 'B')

  events = await _run_one_turn(app, 'Summarize A, then B.')

  assert [
      response.response
      for event in events
      for response in event.get_function_responses()
  ] == [
      {'summary': 'SUMMARY(INPUT-A)'},
      {'summary': 'SUMMARY(INPUT-B)'},
  ]
  assert [_user_texts(request) for request in worker_llm.requests] == [
      ['INPUT-A'],
      ['INPUT-B'],
  ]


@pytest.mark.asyncio
async def test_explicit_run_id_is_kept():
  app, _, _ = _build_app('A', with_run_ids=True)

  events = await _run_one_turn(app, 'Summarize A.')

  worker_paths = [e.node_info.path for e in events if e.author == 'worker']
  assert worker_paths == ['root@1/summary_flow@doc-A/worker@1']


@pytest.mark.asyncio
async def test_node_inputs_stay_out_of_the_root_agent_request():
  app, root_llm, _ = _build_app('A', 'B')

  await _run_one_turn(app, 'Summarize A, then B.')

  for request in root_llm.requests:
    assert not any(text.startswith('INPUT-') for text in _user_texts(request))
