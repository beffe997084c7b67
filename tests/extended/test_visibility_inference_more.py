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

"""Topology inference of agent visibility, observed through a real Runner.

Every case runs an agent tree or workflow with a scripted model and checks the
``is_user_facing`` flag on the events the Runner yields and on the events the
session stored. Each case contains both internal and user-facing agents, so a
flag that were constant would fail it.
"""

from __future__ import annotations

from typing import Any

from _pr_tests import inference
from google.adk.agents.context import Context
from google.adk.agents.llm_agent import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from pydantic import BaseModel
from pydantic import ValidationError
import pytest

pytestmark = inference.pytestmark
_agent = inference._agent
_call = inference._call
_run = inference._run
_flags_by_author = inference._flags_by_author
_sequence = inference._sequence


@pytest.mark.asyncio
async def test_nested_workflows_recurse():
  inner_first = Workflow(
      name='prepare', edges=[(START, _agent('fetch'), _agent('clean'))]
  )
  outer_first = Workflow(
      name='outer_a', edges=[(START, inner_first, _agent('answer'))]
  )
  inner_last = Workflow(
      name='respond', edges=[(START, _agent('draft'), _agent('polish'))]
  )
  outer_last = Workflow(
      name='outer_b', edges=[(START, _agent('route'), inner_last)]
  )

  first_events, _ = await _run(outer_first)
  last_events, _ = await _run(outer_last)

  assert _flags_by_author(first_events) == {
      'fetch': {False},
      'clean': {False},
      'answer': {True},
  }
  assert _flags_by_author(last_events) == {
      'route': {False},
      'draft': {False},
      'polish': {True},
  }


@pytest.mark.asyncio
async def test_workflow_node_agent_override():
  workflow = Workflow(
      name='flow',
      edges=[(
          START,
          _agent('intake', visibility='user'),
          _agent('hidden_step'),
          _agent('answer'),
      )],
  )

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {
      'intake': {True},
      'hidden_step': {False},
      'answer': {True},
  }


@pytest.mark.asyncio
async def test_agents_scheduled_by_a_node_follow_that_node():
  def dispatcher(name: str, helper: LlmAgent) -> FunctionNode:
    async def dispatch(ctx: Context, node_input: Any) -> str:
      del node_input
      return await ctx.run_node(helper, node_input='go')

    return FunctionNode(func=dispatch, name=name, rerun_on_resume=True)

  early = Workflow(
      name='early',
      edges=[(
          START,
          dispatcher('dispatch_early', _agent('early_helper')),
          _agent('early_answer'),
      )],
  )
  late = Workflow(
      name='late',
      edges=[(
          START,
          _agent('late_intake'),
          dispatcher('dispatch_late', _agent('late_helper')),
      )],
  )

  early_events, _ = await _run(early)
  late_events, _ = await _run(late)

  # Agents run through ctx.run_node are not in the static graph; they work
  # for the node that scheduled them.
  assert _flags_by_author(early_events) == {
      'early_helper': {False},
      'early_answer': {True},
  }
  assert _flags_by_author(late_events) == {
      'late_intake': {False},
      'late_helper': {True},
  }


@pytest.mark.asyncio
async def test_composite_agent_as_workflow_node_applies_its_own_rules():
  steps = _sequence('steps', _agent('gather'), _agent('conclude'))
  workflow = Workflow(name='flow', edges=[(START, _agent('prep'), steps)])

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {
      'prep': {False},
      'gather': {False},
      'conclude': {True},
  }


@pytest.mark.asyncio
async def test_agent_tool_events_stay_in_their_own_session():
  researcher = _sequence('researcher', _agent('search'), _agent('summarize'))
  caller = _agent(
      'caller',
      _call('researcher', request='find flights'),
      'caller answers',
      tools=[AgentTool(agent=researcher)],
  )
  internal_caller = _agent(
      'internal_caller',
      _call('researcher2', request='find hotels'),
      'internal caller answers',
      tools=[
          AgentTool(
              agent=_sequence('researcher2', _agent('search2'), _agent('sum2'))
          )
      ],
  )

  events, session = await _run(caller)
  nested_events, _ = await _run(
      _sequence('pipeline', internal_caller, _agent('presenter'))
  )

  # The wrapped agent's own events never reach the caller's session or
  # stream; its answer comes back as the caller's function response, which is
  # as visible as the caller.
  tool_agents = {'researcher', 'search', 'summarize'}
  assert not tool_agents & {e.author for e in session.events}
  assert not tool_agents & {e.author for e in events}
  responses = [e for e in events if e.get_function_responses()]
  assert [e.is_user_facing for e in responses] == [True]
  nested_responses = [e for e in nested_events if e.get_function_responses()]
  assert [e.is_user_facing for e in nested_responses] == [False]
  assert _flags_by_author(nested_events)['presenter'] == {True}


@pytest.mark.asyncio
async def test_explicit_value_does_not_cross_into_agents_run_as_tools():
  caller = _agent(
      'caller',
      _call('lookup', request='departure time'),
      'caller answers',
      sub_agents=[_agent('lookup', 'lookup result', mode='single_turn')],
      visibility='user',
  )

  events, _ = await _run(caller)

  # An explicit value covers the caller's subtree, but the agent it runs as a
  # tool still reports to the caller rather than to the user.
  assert _flags_by_author(events) == {'caller': {True}, 'lookup': {False}}


@pytest.mark.asyncio
async def test_task_sub_agent_converses_with_the_user():
  form = _agent('form_filler', 'which date do you travel?', mode='task')
  caller = _agent(
      'caller', _call('form_filler', request='collect dates'), sub_agents=[form]
  )

  events, _ = await _run(caller)

  assert _flags_by_author(events)['form_filler'] == {True}


@pytest.mark.asyncio
async def test_workflow_run_as_node_tool_is_internal():
  class Query(BaseModel):
    question: str

  def normalize(node_input: dict[str, str]) -> str:
    return node_input['question'].lower()

  faq = Workflow(
      name='faq_lookup',
      edges=[(START, normalize, _agent('faq_agent'))],
      input_schema=Query,
  )
  caller = _agent(
      'caller',
      _call('faq_lookup', question='Baggage?'),
      'caller answers',
      tools=[faq],
  )

  events, _ = await _run(caller)

  assert _flags_by_author(events) == {'caller': {True}, 'faq_agent': {False}}
  node_outputs = [e for e in events if e.output == 'baggage?']
  assert [e.is_user_facing for e in node_outputs] == [False]


@pytest.mark.parametrize(
    'visibility, drafter_flags', [(None, {False}), ('user', {True})]
)
@pytest.mark.asyncio
async def test_visibility_on_a_nested_workflow_covers_its_nodes(
    visibility, drafter_flags
):
  inner = Workflow(
      name='inner', edges=[(START, _agent('drafter'))], visibility=visibility
  )
  root = Workflow(name='outer', edges=[(START, inner, _agent('presenter'))])

  events, _ = await _run(root)

  assert _flags_by_author(events) == {
      'drafter': drafter_flags,
      'presenter': {True},
  }


@pytest.mark.asyncio
async def test_visibility_on_a_function_node_covers_what_it_runs():
  helper = _agent('helper')

  async def orchestrate(ctx: Any, node_input: Any) -> Any:
    return await ctx.run_node(helper, node_input=node_input)

  root = Workflow(
      name='flow',
      edges=[(
          START,
          FunctionNode(
              func=orchestrate, rerun_on_resume=True, visibility='internal'
          ),
      )],
  )

  events, _ = await _run(root)

  assert _flags_by_author(events)['helper'] == {False}


def test_an_unknown_visibility_on_a_node_names_the_allowed_values():
  with pytest.raises(
      ValidationError, match="Invalid visibility 'users' on node"
  ):
    Workflow(name='flow', edges=[(START, _agent('a'))], visibility='users')
