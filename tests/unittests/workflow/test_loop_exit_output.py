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

"""Tests that a workflow ending inside a loop gives the loop's output."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any
from typing import Literal

from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.events.request_input import RequestInput
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.adk.workflow.utils._workflow_hitl_utils import create_request_input_response
from google.genai import types
from pydantic import BaseModel
from pydantic import PrivateAttr
import pytest


class _ScriptedLlm(BaseLlm):
  """Replies with the next of its replies and records each request."""

  model: str = 'scripted'
  replies: list[str]
  _requests: list[LlmRequest] = PrivateAttr(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self._requests.append(llm_request)
    text = self.replies[min(len(self._requests), len(self.replies)) - 1]
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=text)])
    )


def _agent(name: str, *replies: str, **kwargs: Any) -> LlmAgent:
  return LlmAgent(
      name=name, model=_ScriptedLlm(replies=list(replies)), **kwargs
  )


def _route(node_input: str) -> Event:
  return Event(route='revise' if node_input == 'REVISE' else 'done')


def _review_loop(
    writer: LlmAgent, reviewer: LlmAgent
) -> list[tuple[Any, ...] | Any]:
  return [(START, writer, reviewer, _route), (_route, {'revise': writer})]


async def _run(
    node: Any, *messages: types.Part | str
) -> tuple[list[Event], list[Event]]:
  """Runs one invocation per message; returns the yielded and stored events."""
  runner = InMemoryRunner(node=node, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  yielded = []
  for message in messages:
    part = types.Part(text=message) if isinstance(message, str) else message
    async for event in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(role='user', parts=[part]),
    ):
      yielded.append(event)
  session = await runner.session_service.get_session(
      app_name='test_app', user_id='user', session_id=session.id
  )
  return yielded, session.events


def _outputs_for(path: str, events: list[Event]) -> list[Event]:
  return [e for e in events if path in (e.node_info.output_for or ())]


@pytest.mark.asyncio
async def test_review_loop_output_is_the_writers_last_draft():
  writer = _agent('writer', 'draft 1', 'draft 2', 'draft 3')
  flow = Workflow(
      name='flow',
      edges=_review_loop(writer, _agent('reviewer', 'REVISE', 'OK')),
  )

  yielded, stored = await _run(flow, 'write', 'shorter')

  # Not the verdict 'OK' that ended each turn's loop: the draft it approved.
  answer, next_answer = _outputs_for('flow@1', yielded)
  assert answer.output == 'draft 2'
  assert answer.node_info.path == 'flow@1'
  assert answer.node_info.output_for == ['flow@1']
  # Data, as a terminal function's output is: the draft is said once, by the
  # writer.
  assert answer.content is None
  assert next_answer.output == 'draft 3'
  assert [e.output for e in _outputs_for('flow@1', stored)] == [
      'draft 2',
      'draft 3',
  ]


@pytest.mark.asyncio
async def test_loop_ended_on_its_first_pass():
  flow = Workflow(
      name='flow',
      edges=_review_loop(_agent('writer', 'draft 1'), _agent('reviewer', 'OK')),
  )

  yielded, _ = await _run(flow, 'write')

  assert [e.output for e in _outputs_for('flow@1', yielded)] == ['draft 1']


@pytest.mark.asyncio
async def test_loop_followed_by_a_presenter_is_unchanged():
  writer = _agent('writer', 'draft 1', 'draft 2')
  presenter = _agent('presenter', 'FINAL')
  flow = Workflow(
      name='flow',
      edges=[
          (START, writer, _agent('reviewer', 'REVISE', 'OK'), _route),
          (_route, {'revise': writer, 'done': presenter}),
      ],
  )

  yielded, _ = await _run(flow, 'write')

  # As google-adk 2.13.0 records it: the terminal node's message is the
  # workflow's output, and no other event is.
  recorded = [
      (e.node_info.path, e.node_info.output_for, e.output)
      for e in yielded
      if e.node_info.output_for
  ]
  assert recorded == [
      ('flow@1/writer@1', ['flow@1/writer@1'], None),
      ('flow@1/reviewer@1', ['flow@1/reviewer@1'], None),
      ('flow@1/writer@2', ['flow@1/writer@2'], None),
      ('flow@1/reviewer@2', ['flow@1/reviewer@2'], None),
      ('flow@1/presenter@1', ['flow@1/presenter@1', 'flow@1'], None),
  ]


@pytest.mark.asyncio
async def test_loop_inside_a_loop_gives_the_entry_that_ran_last():
  def check_edit(node_input: str) -> Event:
    return Event(
        route='again' if node_input == 'edit 1' else 'ok', output=node_input
    )

  writer = _agent('writer', 'draft 1')
  editor = _agent('editor', 'edit 1', 'edit 2')
  reviewer = _agent('reviewer', 'OK')
  flow = Workflow(
      name='flow',
      edges=[
          (START, writer, editor, check_edit),
          (check_edit, {'again': editor, 'ok': reviewer}),
          (reviewer, _route),
          (_route, {'revise': writer}),
      ],
  )

  yielded, _ = await _run(flow, 'write')

  # Both the writer and the editor are loop entries; the editor ran last.
  assert [e.output for e in _outputs_for('flow@1', yielded)] == ['edit 2']


class _Feedback(BaseModel):
  grade: Literal['tech-related', 'unrelated']
  feedback: str


@pytest.mark.asyncio
async def test_loop_with_a_structured_verdict():
  # The shape of upstream's `workflows/loop` sample: the verdict is data.
  def route_headline(node_input: _Feedback) -> Event:
    return Event(route=node_input.grade)

  generate_headline = _agent(
      'generate_headline', 'Bees vote', 'Bees vote on a blockchain'
  )
  evaluate_headline = _agent(
      'evaluate_headline',
      '{"grade": "unrelated", "feedback": "add tech"}',
      '{"grade": "tech-related", "feedback": ""}',
      output_schema=_Feedback,
  )
  flow = Workflow(
      name='flow',
      edges=[
          (START, generate_headline, evaluate_headline, route_headline),
          (route_headline, {'unrelated': generate_headline}),
      ],
  )

  yielded, _ = await _run(flow, 'bees')

  assert [e.output for e in _outputs_for('flow@1', yielded)] == [
      'Bees vote on a blockchain'
  ]


@pytest.mark.asyncio
async def test_inner_loop_output_is_the_inner_workflows_output():
  inner = Workflow(
      name='inner',
      edges=_review_loop(
          _agent('writer', 'draft 1', 'draft 2'),
          _agent('reviewer', 'REVISE', 'OK'),
      ),
  )
  received = []

  def publish(node_input: Any) -> str:
    received.append(node_input)
    return f'published: {node_input}'

  # Terminal in the outer workflow, the inner loop's output is the outer's.
  yielded, _ = await _run(Workflow(name='flow', edges=[(START, inner)]), 'go')

  [answer] = _outputs_for('flow@1', yielded)
  assert answer.output == 'draft 2'
  assert answer.node_info.output_for == ['flow@1/inner@1', 'flow@1']

  # Followed by a node, it is that node's input and the inner's output only.
  yielded, _ = await _run(
      Workflow(name='flow', edges=[(START, inner, publish)]), 'go'
  )

  assert received == ['draft 2']
  assert [
      (e.output, e.node_info.output_for)
      for e in _outputs_for('flow@1/inner@1', yielded)
  ] == [('draft 2', ['flow@1/inner@1'])]
  assert [e.output for e in _outputs_for('flow@1', yielded)] == [
      'published: draft 2'
  ]


@pytest.mark.asyncio
async def test_loop_resumed_after_a_human_answer():
  def ask(node_input: Any) -> RequestInput:
    del node_input
    return RequestInput(interrupt_id='approve', message='Publish this draft?')

  def decide(node_input: Any) -> Event:
    return Event(route='done' if node_input['ok'] else 'revise')

  writer = _agent('writer', 'draft 1')
  flow = Workflow(
      name='flow',
      edges=[(START, writer, ask, decide), (decide, {'revise': writer})],
  )

  yielded, stored = await _run(
      flow, 'write', create_request_input_response('approve', {'ok': True})
  )

  # The second invocation replays the writer from the session and ends the
  # loop on the answer: the draft the human approved is the output.
  [answer] = _outputs_for('flow@1', yielded)
  assert answer.output == 'draft 1'
  assert len(_outputs_for('flow@1', stored)) == 1
  assert len(writer.model._requests) == 1
