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

"""Tests that `include_sources` filters the history a model receives."""

from __future__ import annotations

from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.flows.llm_flows.context._source_filter import include_sources_filter
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedModel(BaseLlm):
  """Replies with scripted parts and records every request it receives."""

  model: str = 'scripted'
  script: list[Any] = Field(default_factory=list)
  requests: list[Any] = Field(default_factory=list)

  async def generate_content_async(self, llm_request, stream=False):
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(content=types.ModelContent(self.script.pop(0)))


def _book() -> None:
  """Asks a person to confirm a booking; the answer comes later."""


def _text(request) -> str:
  """Renders a request's contents, a tool call or response as its name."""
  return '\n'.join(
      f'{c.role}: {p.text or (p.function_call or p.function_response).name}'
      for c in request.contents
      for p in c.parts
  )


async def _runner(root: Any, history: list[Event] = ()) -> tuple[Any, str]:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='app')
  else:
    runner = InMemoryRunner(app=App(name='app', root_agent=root))
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  for event in history:
    await runner.session_service.append_event(session, event)
  return runner, session.id


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  model = _ScriptedModel(script=list(script))
  return LlmAgent(name=name, model=model, **kwargs)


async def _send(runner, session_id: str, *messages: Any) -> list[Event]:
  return [
      event
      for message in messages
      async for event in runner.run_async(
          user_id='user',
          session_id=session_id,
          new_message=types.UserContent(message),
      )
  ]


@pytest.mark.asyncio
async def test_after_a_transfer_the_agent_sees_the_user_not_the_coordinator():
  booker = _agent('booker', 'BOOKER-1', include_sources=['user', 'self'])
  transfer = types.Part.from_function_call(
      name='transfer_to_agent', args={'agent_name': 'booker'}
  )
  coordinator = _agent('coordinator', 'HELLO', transfer, sub_agents=[booker])
  runner, session_id = await _runner(coordinator)

  await _send(runner, session_id, 'USER-1 hello', 'USER-2 book a table')

  assert _text(booker.model.requests[0]) == (
      'user: USER-1 hello\nuser: USER-2 book a table'
  )


@pytest.mark.asyncio
async def test_workflow_node_sees_the_user_and_itself_not_its_node_input():
  classifier = _agent('classifier', 'LABEL', 'LABEL')
  booker = _agent('booker', 'B-1', 'B-2', include_sources=['user', 'self'])
  flow = Workflow(name='flow', edges=[(START, classifier, booker)])
  runner, session_id = await _runner(flow)

  await _send(runner, session_id, 'USER-1 table', 'USER-2 for three')

  assert _text(booker.model.requests[1]) == (
      'user: USER-1 table\nmodel: B-1\nuser: USER-2 for three'
  )


@pytest.mark.asyncio
async def test_text_beside_an_in_flight_call_is_kept():
  call = types.Part.from_function_call(name='_book', args={})
  script = [['CHECKING', call], 'OK']
  agent = _agent('concierge', *script, tools=[_book], include_sources=['user'])
  runner, session_id = await _runner(agent)

  await _send(runner, session_id, 'USER-1 rome?')

  assert _text(agent.model.requests[1]) == (
      'user: USER-1 rome?\nmodel: CHECKING\nmodel: _book\nuser: _book'
  )


@pytest.mark.asyncio
async def test_a_long_running_result_posted_later_reaches_the_model():
  call = types.Part.from_function_call(name='_book', args={})
  tools = [LongRunningFunctionTool(_book)]
  agent = _agent('agent', call, 'A', 'B', tools=tools, include_sources=['user'])
  runner, session_id = await _runner(agent)
  events = await _send(runner, session_id, 'USER-1 book it')
  [call] = [c for e in events for c in e.get_function_calls()]

  answer = types.FunctionResponse(id=call.id, name='_book', response={})
  await _send(runner, session_id, types.Part(function_response=answer), 'U-2')

  assert _text(agent.model.requests[1]) == (
      'user: USER-1 book it\nmodel: _book\nuser: _book'
  )
  # A finished loop goes with its call: the client's answer is not the user's.
  assert _text(agent.model.requests[2]) == 'user: USER-1 book it\nuser: U-2'


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('covered_author', 'kept'), [('user', True), ('scout', False)]
)
async def test_a_compaction_summary_goes_with_what_it_covers(
    covered_author, kept
):
  compaction = EventCompaction(
      start_timestamp=1.0,
      end_timestamp=2.0,
      compacted_content=types.UserContent('SUMMARY'),
  )
  summary = Event(
      author='user', timestamp=3.0, actions=EventActions(compaction=compaction)
  )
  earlier = Event(
      author=covered_author, timestamp=1.0, content=types.UserContent('EARLIER')
  )
  agent = _agent('concierge', 'OK', include_sources=['user'])
  runner, session_id = await _runner(agent, [earlier, summary])

  await _send(runner, session_id, 'USER-1 hello')

  assert ('SUMMARY' in _text(agent.model.requests[0])) == kept


@pytest.mark.asyncio
async def test_a_summary_inside_a_dropped_summary_stays_out():
  def summary(start: float, end: float, text: str, at: float) -> Event:
    compaction = EventCompaction(
        start_timestamp=start,
        end_timestamp=end,
        compacted_content=types.UserContent(text),
    )
    return Event(
        author='user', timestamp=at, actions=EventActions(compaction=compaction)
    )

  scout = Event(author='scout', timestamp=1.0, content=types.UserContent('S'))
  # The outer summary replaces the inner one, and covers only the scout.
  history = [scout, summary(1.0, 3.0, 'OUTER', 4.0)]
  history.insert(1, summary(2.0, 2.5, 'INNER', 3.0))
  agent = _agent('concierge', 'OK', include_sources=['user'])
  runner, session_id = await _runner(agent, history)

  await _send(runner, session_id, 'USER-1 hello')

  assert _text(agent.model.requests[0]) == 'user: USER-1 hello'


@pytest.mark.asyncio
async def test_a_peer_reusing_a_call_id_leaves_the_agents_own_pair_alone():
  def pair(author: str, name: str) -> list[Event]:
    call = types.Part.from_function_call(name=name, args={})
    call.function_call.id = 'call-0'
    response = types.Part.from_function_response(name=name, response={})
    response.function_response.id = 'call-0'
    return [
        Event(author=author, content=types.ModelContent([call])),
        Event(author=author, content=types.UserContent([response])),
    ]

  # Some models number their calls per turn, so ids repeat across agents.
  history = pair('reader', 'lookup') + pair('scout', 'search')
  agent = _agent('reader', 'OK', include_sources=['user', 'self'])
  runner, session_id = await _runner(agent, history)

  await _send(runner, session_id, 'USER-1 and now?')

  assert _text(agent.model.requests[0]) == (
      'model: lookup\nuser: lookup\nuser: USER-1 and now?'
  )


@pytest.mark.asyncio
async def test_an_app_gets_the_same_requests_from_the_history_filter():
  def team(**booker_settings: Any) -> LlmAgent:
    booker = _agent('booker', 'BOOKED', 'MOVED', **booker_settings)
    transfer = types.Part.from_function_call(
        name='transfer_to_agent', args={'agent_name': 'booker'}
    )
    return _agent(
        'coordinator', 'HELLO', transfer, transfer, sub_agents=[booker]
    )

  requests = []
  for settings in (
      {'include_sources': ['user', 'self']},
      {'history_filter': include_sources_filter(['user', 'self'], 'booker')},
  ):
    coordinator = team(**settings)
    runner, session_id = await _runner(coordinator)
    await _send(runner, session_id, 'USER-1 hi', 'USER-2 book', 'USER-3 8pm')
    requests.append(coordinator.sub_agents[0].model.requests)

  assert 'HELLO' not in _text(requests[0][-1])
  assert [r.contents for r in requests[1]] == [r.contents for r in requests[0]]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('sources', 'sees_the_pair'), [(['scout'], True), (['user'], False)]
)
async def test_a_posted_back_result_goes_with_the_peer_call_it_answers(
    sources, sees_the_pair
):
  call = types.Part.from_function_call(name='_book', args={})
  call.function_call.id = 'call-1'
  answer = types.FunctionResponse(id='call-1', name='_book', response={})
  history = [
      Event(author='scout', content=types.ModelContent([call])),
      Event(
          author='user',
          content=types.UserContent([types.Part(function_response=answer)]),
      ),
  ]
  agent = _agent('reader', 'OK', include_sources=sources)
  runner, session_id = await _runner(agent, history)

  await _send(runner, session_id, 'USER-1 done?')

  request = _text(agent.model.requests[0])
  assert ('called tool `_book`' in request) == sees_the_pair
  assert ('`_book` tool returned result' in request) == sees_the_pair
