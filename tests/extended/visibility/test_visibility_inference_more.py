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
from typing import AsyncGenerator

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.context import Context
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import BaseModel
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_USER_ID = 'visibility_user'


class ScriptedLlm(BaseLlm):
  """Answers each request with the next scripted reply and records requests.

  A reply is either text or a ``types.FunctionCall``. The last reply repeats
  once the script is exhausted.
  """

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    reply = self.script[min(len(self.requests), len(self.script)) - 1]
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  """An LlmAgent that says ``'<name> speaks'`` unless given a script."""
  return LlmAgent(
      name=name,
      model=ScriptedLlm(script=list(script) or [f'{name} speaks']),
      **kwargs,
  )


def _call(name: str, **args: Any) -> types.FunctionCall:
  return types.FunctionCall(name=name, args=args)


async def _run(
    root: Any, *, message: str = 'hello'
) -> tuple[list[Event], Session]:
  """Runs one turn and returns the yielded events and the stored session."""
  if isinstance(root, BaseAgent):
    runner = InMemoryRunner(agent=root, app_name='visibility_app')
  else:
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


def _sequence(name: str, *sub_agents: BaseAgent, **kwargs) -> SequentialAgent:
  return SequentialAgent(name=name, sub_agents=list(sub_agents), **kwargs)


_TOPOLOGIES = {
    'sequence': (
        lambda: _sequence('pipeline', _agent('classifier'), _agent('booker')),
        {'classifier': False, 'booker': True},
    ),
    'sequence_nested_first': (
        lambda: _sequence(
            'outer',
            _sequence('inner', _agent('a'), _agent('b')),
            _agent('c'),
        ),
        {'a': False, 'b': False, 'c': True},
    ),
    'sequence_nested_last': (
        lambda: _sequence(
            'outer',
            _agent('a'),
            _sequence('inner', _agent('b'), _agent('c')),
        ),
        {'a': False, 'b': False, 'c': True},
    ),
    'parallel_alone': (
        lambda: ParallelAgent(
            name='fan_out', sub_agents=[_agent('left'), _agent('right')]
        ),
        {'left': True, 'right': True},
    ),
    'parallel_inside_sequence': (
        lambda: _sequence(
            'pipeline',
            ParallelAgent(
                name='research', sub_agents=[_agent('web'), _agent('docs')]
            ),
            _agent('writer'),
        ),
        {'web': False, 'docs': False, 'writer': True},
    ),
    'sequences_inside_parallel': (
        lambda: ParallelAgent(
            name='fan_out',
            sub_agents=[
                _sequence('left', _agent('l_draft'), _agent('l_final')),
                _sequence('right', _agent('r_draft'), _agent('r_final')),
            ],
        ),
        {
            'l_draft': False,
            'l_final': True,
            'r_draft': False,
            'r_final': True,
        },
    ),
    'loop_then_presenter': (
        lambda: _sequence(
            'pipeline',
            LoopAgent(
                name='refine',
                max_iterations=2,
                sub_agents=[_agent('drafter'), _agent('critic')],
            ),
            _agent('presenter'),
        ),
        {'drafter': False, 'critic': False, 'presenter': True},
    ),
    'leaf_override_to_user': (
        lambda: _sequence(
            'pipeline',
            _agent('progress', visibility='user'),
            _agent('worker'),
            _agent('answer'),
        ),
        {'progress': True, 'worker': False, 'answer': True},
    ),
    'leaf_override_to_internal': (
        lambda: _sequence(
            'pipeline',
            _agent('a'),
            _agent('audit', visibility='internal'),
        ),
        {'a': False, 'audit': False},
    ),
    'composite_override_user': (
        lambda: _sequence(
            'outer',
            _sequence('steps', _agent('s1'), _agent('s2'), visibility='user'),
            _agent('summary'),
        ),
        {'s1': True, 's2': True, 'summary': True},
    ),
    'composite_override_with_child_exception': (
        lambda: _sequence(
            'pipeline',
            _agent('s1'),
            _agent('s2', visibility='internal'),
            _agent('s3'),
            visibility='user',
        ),
        {'s1': True, 's2': False, 's3': True},
    ),
    'internal_composite_with_user_child': (
        lambda: _sequence(
            'outer',
            ParallelAgent(
                name='checks',
                sub_agents=[
                    _agent('lint'),
                    _agent('notice', visibility='user'),
                ],
                visibility='internal',
            ),
            _agent('verdict'),
        ),
        {'lint': False, 'notice': True, 'verdict': True},
    ),
}


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
