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

"""``RunConfig.visibility_mode='filter'`` through a real Runner.

Internal agents in these tests speak words that no user-facing agent uses, so
a check that those words are absent from what the caller received is only
meaningful next to the check that the user-facing words are present.
"""

from __future__ import annotations

from typing import Any

from _pr_tests import visibility_filter
from _scripted import run_turns
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.apps.app import ResumabilityConfig
from google.adk.events.event import Event
from google.adk.events.user_view import user_view
from google.adk.runners import InMemoryRunner
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

pytestmark = visibility_filter.pytestmark
_agent = visibility_filter._agent
_pipeline = visibility_filter._pipeline
_run = visibility_filter._run
_received_text = visibility_filter._received_text
_USER_ID = visibility_filter._USER_ID
_SECRET = visibility_filter._SECRET
_PUBLIC = visibility_filter._PUBLIC
_final_texts = visibility_filter._final_texts


@pytest.mark.asyncio
async def test_state_changes_of_internal_tools_reach_session_and_named_keys():
  def remember_city(city: str, tool_context: ToolContext) -> str:
    """Remembers the destination."""
    tool_context.state['destination'] = city
    return f'noted {city} {_SECRET}'

  def pipeline() -> SequentialAgent:
    return SequentialAgent(
        name='pipeline',
        sub_agents=[
            _agent(
                'planner',
                types.FunctionCall(name='remember_city', args={'city': 'Oslo'}),
                f'planned {_SECRET}',
                tools=[remember_city],
            ),
            _agent('booker', _PUBLIC),
        ],
    )

  events, session, _ = await _run(
      pipeline(), RunConfig(visibility_mode='filter')
  )
  named, _, _ = await _run(
      pipeline(),
      RunConfig(visibility_mode='filter', client_state_keys=['destination']),
  )

  assert _SECRET not in _received_text(events)
  assert _PUBLIC in _received_text(events)
  # The internal agent's tool shows by name only, as progress.
  calls = [c for e in events for c in e.get_function_calls()]
  assert [(c.name, c.args) for c in calls] == [('remember_city', None)]
  # Its state write is kept from the client unless the app names the key.
  assert 'Oslo' not in _received_text(events)
  deltas = [e.actions.state_delta for e in named if e.author == 'planner']
  assert {'destination': 'Oslo'} in deltas
  assert session.state['destination'] == 'Oslo'


@pytest.mark.asyncio
async def test_escalation_of_internal_loop_reaches_the_client():
  def exit_loop(tool_context: ToolContext) -> str:
    """Stops the loop."""
    tool_context.actions.escalate = True
    return f'stopping {_SECRET}'

  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          LoopAgent(
              name='refine',
              max_iterations=3,
              sub_agents=[
                  _agent(
                      'critic',
                      types.FunctionCall(name='exit_loop', args={}),
                      f'done {_SECRET}',
                      tools=[exit_loop],
                  )
              ],
          ),
          _agent('booker', _PUBLIC),
      ],
  )

  events, _, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  escalations = [e for e in events if e.actions.escalate]
  assert [e.author for e in escalations] == ['critic']
  responses = escalations[0].get_function_responses()
  assert [(r.name, r.response) for r in responses] == [('exit_loop', None)]
  assert _SECRET not in _received_text(events)
  assert _PUBLIC in _received_text(events)


@pytest.mark.asyncio
async def test_sync_run_filters_too():
  runner = InMemoryRunner(agent=_pipeline(), app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )

  # Runner.run drives run_async on its own thread and event loop.
  events = list(
      runner.run(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='hi')]),
          run_config=RunConfig(visibility_mode='filter'),
      )
  )

  assert _SECRET not in _received_text(events)
  assert _PUBLIC in _received_text(events)


def _approve_refund(amount: int) -> dict[str, str]:
  """Asks a person to approve a refund; the client answers later."""
  del amount
  return {'status': 'pending'}


def _cancel_booking(code: str) -> dict[str, str]:
  """Cancels a booking, once the user confirms."""
  return {'cancelled': code}


@pytest.mark.parametrize(
    ('tool', 'call', 'client_call'),
    [
        (
            LongRunningFunctionTool(_approve_refund),
            types.FunctionCall(name='_approve_refund', args={'amount': 40}),
            '_approve_refund',
        ),
        (
            FunctionTool(_cancel_booking, require_confirmation=True),
            types.FunctionCall(name='_cancel_booking', args={'code': 'AB12'}),
            'adk_request_confirmation',
        ),
    ],
)
@pytest.mark.asyncio
async def test_calls_the_client_must_answer_reach_it_in_full(
    tool, call, client_call
):
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('clerk', call, f'noted {_SECRET}', tools=[tool]),
          _agent('booker', _PUBLIC),
      ],
  )

  events, session, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  shown = {c.name: c for e in events for c in e.get_function_calls()}
  stored = {c.name: c for e in session.events for c in e.get_function_calls()}
  # The internal clerk's call keeps its arguments: the client answers it.
  assert shown[client_call].args
  assert shown[client_call] == stored[client_call]
  assert _SECRET not in _received_text(events)


@pytest.mark.asyncio
async def test_tool_levels_of_a_user_facing_agent():
  def lookup_booking(code: str) -> dict[str, str]:
    return {'status': f'confirmed {code}'}

  def audit(note: str) -> dict[str, str]:
    return {'logged': note}

  agent = _agent(
      'booker',
      types.FunctionCall(name='lookup_booking', args={'code': 'AB12'}),
      types.FunctionCall(name='audit', args={'note': _SECRET}),
      _PUBLIC,
      tools=[lookup_booking, audit],
      tool_visibility={'audit': 'hidden'},
  )

  events, session, _ = await _run(agent, RunConfig(visibility_mode='filter'))

  assert _SECRET not in _received_text(events)
  assert 'audit' not in _received_text(events)
  lookup = [e for e in events if e.get_function_calls()]
  assert lookup[0].get_function_calls()[0].args == {'code': 'AB12'}
  assert _final_texts(events) == [_PUBLIC]
  assert len(events) == 3
  assert len([e for e in session.events if e.author == 'booker']) == 5


@pytest.mark.asyncio
async def test_a_user_facing_answer_needs_no_fallback():
  events, _, _ = await _run(_pipeline(), RunConfig(visibility_mode='filter'))

  assert _final_texts(events) == [_PUBLIC]
  assert sum(e.author == 'booker' for e in events) == 1


async def _run_resumable(root: Any, run_config: RunConfig) -> tuple[Any, Any]:
  """Runs ``root`` in a resumable app, where workflows write checkpoints."""
  app = App(
      name='filter_app',
      root_agent=root,
      resumability_config=ResumabilityConfig(is_resumable=True),
  )
  runner = InMemoryRunner(app=app)
  session = await runner.session_service.create_session(
      app_name='filter_app', user_id=_USER_ID
  )
  events = await run_turns(
      runner,
      'book a trip',
      user_id=_USER_ID,
      session_id=session.id,
      run_config=run_config,
  )
  stored = await runner.session_service.get_session(
      app_name='filter_app', user_id=_USER_ID, session_id=session.id
  )
  return events, stored


def _desk_with_workflow_tool(shape: str, **kwargs: Any) -> Any:
  """A user-facing desk calling a Workflow as a tool (wrapped by NodeTool)."""
  research = Workflow(
      name='research',
      edges=[(START, _agent('researcher', f'found {_SECRET}'))],
      input_schema=str,
  )
  desk = _agent(
      'desk',
      types.FunctionCall(name='research', args={'request': 'Oslo'}),
      _PUBLIC,
      tools=[research],
      **kwargs,
  )
  if shape == 'workflow':
    return Workflow(name='desk_flow', edges=[(START, desk)])
  return desk


def _from_tool(events: list[Event]) -> list[Event]:
  return [e for e in events if e.author in ('research', 'researcher')]


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', ['agent', 'workflow'])
async def test_a_workflow_tools_checkpoints_send_nothing_empty(shape):
  events, stored = await _run_resumable(
      _desk_with_workflow_tool(shape), RunConfig(visibility_mode='filter')
  )

  # The workflow's checkpoints (agent_state, end_of_agent) are stored...
  assert any(e.actions.agent_state for e in _from_tool(stored.events))
  # ...and never reach the client, least of all as empty answers.
  assert _from_tool(events)
  for event in _from_tool(events):
    assert not event.is_user_facing
    assert not event.is_final_response()
    assert event.actions.agent_state is None
    assert not event.actions.end_of_agent
  assert _SECRET not in _received_text(events)
  assert _PUBLIC in _received_text(events)
  reloaded = [e for e in user_view(stored.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.asyncio
async def test_a_hidden_workflow_tool_sends_nothing_of_its_run():
  events, _ = await _run_resumable(
      _desk_with_workflow_tool('agent', tool_visibility={'research': 'hidden'}),
      RunConfig(visibility_mode='filter'),
  )

  assert _from_tool(events) == []
  assert 'research' not in _received_text(events)
  assert _PUBLIC in _received_text(events)


def _coordinator_with_task() -> Any:
  """A coordinator delegating to a task-mode sub-agent."""
  worker = _agent(
      'worker',
      types.FunctionCall(name='finish_task', args={'result': _SECRET}),
      mode='task',
      description='Finds flights.',
  )
  coordinator = _agent(
      'coordinator',
      types.FunctionCall(name='worker', args={'request': 'Oslo'}),
      _PUBLIC,
      sub_agents=[worker],
  )
  return coordinator


@pytest.mark.asyncio
async def test_a_task_agents_result_takes_its_tools_level():
  events, session, _ = await _run(
      _coordinator_with_task(), RunConfig(visibility_mode='filter')
  )

  # The runtime answers the coordinator's call as the user, with the result.
  stored = [
      (e.author, r.name, r.response)
      for e in session.events
      for r in e.get_function_responses()
  ]
  assert ('user', 'worker', {'result': _SECRET}) in stored
  # The client gets the tool's default level, minimal: name and call id.
  shown = [
      (e.author, r.name, r.response)
      for e in events
      for r in e.get_function_responses()
  ]
  assert ('user', 'worker', None) in shown
  assert _SECRET not in _received_text(events)
  assert _final_texts(events) == [_PUBLIC]
  assert _SECRET not in _received_text(user_view(session.events))


@pytest.mark.asyncio
async def test_a_task_agents_questions_over_turns_reload_as_they_were_shown():
  intake = _agent('intake', 'Which date?', 'How many people?', mode='task')
  workflow = Workflow(
      name='booking', edges=[(START, intake, _agent('summary', _PUBLIC))]
  )
  runner = InMemoryRunner(node=workflow, app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name='filter_app', user_id=_USER_ID
  )
  live = await run_turns(
      runner,
      'book a table',
      'tomorrow',
      user_id=_USER_ID,
      session_id=session.id,
      run_config=RunConfig(visibility_mode='filter'),
  )
  stored = await runner.session_service.get_session(
      app_name='filter_app', user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None

  # The paused workflow keeps one invocation across both turns: each
  # question is the task agent's own, shown live and on reload alike.
  reloaded = [e for e in user_view(stored.events) if e.author != 'user']
  assert _final_texts(live) == ['Which date?', 'How many people?']
  assert _final_texts(reloaded) == _final_texts(live)


@pytest.mark.asyncio
async def test_a_review_loop_with_an_internal_writer_answers_with_its_draft():
  def route(node_input: str) -> Event:
    return Event(route='revise' if node_input == 'REVISE' else 'done')

  writer = _agent('writer', 'first draft', 'last draft', visibility='internal')
  review = Workflow(
      name='review',
      edges=[
          (START, writer, _agent('reviewer', 'REVISE', 'OK'), route),
          (route, {'revise': writer}),
      ],
  )

  events, _, _ = await _run(review, RunConfig(visibility_mode='filter'))

  # Nothing user-facing said a word, so the turn's answer is chosen from its
  # events: the loop's output, the writer's last draft, not the verdict.
  said = [p.text for e in events if e.content for p in e.content.parts]
  assert [text for text in said if text] == ['last draft']
  outputs = [e for e in events if 'review@1' in (e.node_info.output_for or ())]
  assert [e.output for e in outputs] == ['last draft']
