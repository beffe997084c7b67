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

"""include_sources on Workflow nodes in every shape and mode, through a Runner.

The cases an upstream reviewer reads are in
tests/unittests/flows/llm_flows/test_include_sources.py; the rules are in the
docstrings of flows/llm_flows/context/_source_filter.py,
workflow/_node_input_source.py (NodeInfo.input_from) and
workflow/_node_input_record.py.
"""

from __future__ import annotations

from typing import Any

from _pr_tests import include_sources
from _scripted import run_turns
from _scripted import ScriptedLlm
from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.runners import InMemoryRunner
from google.adk.workflow import FunctionNode
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

_text = include_sources._text
_sequential = include_sources._sequential
_run = include_sources._run
_workflow = include_sources._workflow

_TURNS = ('USER-1 table for two', 'USER-2 make it three')


def _agent(name: str, replies: int = 2, **kwargs: Any) -> LlmAgent:
  model = ScriptedLlm(
      strict=True,
      script=[f'{name.upper()}-{turn}' for turn in range(1, replies + 1)],
  )
  return LlmAgent(name=name, model=model, **kwargs)


def _texts(agent: LlmAgent) -> list[str]:
  return [_text(request) for request in agent.model.requests]


def _readme_agents(**booker_kwargs: Any) -> tuple[LlmAgent, LlmAgent]:
  classifier = _agent('classifier', output_key='intent')
  booker = _agent(
      'booker',
      instruction='The request is about {intent}. Help the user.',
      **booker_kwargs,
  )
  return classifier, booker


@pytest.mark.asyncio
async def test_readme_workflow_and_sequential_forms_send_the_same_requests():
  classifier, booker = _readme_agents(include_sources=['user', 'self'])
  await _run(
      Workflow(name='router', edges=[(START, classifier, booker)]), *_TURNS
  )
  seq_classifier, seq_booker = _readme_agents(include_sources=['user', 'self'])
  await _run(_sequential(seq_classifier, seq_booker), *_TURNS)

  assert (
      _texts(booker)
      == _texts(seq_booker)
      == [
          'user: USER-1 table for two',
          (
              'user: USER-1 table for two\nmodel: BOOKER-1\nuser: USER-2 make'
              ' it three'
          ),
      ]
  )


@pytest.mark.asyncio
async def test_route_function_between_classifier_and_booker():
  def route_by_intent(intent: str) -> Event:
    del intent
    return Event(route='booking')

  classifier, booker = _readme_agents(include_sources=['user', 'self'])
  flow = Workflow(
      name='router',
      edges=[
          (START, classifier, route_by_intent),
          (route_by_intent, {'booking': booker}),
      ],
  )

  await _run(flow, *_TURNS)

  assert _texts(booker)[1] == (
      'user: USER-1 table for two\nmodel: BOOKER-1\nuser: USER-2 make it three'
  )


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('drafter_kwargs', 'expected'),
    [
        # The nested workflow's START hands on the planner's output: it is
        # the planner's, not the user's.
        (
            {'include_sources': ['user', 'self']},
            (
                'user: USER-1 table for two\nmodel: DRAFTER-1\n'
                'user: USER-2 make it three'
            ),
        ),
        (
            {'include_sources': ['planner'], 'include_contents': 'none'},
            'user: PLANNER-2',
        ),
    ],
)
async def test_nested_workflow_input_belongs_to_the_outer_predecessor(
    drafter_kwargs, expected
):
  planner = _agent('planner')
  drafter = _agent('drafter', **drafter_kwargs)
  inner = Workflow(name='inner', edges=[(START, drafter)])

  await _run(Workflow(name='outer', edges=[(START, planner, inner)]), *_TURNS)

  assert _texts(drafter)[1] == expected


@pytest.mark.asyncio
async def test_join_input_belongs_to_the_join_and_branches_to_their_nodes():
  def build(writer_sources: list[str]) -> tuple[Workflow, LlmAgent]:
    join = JoinNode(name='join')
    writer = _agent('writer', include_sources=writer_sources)
    flow = Workflow(
        name='flow',
        edges=[
            (START, _agent('scout'), join),
            (START, _agent('critic'), join),
            (join, writer),
        ],
    )
    return flow, writer

  flow, writer = build(['user', 'self'])
  await _run(flow, *_TURNS)
  assert _texts(writer)[0] == 'user: USER-1 table for two'

  flow, writer = build(['user', 'join'])
  await _run(flow, *_TURNS)
  first = _texts(writer)[0]
  assert first.startswith('user: USER-1 table for two\nuser: {')
  assert '"scout": "SCOUT-1"' in first and '"critic": "CRITIC-1"' in first

  # A node named in the list is seen from its branch, recast as its message.
  flow, writer = build(['user', 'scout'])
  await _run(flow, *_TURNS)
  first = _texts(writer)[0]
  assert 'SCOUT-1' in first and 'CRITIC-1' not in first
  assert '"scout"' not in first


@pytest.mark.asyncio
async def test_task_mode_node_always_receives_its_task():
  async def requests(**tasker_kwargs: Any) -> list[str]:
    finish = types.FunctionCall(name='finish_task', args={'result': 'DONE'})
    model = ScriptedLlm(strict=True, script=[finish, finish])
    tasker = LlmAgent(name='tasker', model=model, mode='task', **tasker_kwargs)
    flow = Workflow(name='flow', edges=[(START, _agent('classifier'), tasker)])
    await _run(flow, *_TURNS)
    return [_text(request) for request in model.requests]

  # The task input leads the request; its scope holds only its own work.
  filtered = await requests(include_sources=['user', 'self'])
  assert filtered == await requests()
  assert filtered[0] == 'user: CLASSIFIER-1'
  assert filtered[1].startswith('user: CLASSIFIER-2\n')


@pytest.mark.asyncio
async def test_chat_mode_node_filters_its_history_like_any_agent():
  concierge = _agent('concierge', mode='chat', include_sources=['user'])

  await _run(Workflow(name='flow', edges=[(START, concierge)]), *_TURNS)

  assert _texts(concierge)[1] == (
      'user: USER-1 table for two\nuser: USER-2 make it three'
  )


@pytest.mark.asyncio
async def test_explicit_include_contents_is_kept_on_a_node_with_sources():
  classifier, booker = _readme_agents(
      include_sources=['user', 'self'], include_contents='none'
  )

  await _run(
      Workflow(name='router', edges=[(START, classifier, booker)]), *_TURNS
  )

  assert _texts(booker) == [
      'user: USER-1 table for two',
      'user: USER-2 make it three',
  ]


@pytest.mark.asyncio
async def test_the_session_keeps_every_event_whatever_the_node_sees():
  async def stored(**booker_kwargs: Any) -> list[tuple[str, str]]:
    classifier, booker = _readme_agents(**booker_kwargs)
    flow = Workflow(name='router', edges=[(START, classifier, booker)])
    runner = InMemoryRunner(node=flow, app_name='test_app')
    session = await runner.session_service.create_session(
        app_name='test_app', user_id='user'
    )
    await run_turns(runner, *_TURNS, session_id=session.id)
    session = await runner.session_service.get_session(
        app_name='test_app', user_id='user', session_id=session.id
    )
    return [
        (
            event.author,
            ''.join(
                part.text or ''
                for part in (event.content.parts if event.content else [])
            ),
        )
        for event in session.events
    ]

  assert await stored(include_sources=['user', 'self']) == await stored()


@pytest.mark.asyncio
async def test_node_after_a_nested_workflow_gets_the_workflows_output():
  drafter = _agent('drafter')
  inner = Workflow(name='inner', edges=[(START, drafter)])

  async def requests(**editor_kwargs: Any) -> list[str]:
    editor = _agent('editor', **editor_kwargs)
    # The drafter answers anew in each run.
    drafter.model.script[:] = ['DRAFTER-1', 'DRAFTER-2']
    drafter.model.requests.clear()
    await _run(Workflow(name='outer', edges=[(START, inner, editor)]), *_TURNS)
    return _texts(editor)

  # The input is the nested workflow's output: it belongs to 'inner'.
  assert (await requests(include_sources=['user']))[1] == (
      'user: USER-1 table for two\nuser: USER-2 make it three'
  )
  assert (
      await requests(include_sources=['inner'], include_contents='none')
  ) == ['user: DRAFTER-1', 'user: DRAFTER-2']


@pytest.mark.asyncio
async def test_workflow_node_input_from_a_listed_node_is_seen_once():
  flow, booker_model = _workflow(
      include_sources=['user', 'self', 'classifier'],
      script=['BOOKER-done-1', 'BOOKER-done-2'],
  )

  await _run(flow, 'USER-1 table', 'USER-2 for three')

  request = _text(booker_model.requests[1])
  # Each turn's label once, as the classifier's message, not as the user's.
  assert request.count('CLASSIFIER-booking') == 2
  assert 'user: CLASSIFIER-booking' not in request
  assert request.startswith('user: USER-1 table\nuser: For context:')


@pytest.mark.asyncio
async def test_workflow_input_from_start_is_the_user_message_once():
  model = ScriptedLlm(
      strict=True, script=['CONCIERGE-done-1', 'CONCIERGE-done-2']
  )
  concierge = LlmAgent(
      name='concierge', model=model, include_sources=['user', 'self']
  )

  await _run(
      Workflow(name='flow', edges=[(START, concierge)]),
      'USER-1 table',
      'USER-2 for three',
  )

  assert _text(model.requests[1]) == '\n'.join([
      'user: USER-1 table',
      'model: CONCIERGE-done-1',
      'user: USER-2 for three',
  ])


@pytest.mark.asyncio
async def test_dynamic_node_input_belongs_to_the_node_that_ran_it():
  helper_model = ScriptedLlm(
      strict=True, script=['HELPER-done-1', 'HELPER-done-2']
  )
  helper = LlmAgent(
      name='helper',
      model=helper_model,
      include_sources=['user', 'self', 'orchestrate'],
  )

  async def orchestrate(ctx: Any, node_input: Any) -> Any:
    del node_input  # The helper gets a task of its own.
    return await ctx.run_node(helper, node_input='TASK summarise')

  flow = Workflow(
      name='flow',
      edges=[(START, FunctionNode(func=orchestrate, rerun_on_resume=True))],
  )

  await _run(flow, 'USER-1 table')
  assert _text(helper_model.requests[0]) == '\n'.join([
      'user: USER-1 table',
      'user: TASK summarise',
  ])

  helper.include_sources = ['user', 'self']
  await _run(flow, 'USER-1 table')
  assert _text(helper_model.requests[1]) == 'user: USER-1 table'
