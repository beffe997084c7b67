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

"""Visibility of nodes run through ``ctx.run_node``, through a real Runner.

A node scheduled at run time speaks to the user only as its parent's output
(``use_as_output=True``); otherwise it works for the node that ran it.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.context import Context
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

_USER_ID = 'node_visibility_user'


class _ScriptedLlm(BaseLlm):
  """Always answers with the same text."""

  model: str = 'scripted-llm'
  reply: str = ''

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)])
    )


def _agent(name: str, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_ScriptedLlm(reply=f'{name} says'), **kwargs)


def _orchestrator(**kwargs: Any) -> FunctionNode:
  helper = _agent('helper')
  answerer = _agent('answerer')

  async def orchestrate(ctx: Context, node_input: Any) -> Any:
    await ctx.run_node(helper, node_input=node_input)
    return await ctx.run_node(
        answerer, node_input=node_input, use_as_output=True
    )

  return FunctionNode(
      func=orchestrate, name='orchestrate', rerun_on_resume=True, **kwargs
  )


async def _run(
    workflow: Workflow, run_config: RunConfig | None = None
) -> tuple[list[Event], Session]:
  runner = InMemoryRunner(node=workflow, app_name='node_visibility')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='hello')]),
          run_config=run_config,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored


def _texts(events: list[Event]) -> dict[str, set[bool]]:
  """Maps each author of a text to the ``is_user_facing`` flags it carried."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.author != 'user' and event.content and event.content.parts:
      if any(part.text for part in event.content.parts):
        flags.setdefault(event.author, set()).add(event.is_user_facing)
  return flags


@pytest.mark.asyncio
async def test_only_the_child_used_as_output_speaks_to_the_user():
  workflow = Workflow(name='app', edges=[(START, _orchestrator())])

  events, session = await _run(workflow)

  expected = {'helper': {False}, 'answerer': {True}}
  assert _texts(events) == expected
  assert _texts(session.events) == expected


@pytest.mark.asyncio
async def test_filter_mode_never_sends_a_consumed_child_text():
  workflow = Workflow(name='app', edges=[(START, _orchestrator())])

  events, session = await _run(workflow, RunConfig(visibility_mode='filter'))

  assert _texts(events) == {'answerer': {True}}
  assert 'helper' in _texts(session.events)


@pytest.mark.asyncio
async def test_children_of_an_internal_node_are_internal():
  workflow = Workflow(
      name='app', edges=[(START, _orchestrator(), _agent('presenter'))]
  )

  events, _ = await _run(workflow)

  assert _texts(events) == {
      'helper': {False},
      'answerer': {False},
      'presenter': {True},
  }


@pytest.mark.asyncio
async def test_an_explicit_value_covers_every_child():
  workflow = Workflow(
      name='app',
      edges=[(START, _orchestrator(visibility='user'), _agent('presenter'))],
  )

  events, _ = await _run(workflow)

  assert _texts(events) == {
      'helper': {True},
      'answerer': {True},
      'presenter': {True},
  }
