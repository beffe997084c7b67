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

"""The include_sources view of a workflow node's input.

The source name taken from ``NodeInfo.input_from`` (``'user'`` when None) and
the id of the message the input repeats, which the fork records when the node
starts (``workflow/_node_input_record.py``). The paths themselves are tested
upstream-style in tests/unittests/workflow/test_node_input_source.py.
"""

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
from google.adk.workflow._node_input_record import node_input_source
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


class _Sources:
  """Records, before each model call, the source of the node's input."""

  def __init__(self):
    self.seen: list[tuple[str, str | None]] = []
    self.events: list[Event] = []

  def __call__(self, callback_context: CallbackContext, llm_request: Any):
    del llm_request
    events = callback_context.session.events
    self.events = list(events)
    recorded = node_input_source(events[-1])
    assert recorded is not None
    self.seen.append((recorded.source, recorded.copied_event_id))


def _agent(
    name: str, sources: _Sources | None = None, label: str | None = None
) -> LlmAgent:
  return LlmAgent(
      name=name,
      model=_EchoLlm(label=label or name.upper()),
      before_model_callback=sources,
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


def _id_of(events: list[Event], author: str) -> str:
  return next(event.id for event in events if event.author == author)


@pytest.mark.asyncio
async def test_input_from_start_and_from_a_predecessor():
  first, second = _Sources(), _Sources()

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('classifier', first), _agent('booker', second))
          ],
      )
  )

  assert first.seen == [('user', _id_of(first.events, 'user'))]
  assert second.seen == [('classifier', _id_of(second.events, 'classifier'))]


@pytest.mark.asyncio
async def test_input_from_a_function_and_a_join():
  after_function, after_join = _Sources(), _Sources()

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

  # A function's return value and a join's dict are no message to point at.
  assert after_function.seen == [('summarise', None)]
  assert after_join.seen == [('join', None)]


@pytest.mark.asyncio
async def test_input_of_a_dynamic_child_and_after_a_nested_workflow():
  child, after_inner = _Sources(), _Sources()
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
  inner = Workflow(name='inner', edges=[(START, _agent('drafter'))])
  await _run(
      Workflow(
          name='flow', edges=[(START, inner, _agent('editor', after_inner))]
      )
  )

  # The helper's input was computed by the function that ran it.
  assert child.seen == [('orchestrate', None)]
  # A nested workflow's output is its terminal node's message.
  assert after_inner.seen == [('inner', _id_of(after_inner.events, 'drafter'))]


@pytest.mark.asyncio
async def test_parallel_branches_with_the_same_reply():
  after_a, after_b = _Sources(), _Sources()
  join = JoinNode(name='join')

  await _run(
      Workflow(
          name='flow',
          edges=[
              (START, _agent('a', label='SAME'), _agent('x', after_a), join),
              (START, _agent('b', label='SAME'), _agent('y', after_b), join),
          ],
      )
  )

  # Equal text does not decide: each input is its own predecessor's reply.
  assert after_a.seen == [('a', _id_of(after_a.events, 'a'))]
  assert after_b.seen == [('b', _id_of(after_b.events, 'b'))]


@pytest.mark.asyncio
async def test_input_after_a_route():
  after_route = _Sources()

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

  assert after_route.seen == [('route_by_intent', None)]


@pytest.mark.asyncio
async def test_input_after_a_resumed_run():
  after_gate = _Sources()

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

  # The second invocation replays the classifier from the session; the
  # booker's input is the answer the gate received.
  assert after_gate.seen == [('gate', None)]
