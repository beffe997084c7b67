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

"""Test functions added to upstream's test_dynamic_node_scheduler.py.

`adkfork export` appends what follows the imports to upstream's
tests/unittests/workflow/test_dynamic_node_scheduler.py and adds the imports
it lacks; like that file's runner tests, these import `testing_utils` from
the package of upstream's tests.
"""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.events.request_input import RequestInput
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import node
from google.adk.workflow import START
from google.adk.workflow._workflow import Workflow
from google.genai import types
import pytest


def _function_responses(events) -> list[dict]:
  return [r.response for e in events for r in e.get_function_responses()]


def _user_texts(llm_request) -> list[str]:
  return [
      part.text
      for content in llm_request.contents
      if content.role == 'user'
      for part in content.parts or []
      if part.text
  ]


def _app_with_tool(test_name, tool, calls):
  """An app whose root agent calls `tool` once per args dict, then ends."""
  from .. import testing_utils

  root_model = testing_utils.MockModel.create(
      responses=[
          *(
              types.Part.from_function_call(name=tool.__name__, args=args)
              for args in calls
          ),
          'done',
      ]
  )
  root = LlmAgent(name='root', model=root_model, tools=[tool])
  return App(name=test_name, root_agent=root)


@pytest.mark.asyncio
async def test_tool_run_node_runs_each_call_on_its_own_input(
    request: pytest.FixtureRequest,
):
  """Two calls of a tool in one turn run its workflow twice, not once."""
  from .. import testing_utils

  worker_model = testing_utils.MockModel.create(
      responses=['summary of A', 'summary of B']
  )
  summary_flow = Workflow(
      name='summary_flow',
      edges=[(START, LlmAgent(name='worker', model=worker_model))],
  )

  async def summarize(doc: str, tool_context: ToolContext) -> dict:
    return {
        'summary': await tool_context.run_node(summary_flow, node_input=doc)
    }

  app = _app_with_tool(
      request.function.__name__, summarize, [{'doc': 'A'}, {'doc': 'B'}]
  )
  runner = testing_utils.InMemoryRunner(app=app)
  events = await runner.run_async(testing_utils.get_user_content('A, then B'))

  assert _function_responses(events) == [
      {'summary': 'summary of A'},
      {'summary': 'summary of B'},
  ]
  assert [_user_texts(r) for r in worker_model.requests] == [['A'], ['B']]


@pytest.mark.asyncio
async def test_tool_run_node_keeps_explicit_run_id(
    request: pytest.FixtureRequest,
):
  """A run_id the tool passes is used, not the function call id."""
  from .. import testing_utils

  @node
  async def step(*, ctx, node_input):
    yield f'done: {node_input}'

  async def run_step(doc: str, tool_context: ToolContext) -> dict:
    return {
        'result': await tool_context.run_node(
            step, node_input=doc, run_id=f'doc-{doc}'
        )
    }

  app = _app_with_tool(request.function.__name__, run_step, [{'doc': 'A'}])
  runner = testing_utils.InMemoryRunner(app=app)
  events = await runner.run_async(testing_utils.get_user_content('A'))

  assert [e.node_info.path for e in events if e.output is not None] == [
      'root@1/step@doc-A'
  ]


@pytest.mark.asyncio
async def test_tool_run_node_resumed_call_keeps_its_run_id(
    request: pytest.FixtureRequest,
):
  """A child run that asks the user resumes under the same run id."""
  from .. import testing_utils

  @node(rerun_on_resume=True)
  async def approve(*, ctx, node_input):
    if 'approval' in ctx.resume_inputs:
      yield f'{node_input}: {ctx.resume_inputs["approval"]["answer"]}'
      return
    yield RequestInput(
        interrupt_id='approval', message=f'Publish {node_input}?'
    )

  approval_flow = Workflow(name='approval_flow', edges=[(START, approve)])

  async def publish(doc: str, tool_context: ToolContext) -> dict:
    return {
        'result': await tool_context.run_node(approval_flow, node_input=doc)
    }

  app = _app_with_tool(request.function.__name__, publish, [{'doc': 'A'}])
  runner = testing_utils.InMemoryRunner(app=app)
  paused = await runner.run_async(testing_utils.get_user_content('Publish A'))
  resumed = await runner.run_async(
      types.Content(
          role='user',
          parts=[
              types.Part(
                  function_response=types.FunctionResponse(
                      id='approval',
                      name='adk_request_input',
                      response={'answer': 'yes'},
                  )
              )
          ],
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
