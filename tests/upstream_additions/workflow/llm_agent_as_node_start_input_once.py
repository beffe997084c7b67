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

"""Test functions added to upstream's test_llm_agent_as_node.py.

`adkfork export` appends what follows the imports to upstream's
tests/unittests/workflow/test_llm_agent_as_node.py, which already imports
these names and defines `_new_workflow_runner`; the imports here only keep
this file readable on its own.
"""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
from google.adk.workflow import node
from google.adk.workflow import START
from google.adk.workflow._workflow import Workflow
import pytest


def _texts_by_role(llm_request) -> list[tuple[str, str]]:
  return [
      (content.role, part.text)
      for content in llm_request.contents
      for part in content.parts or []
      if part.text
  ]


async def _run_two_turns(wf, test_name):
  """Runs `wf` for two user turns in one session."""
  from . import testing_utils

  runner = _new_workflow_runner(wf, test_name)
  await runner.run_async(testing_utils.get_user_content('My name is Ada.'))
  await runner.run_async(testing_utils.get_user_content('What is my name?'))


_EACH_MESSAGE_ONCE = [
    [('user', 'My name is Ada.')],
    [
        ('user', 'My name is Ada.'),
        ('model', 'first'),
        ('user', 'What is my name?'),
    ],
]


@pytest.mark.asyncio
async def test_react_path_history_node_sees_user_message_once(
    request: pytest.FixtureRequest,
):
  """A first node that keeps the history gets each user message once."""
  from . import testing_utils

  mock_model = testing_utils.MockModel.create(responses=['first', 'second'])
  agent = LlmAgent(
      name='assistant', model=mock_model, include_contents='default'
  )
  wf = Workflow(name='wf', edges=[(START, agent)])

  await _run_two_turns(wf, request.function.__name__)

  assert [_texts_by_role(r) for r in mock_model.requests] == _EACH_MESSAGE_ONCE


@pytest.mark.asyncio
async def test_react_path_nested_history_node_sees_user_message_once(
    request: pytest.FixtureRequest,
):
  """The first node of a workflow nested first in another also gets it once."""
  from . import testing_utils

  mock_model = testing_utils.MockModel.create(responses=['first', 'second'])
  agent = LlmAgent(
      name='assistant', model=mock_model, include_contents='default'
  )
  inner = Workflow(name='inner', edges=[(START, agent)])
  wf = Workflow(name='wf', edges=[(START, inner)])

  await _run_two_turns(wf, request.function.__name__)

  assert [_texts_by_role(r) for r in mock_model.requests] == _EACH_MESSAGE_ONCE


@pytest.mark.asyncio
async def test_react_path_sub_branch_history_node_sees_user_message_once(
    request: pytest.FixtureRequest,
):
  """A node given the user's message through run_node(use_sub_branch=True)."""
  from . import testing_utils

  mock_model = testing_utils.MockModel.create(responses=['first', 'second'])
  agent = LlmAgent(
      name='assistant', model=mock_model, include_contents='default'
  )

  @node(rerun_on_resume=True)
  async def delegate(*, ctx, node_input):
    yield await ctx.run_node(agent, node_input=node_input, use_sub_branch=True)

  wf = Workflow(name='wf', edges=[(START, delegate)])

  await _run_two_turns(wf, request.function.__name__)

  assert [_texts_by_role(r) for r in mock_model.requests] == _EACH_MESSAGE_ONCE
