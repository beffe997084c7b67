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

"""Tests that a workflow node's input says which node produced it."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.events.request_input import RequestInput
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import FunctionNode
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.adk.workflow.utils._workflow_hitl_utils import create_request_input_response
from google.genai import types
import pytest


class _EchoLlm(BaseLlm):
  """Replies with its label."""

  model: str = 'echo'
  label: str = 'REPLY'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=self.label)])
    )


class _InputFrom:
  """Records, before each model call, the node's input event."""

  def __init__(self):
    self.inputs: list[Event] = []

  def __call__(self, callback_context: CallbackContext, llm_request: Any):
    del llm_request
    node_input = callback_context.session.events[-1]
    assert node_input.author == 'user' and node_input.node_info.path
    self.inputs.append(node_input)

  @property
  def seen(self) -> list[str | None]:
    return [event.node_info.input_from for event in self.inputs]


def _agent(name: str, recorder: _InputFrom | None = None) -> LlmAgent:
  # 'none' so that a node after START is also handed an input event.
  return LlmAgent(
      name=name,
      model=_EchoLlm(label=name.upper()),
      include_contents='none',
      before_model_callback=recorder,
  )


async def _run(
    workflow: Workflow, resume_with: types.Part | None = None
) -> None:
  runner = InMemoryRunner(node=workflow, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  messages = [types.Part(text='hi')] + ([resume_with] if resume_with else [])
  for part in messages:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(role='user', parts=[part]),
    ):
      pass


@pytest.mark.asyncio
async def test_input_from_start_and_from_a_predecessor():
  first, second = _InputFrom(), _InputFrom()

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('classifier', first), _agent('booker', second))
          ],
      )
  )

  # The workflow's own input is what the user sent: no node produced it.
  assert first.seen == [None]
  assert second.seen == ['flow@1/classifier@1']


@pytest.mark.asyncio
async def test_input_from_is_serialized_only_where_set():
  first, second = _InputFrom(), _InputFrom()

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('classifier', first), _agent('booker', second))
          ],
      )
  )

  # Events without it serialize as they did before the field existed.
  assert 'inputFrom' not in first.inputs[0].model_dump_json(by_alias=True)
  assert 'input_from' not in first.inputs[0].node_info.model_dump()
  assert second.inputs[0].node_info.model_dump()['input_from'] == (
      'flow@1/classifier@1'
  )


@pytest.mark.asyncio
async def test_input_from_a_function_and_from_a_join():
  after_function, after_join = _InputFrom(), _InputFrom()

  def summarise(node_input: str) -> str:
    return f'SUMMARY of {node_input}'

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('scout'), summarise, _agent('a', after_function))
          ],
      )
  )
  join = JoinNode(name='join')
  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('scout'), join),
              (START, _agent('critic'), join),
              (join, _agent('writer', after_join)),
          ],
      )
  )

  assert after_function.seen == ['flow@1/summarise@1']
  # The join's output, the dict of its predecessors' outputs, is the input.
  assert after_join.seen == ['flow@1/join@1']


@pytest.mark.asyncio
async def test_input_after_a_route():
  after_route = _InputFrom()

  def route_by_intent(node_input: str) -> Event:
    return Event(route='booking', output=node_input)

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('classifier'), route_by_intent),
              (route_by_intent, {'booking': _agent('booker', after_route)}),
          ],
      )
  )

  assert after_route.seen == ['flow@1/route_by_intent@1']


@pytest.mark.asyncio
async def test_input_in_and_after_a_nested_workflow():
  inside, after_inner = _InputFrom(), _InputFrom()
  inner = Workflow(name='inner', edges=[(START, _agent('drafter', inside))])
  editor = _agent('editor', after_inner)

  await _run(
      Workflow(
          name='flow', edges=[(START, _agent('classifier'), inner, editor)]
      )
  )

  # The inner START hands on the inner workflow's input: the classifier's.
  assert inside.seen == ['flow@1/classifier@1']
  assert after_inner.seen == ['flow@1/inner@1']


@pytest.mark.asyncio
async def test_input_of_a_child_run_with_run_node():
  child = _InputFrom()
  helper = _agent('helper', child)

  async def orchestrate(ctx: Any, node_input: Any) -> Any:
    # Handed on unchanged, the input is still the function's to give.
    return await ctx.run_node(helper, node_input=node_input)

  await _run(
      Workflow(
          name='flow',
          edges=[(START, FunctionNode(func=orchestrate, rerun_on_resume=True))],
      )
  )

  assert child.seen == ['flow@1/orchestrate@1']


@pytest.mark.asyncio
async def test_input_after_a_resumed_run():
  after_gate = _InputFrom()

  def gate(node_input: str) -> RequestInput:
    del node_input
    return RequestInput(interrupt_id='approve', message='Book it?')

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('classifier'), gate, _agent('booker', after_gate))
          ],
      ),
      resume_with=create_request_input_response('approve', {'ok': True}),
  )

  # The second invocation replays the classifier and the gate from the
  # session, with their run ids; the booker's input is the gate's answer.
  assert after_gate.seen == ['flow@1/gate@1']
