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

"""Visibility inferred over Workflow graphs, observed through a real Runner.

Every case runs a workflow with a scripted model and checks the
``is_user_facing`` flag on the events the Runner yields and on the events the
session stored. Each case holds both internal and user-facing nodes, so a flag
that were constant would fail it.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import BaseModel
from pydantic import Field
import pytest

_USER_ID = 'visibility_user'


class ScriptedLlm(BaseLlm):
  """Answers each request with the next scripted reply and records requests.

  The last reply repeats once the script is exhausted.
  """

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    reply = self.script[min(len(self.requests), len(self.script)) - 1]
    yield LlmResponse(content=types.ModelContent(reply))


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  """An LlmAgent that says ``'<name> speaks'`` unless given a script."""
  return LlmAgent(
      name=name,
      model=ScriptedLlm(script=list(script) or [f'{name} speaks']),
      **kwargs,
  )


async def _run(
    root: Any, *, message: str = 'hello'
) -> tuple[list[Event], Session]:
  """Runs one turn and returns the yielded events and the stored session."""
  runner = InMemoryRunner(node=root, app_name='visibility_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text=message)]),
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored


def _flags_by_author(events: list[Event]) -> dict[str, set[bool]]:
  """Maps each author of a content-carrying event to the flags it carried."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.content is not None and event.author != 'user':
      flags.setdefault(event.author, set()).add(event.is_user_facing)
  return flags


@pytest.mark.asyncio
async def test_workflow_chain_only_terminal_node_is_user_facing():
  workflow = Workflow(
      name='booking',
      edges=[(START, _agent('classifier'), _agent('booker'))],
  )

  events, session = await _run(workflow)

  expected = {'classifier': {False}, 'booker': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_review_loop_answers_with_the_writer_not_the_verdict():
  passes = []

  def route(node_input: Any) -> Event:
    passes.append(node_input)
    return Event(route='revise' if len(passes) < 2 else 'done')

  writer = _agent('writer')
  workflow = Workflow(
      name='review',
      edges=[
          (START, writer, _agent('reviewer'), route),
          (route, {'revise': writer}),
      ],
  )

  events, session = await _run(workflow)

  # The route reads the reviewer's verdict, so the verdict is data; the loop
  # ends when no route matches, right after the writer's last draft, which
  # is then the last thing the user can hear.
  expected = {'writer': {True}, 'reviewer': {False}}
  assert len(passes) == 2
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_route_that_always_continues_covers_its_input():
  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='booking')

  workflow = Workflow(
      name='router',
      edges=[
          (START, _agent('classifier'), route),
          (route, {'booking': _agent('booker'), 'info': _agent('info')}),
      ],
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {'classifier': {False}, 'booker': {True}}


def _flags_by_node(events: list[Event]) -> dict[str, set[bool]]:
  """Like ``_flags_by_author``, keyed by node: function nodes' events are
  authored by their workflow."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.content is not None and event.author != 'user':
      node = event.node_info.name or event.author
      flags.setdefault(node, set()).add(event.is_user_facing)
  return flags


class _Grade(BaseModel):
  grade: str


def _grade_loop(passes: list[str]) -> Workflow:
  """generate -> grade (structured) -> route, back to generate once."""

  def route(node_input: dict[str, str]) -> Event:
    passes.append(node_input['grade'])
    return Event(route='retry' if node_input['grade'] == 'bad' else 'done')

  generate = _agent('generate', 'first headline', 'second headline')
  grade = _agent(
      'grade', '{"grade": "bad"}', '{"grade": "good"}', output_schema=_Grade
  )
  return Workflow(
      name='headlines',
      edges=[(START, generate, grade, route), (route, {'retry': generate})],
  )


def _support_desk() -> Workflow:
  """A greeting, then a label a route reads, leading to a refusal message."""

  def greet(node_input: Any) -> Any:
    del node_input
    yield Event(message='Welcome!')
    yield 'go'

  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='other')

  def refuse(node_input: Any) -> Any:
    del node_input
    yield Event(message='Sorry, I only answer questions.')

  return Workflow(
      name='support',
      edges=[
          (START, greet, _agent('classifier', 'other'), route),
          (route, {'question': _agent('answerer'), 'other': refuse}),
      ],
  )


@pytest.mark.asyncio
async def test_workflow_structured_output_is_data_for_the_next_node():
  passes: list[str] = []

  events, session = await _run(_grade_loop(passes))

  # The grade is read by the route: the headlines are what the user hears.
  assert passes == ['bad', 'good']
  expected = {'generate': {True}, 'grade': {False}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_workflow_list_a_fan_out_reads_is_data():
  planner = _agent('planner', '["tulips", "roses"]')
  workflow = Workflow(
      name='topics',
      edges=[(START, planner, _agent('explainer', parallel_worker=True))],
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {'planner': {False}, 'explainer': {True}}


@pytest.mark.asyncio
async def test_workflow_function_node_messages_address_the_user():
  events, session = await _run(_support_desk())

  # Each branch ends in something that speaks, so the label is internal; a
  # function node's message is for the user although an agent follows it.
  expected = {'greet': {True}, 'classifier': {False}, 'refuse': {True}}
  assert _flags_by_node(events) == expected
  assert _flags_by_node(session.events) == expected
