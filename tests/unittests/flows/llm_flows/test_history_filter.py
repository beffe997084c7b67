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

"""Tests that `LlmAgent.history_filter` chooses what a request is built from."""

from __future__ import annotations

from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
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


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  return LlmAgent(
      name=name, model=_ScriptedModel(script=list(script)), **kwargs
  )


def _transfer(to: str) -> types.Part:
  return types.Part.from_function_call(
      name='transfer_to_agent', args={'agent_name': to}
  )


def _lookup(city: str) -> str:
  """Looks up the opening hours in a city."""
  return f'{city}: 9-22'


def _lines(request) -> list[str]:
  """Renders a request's contents, one line per part."""
  return [
      f'{c.role}: {p.text or (p.function_call or p.function_response).name}'
      for c in request.contents
      for p in c.parts
  ]


def _by(*authors: str):
  """A filter that keeps the events of the given authors."""
  return lambda events: [e for e in events if e.author in authors]


async def _send(root: Any, *messages: str) -> list[Event]:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='app')
  else:
    runner = InMemoryRunner(app=App(name='app', root_agent=root))
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  return [
      event
      for message in messages
      async for event in runner.run_async(
          user_id='user',
          session_id=session.id,
          new_message=types.UserContent(message),
      )
  ]


@pytest.mark.asyncio
async def test_a_transferred_to_agent_sees_only_the_authors_it_keeps():
  booker = _agent(
      'booker', 'BOOKER-1', 'BOOKER-2', history_filter=_by('user', 'booker')
  )
  info = _agent('info', 'INFO-1', _transfer('booker'))
  coordinator = _agent(
      'coordinator', _transfer('booker'), sub_agents=[booker, info]
  )
  booker.model.script.insert(1, _transfer('info'))

  await _send(coordinator, 'table for 4', 'opening hours?', 'make it 8pm')

  # Turn 3: the booker was handed the conversation back by info. Neither
  # info's answer nor the coordinator's or info's transfers reach it.
  assert _lines(booker.model.requests[-1]) == [
      'user: table for 4',
      'model: BOOKER-1',
      'user: opening hours?',
      'model: transfer_to_agent',
      'user: transfer_to_agent',
      'user: make it 8pm',
  ]


@pytest.mark.asyncio
async def test_without_a_filter_the_same_team_sends_every_peer_event():
  booker = _agent('booker', 'BOOKER-1', _transfer('info'), 'BOOKER-2')
  info = _agent('info', 'INFO-1', _transfer('booker'))
  coordinator = _agent(
      'coordinator', _transfer('booker'), sub_agents=[booker, info]
  )

  await _send(coordinator, 'table for 4', 'opening hours?', 'make it 8pm')

  lines = _lines(booker.model.requests[-1])
  assert any('[info] said' in line and 'INFO-1' in line for line in lines)


@pytest.mark.asyncio
async def test_a_response_whose_call_is_left_out_is_left_out_too():
  call = types.Part.from_function_call(name='_lookup', args={'city': 'Rome'})
  without_calls = lambda events: [
      e for e in events if not e.get_function_calls()
  ]
  agent = _agent(
      'agent', call, 'OPEN', tools=[_lookup], history_filter=without_calls
  )

  await _send(agent, 'hours in Rome?')

  assert _lines(agent.model.requests[1]) == ['user: hours in Rome?']


@pytest.mark.asyncio
async def test_none_starts_the_turn_at_a_message_the_filter_keeps():
  booker = _agent(
      'booker',
      'BOOKER-1',
      include_contents='none',
      history_filter=_by('user', 'booker'),
  )
  greeter = _agent('greeter', 'WELCOME')
  pipeline = SequentialAgent(name='pipeline', sub_agents=[greeter, booker])

  await _send(pipeline, 'book a table')

  # The turn would start at the greeter's reply, which the filter drops, and
  # the request would be empty; it starts at the user's message instead.
  assert _lines(booker.model.requests[0]) == ['user: book a table']


@pytest.mark.asyncio
async def test_a_workflow_node_keeps_a_window_of_its_history():
  planner = _agent('planner', 'OUTLINE-1', 'OUTLINE-2', 'OUTLINE-3')
  writer = _agent(
      'writer',
      'DRAFT-1',
      'DRAFT-2',
      'DRAFT-3',
      include_contents='default',
      history_filter=lambda events: events[-3:],
  )
  flow = Workflow(name='flow', edges=[(START, planner, writer)])

  await _send(flow, 'a guide to Rome', 'shorter', 'add museums')

  # Its latest draft, the user's latest message and the planner's latest
  # outline (the node's input); not the whole conversation.
  assert _lines(writer.model.requests[-1]) == [
      'model: DRAFT-2',
      'user: add museums',
      'user: OUTLINE-3',
  ]


@pytest.mark.asyncio
async def test_none_calls_the_filter_once_per_request_on_the_whole_history():
  given: list[list[str]] = []

  def last_three(events: list[Event]) -> list[Event]:
    given.append([e.author for e in events])
    return events[-3:]

  call = types.Part.from_function_call(name='_lookup', args={'city': 'Rome'})
  agent = _agent(
      'agent',
      'HELLO',
      call,
      'OPEN',
      tools=[_lookup],
      include_contents='none',
      history_filter=last_three,
  )

  await _send(agent, 'hi', 'hours in Rome?')

  # One call per model request, each on the whole history: a window or a
  # filter that keeps state gives one answer per request.
  assert [len(authors) for authors in given] == [1, 3, 5]
  assert len(given) == len(agent.model.requests)
  # The window of the last request holds the turn's start, so the turn is
  # the user's message, the call and its response.
  assert _lines(agent.model.requests[-1]) == [
      'user: hours in Rome?',
      'model: _lookup',
      'user: _lookup',
  ]
