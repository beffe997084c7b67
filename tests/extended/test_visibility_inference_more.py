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

import re
from typing import Any
from typing import AsyncGenerator
from typing import Optional
from unittest import mock

from _pr_tests import inference
from _pr_tests import workflow_visibility
from _scripted import run_turns
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.context import Context
from google.adk.agents.invocation_context import InvocationContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.events.event import Event
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import BaseModel
from pydantic import ValidationError
import pytest

pytestmark = inference.pytestmark
_agent = inference._agent
_call = inference._call
_run = inference._run
_flags_by_author = inference._flags_by_author
_flags_by_node = workflow_visibility._flags_by_node
_sequence = inference._sequence
_USER_ID = inference._USER_ID


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

  # Agents run through ctx.run_node are in no static graph. Without
  # use_as_output their reply is a value the dispatcher consumes: internal.
  # A function node computes rather than speaks, so the intake agent before
  # it is the last agent the user can hear.
  assert _flags_by_author(early_events) == {
      'early_helper': {False},
      'early_answer': {True},
  }
  assert _flags_by_author(late_events) == {
      'late_intake': {True},
      'late_helper': {False},
  }


@pytest.mark.asyncio
async def test_a_nested_workflow_marked_user_shows_its_answer():
  inner = Workflow(
      name='drafting',
      edges=[(START, _agent('outline'), _agent('draft'))],
      visibility='user',
  )
  workflow = Workflow(name='flow', edges=[(START, inner, _agent('presenter'))])

  events, _ = await _run(workflow)

  assert _flags_by_author(events) == {
      'outline': {True},
      'draft': {True},
      'presenter': {True},
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


class _FlagRecorder(BasePlugin):
  """Records what ``on_event_callback`` sees and whether it was stored yet."""

  def __init__(self) -> None:
    super().__init__(name='flag_recorder')
    self.seen: list[tuple[str, bool, bool]] = []

  async def on_event_callback(
      self, *, invocation_context: InvocationContext, event: Event
  ) -> Optional[Event]:
    stored_ids = {e.id for e in invocation_context.session.events}
    if event.content is not None:
      self.seen.append(
          (event.author, event.is_user_facing, event.id in stored_ids)
      )
    return None


# More shapes of the PR test's topology matrix.
_TOPOLOGIES = {
    'leaf_override_to_user': (
        lambda: _sequence(
            'pipeline',
            _agent('progress', visibility='user'),
            _agent('worker'),
            _agent('answer'),
        ),
        {'progress': True, 'worker': False, 'answer': True},
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
    'loop_agent_that_can_end_it': (
        lambda: LoopAgent(
            name='refine',
            max_iterations=1,
            sub_agents=[_agent('drafter', tools=[exit_loop]), _agent('critic')],
        ),
        {'drafter': True, 'critic': True},
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
@pytest.mark.parametrize('topology', sorted(_TOPOLOGIES))
async def test_more_agent_tree_topologies(topology: str):
  await inference._assert_flags(*_TOPOLOGIES[topology])


@pytest.mark.asyncio
async def test_llm_transfer_targets_inherit_the_parent_visibility():
  def coordinator(name: str, helper: str) -> LlmAgent:
    return _agent(
        name,
        _call('transfer_to_agent', agent_name=helper),
        sub_agents=[_agent(helper)],
    )

  events, _ = await _run(coordinator('front_desk', 'concierge'))
  nested_events, _ = await _run(
      _sequence(
          'pipeline', coordinator('router', 'specialist'), _agent('reply')
      )
  )

  assert _flags_by_author(events) == {'front_desk': {True}, 'concierge': {True}}
  assert _flags_by_author(nested_events) == {
      'router': {False},
      'specialist': {False},
      'reply': {True},
  }


@pytest.mark.asyncio
async def test_workflow_function_node_output_follows_its_node():
  def extract(node_input: Any) -> str:
    del node_input
    return 'extracted fields'

  workflow = Workflow(
      name='intake', edges=[(START, extract, _agent('responder'))]
  )

  events, _ = await _run(workflow)

  # Function node events are authored by the workflow; their node path says
  # which node produced them.
  output_events = [e for e in events if e.output == 'extracted fields']
  assert [e.is_user_facing for e in output_events] == [False]
  assert _flags_by_author(events) == {'responder': {True}}


@pytest.mark.asyncio
async def test_function_response_has_the_visibility_of_the_calling_agent():
  def lookup_fare(city: str) -> dict[str, str]:
    """Looks up a fare."""
    return {'fare': f'fare to {city}'}

  pipeline = _sequence(
      'pipeline',
      _agent(
          'pricer',
          _call('lookup_fare', city='Oslo'),
          'priced',
          tools=[lookup_fare],
      ),
      _agent(
          'presenter',
          _call('lookup_fare', city='Rome'),
          'presented',
          tools=[lookup_fare],
      ),
  )

  events, session = await _run(pipeline)

  def response_flags(source: list[Event]) -> dict[str, bool]:
    return {
        event.author: event.is_user_facing
        for event in source
        if event.get_function_responses()
    }

  assert response_flags(events) == {'pricer': False, 'presenter': True}
  assert response_flags(session.events) == {'pricer': False, 'presenter': True}


@pytest.mark.asyncio
async def test_single_turn_sub_agent_runs_as_tool_and_is_internal():
  lookup = _agent('lookup', 'lookup result', mode='single_turn')
  caller = _agent(
      'caller',
      _call('lookup', request='departure time'),
      'caller answers',
      sub_agents=[lookup],
  )

  events, session = await _run(caller)

  expected = {'caller': {True}, 'lookup': {False}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(session.events) == expected


@pytest.mark.asyncio
async def test_a_tree_changed_between_runs_is_inferred_afresh():
  last = _agent('b', 'B-said')
  root = _sequence('pipeline', _agent('a', 'A-said'), last)
  events, _ = await _run(root)
  assert _flags_by_author(events)['b'] == {True}

  # Appending a step makes the former last step internal.
  root.sub_agents.append(_agent('c', 'C-said'))
  events, _ = await _run(root)

  flags = _flags_by_author(events)
  assert flags['b'] == {False}
  assert flags['c'] == {True}


@pytest.mark.asyncio
async def test_a_duck_typed_agent_runs_as_without_visibility():
  # A test double has none of a pydantic agent's fields; the Runner must not
  # fail on it, nor mark its events.
  agent = mock.Mock(spec=BaseAgent)
  agent.name = 'double'

  async def run_async(ctx: InvocationContext) -> AsyncGenerator[Event, None]:
    yield Event(
        author='double',
        invocation_id=ctx.invocation_id,
        content=types.Content(role='model', parts=[types.Part(text='hi')]),
    )

  agent.run_async = run_async
  runner = InMemoryRunner(agent=agent, app_name='test_app')

  events = await run_turns(runner, 'x')

  assert [(e.author, e.visibility, e.is_user_facing) for e in events] == [
      ('double', None, True)
  ]


@pytest.mark.asyncio
async def test_long_running_call_of_internal_agent_reaches_the_user():
  def request_approval(amount: int, tool_context: ToolContext) -> None:
    """Asks a human to approve an amount."""
    del amount, tool_context
    return None

  def check_budget(amount: int) -> str:
    """Checks the budget."""
    return f'budget ok for {amount}'

  pipeline = _sequence(
      'pipeline',
      _agent(
          'approver',
          _call('check_budget', amount=5),
          _call('request_approval', amount=5),
          'waiting',
          tools=[check_budget, LongRunningFunctionTool(func=request_approval)],
      ),
      _agent('closer'),
  )

  events, _ = await _run(pipeline)

  def call_flags(name: str) -> list[bool]:
    return [
        e.is_user_facing
        for e in events
        if any(c.name == name for c in e.get_function_calls())
    ]

  # The client has to answer the long-running call, so it cannot be hidden;
  # an ordinary call of the same internal agent is.
  assert call_flags('request_approval') == [True]
  assert call_flags('check_budget') == [False]


@pytest.mark.asyncio
async def test_flag_is_set_before_plugins_and_persistence():
  recorder = _FlagRecorder()
  runner = InMemoryRunner(
      agent=_sequence('pipeline', _agent('draft'), _agent('final')),
      app_name='visibility_app',
      plugins=[recorder],
  )

  await run_turns(runner, 'go', user_id=_USER_ID)

  assert recorder.seen == [('draft', False, False), ('final', True, False)]


@pytest.mark.asyncio
async def test_a_message_node_run_by_a_node_addresses_the_user():
  async def ask_again(node_input: Any) -> AsyncGenerator[Any, None]:
    del node_input
    yield Event(message="Let's try again.")

  retry = FunctionNode(func=ask_again)

  async def check(ctx: Context, node_input: Any) -> str:
    await ctx.run_node(retry, node_input=node_input)
    return 'checked'

  root = Workflow(
      name='identity',
      edges=[(
          START,
          FunctionNode(func=check, rerun_on_resume=True),
          _agent('answer'),
      )],
  )

  events, _ = await _run(root)

  # The retry message is for the user although its parent is internal.
  assert _flags_by_node(events) == {'ask_again': {True}, 'answer': {True}}


@pytest.mark.asyncio
async def test_a_message_node_inside_a_tool_reports_to_its_caller():
  class Query(BaseModel):
    tier: str

  def progress(node_input: dict[str, str]) -> Any:
    yield Event(message='Checking discount rules...')
    yield node_input['tier']

  lookup = Workflow(
      name='lookup',
      edges=[(START, FunctionNode(func=progress))],
      input_schema=Query,
  )
  caller = _agent(
      'caller', _call('lookup', tier='vip'), 'caller answers', tools=[lookup]
  )

  events, _ = await _run(caller)

  assert _flags_by_node(events)['progress'] == {False}
  assert _flags_by_node(events)['caller'] == {True}


class _Topic(BaseModel):
  title: str


@pytest.mark.parametrize('followed, flags', [(True, {False}), (False, {True})])
@pytest.mark.asyncio
async def test_structured_output_is_the_answer_only_when_nothing_reads_it(
    followed, flags
):
  def consume(node_input: dict[str, str]) -> str:
    return node_input['title'].upper()

  extract = _agent('extract', '{"title": "tulips"}', output_schema=_Topic)
  edges = [(START, extract, consume)] if followed else [(START, extract)]

  events, _ = await _run(Workflow(name='topics', edges=edges))

  assert _flags_by_author(events)['extract'] == flags


@pytest.mark.asyncio
async def test_an_event_that_is_the_runs_output_is_never_internal():
  shapes = [
      Workflow(name='a', edges=[(START, _agent('one'), _agent('two'))]),
      Workflow(
          name='b',
          edges=[
              (START, _agent('extract', '{"title": "x"}', output_schema=_Topic))
          ],
      ),
  ]
  for root in shapes:
    events, session = await _run(root)
    for event in [*events, *session.events]:
      output_for = event.node_info.output_for or ()
      if any(re.sub('@[^/]*', '', path) == root.name for path in output_for):
        assert event.is_user_facing, event


def _welcome(text: str) -> Event:
  return Event(message=text)


@pytest.mark.asyncio
async def test_a_message_built_out_of_sight_is_still_the_users():
  def greet(node_input: Any) -> Any:
    # The node's own code builds no Event: inference cannot read the
    # message from it, the event says it.
    del node_input
    yield _welcome('Welcome!')
    yield 'go'

  root = Workflow(name='desk', edges=[(START, greet, _agent('helper'))])

  events, session = await _run(root)

  expected = {'greet': {True}, 'helper': {True}}
  assert _flags_by_node(events) == expected
  assert _flags_by_node(session.events) == expected
