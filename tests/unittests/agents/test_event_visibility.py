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

"""``Event.is_user_facing`` and an explicit ``visibility``, through a Runner."""

from __future__ import annotations

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import ValidationError
import pytest


class _SaysHello(BaseLlm):
  model: str = 'says-hello'

  async def generate_content_async(self, llm_request, stream=False):
    del llm_request, stream
    yield LlmResponse(content=types.ModelContent('hello'))


def _agent(name: str, **kwargs) -> LlmAgent:
  return LlmAgent(name=name, model=_SaysHello(), **kwargs)


async def _run(root) -> list[Event]:
  """Runs one turn and returns the events the session stored."""
  runner = InMemoryRunner(agent=root, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  async for _ in runner.run_async(
      user_id='u', session_id=session.id, new_message=types.UserContent('hi')
  ):
    pass
  stored = await runner.session_service.get_session(
      app_name='app', user_id='u', session_id=session.id
  )
  return stored.events


@pytest.mark.asyncio
async def test_an_explicit_value_covers_the_subtree_but_not_own_values():
  team = ParallelAgent(
      name='team',
      visibility='internal',
      sub_agents=[_agent('web'), _agent('docs', visibility='user')],
  )

  events = await _run(team)

  assert {e.author: e.is_user_facing for e in events} == {
      'user': True,
      'web': False,
      'docs': True,
  }
  # Only internal events carry the field; the others serialize as before.
  for event in events:
    assert event.visibility == (None if event.is_user_facing else 'internal')
    assert ('visibility' in event.model_dump()) == (not event.is_user_facing)


@pytest.mark.asyncio
async def test_without_a_value_every_event_is_user_facing():
  events = await _run(
      ParallelAgent(name='team', sub_agents=[_agent('web'), _agent('docs')])
  )

  assert len(events) == 3
  assert all(e.is_user_facing and e.visibility is None for e in events)


def test_an_unknown_value_names_the_agent_and_the_allowed_values():
  with pytest.raises(ValidationError) as error:
    _agent('greeter', visibility='public')

  for word in ("'public'", "'greeter'", "'user'", "'internal'"):
    assert word in str(error.value)
