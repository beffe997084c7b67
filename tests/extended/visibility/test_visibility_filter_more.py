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
from typing import AsyncGenerator

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.tool_context import ToolContext
from google.genai import types
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_USER_ID = 'filter_user'
_SECRET = 'zebra-ledger-7731'
"""Spoken only by internal agents."""
_PUBLIC = 'your trip is booked'
"""Spoken only by the user-facing agent."""


class ScriptedLlm(BaseLlm):
  """Replies from a script, streaming text word by word when asked to.

  A reply is text, a ``types.FunctionCall``, or a complete ``LlmResponse``.
  The last reply repeats once the script is exhausted.
  """

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    reply = self.script[min(len(self.requests), len(self.script)) - 1]
    if isinstance(reply, LlmResponse):
      yield reply
      return
    if isinstance(reply, types.FunctionCall):
      yield LlmResponse(
          content=types.ModelContent(parts=[types.Part(function_call=reply)])
      )
      return
    if stream:
      for word in reply.split(' '):
        yield LlmResponse(
            content=types.ModelContent(parts=[types.Part(text=word + ' ')]),
            partial=True,
        )
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=reply)])
    )


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=ScriptedLlm(script=list(script)), **kwargs)


def _pipeline() -> SequentialAgent:
  return SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('classifier', f'route booking {_SECRET}'),
          _agent('booker', _PUBLIC),
      ],
  )


async def _run(
    root: Any, run_config: RunConfig | None = None
) -> tuple[list[Event], Session, InMemoryRunner]:
  if isinstance(root, BaseAgent):
    runner = InMemoryRunner(agent=root, app_name='filter_app')
  else:
    runner = InMemoryRunner(node=root, app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='book a trip')]),
          run_config=run_config,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored, runner


def _received_text(events: list[Event]) -> str:
  """Everything the caller could render, serialized."""
  return '\n'.join(event.model_dump_json(exclude_none=True) for event in events)


@pytest.mark.asyncio
async def test_state_changes_of_internal_tools_reach_client_and_session():
  def remember_city(city: str, tool_context: ToolContext) -> str:
    """Remembers the destination."""
    tool_context.state['destination'] = city
    return f'noted {city} {_SECRET}'

  pipeline = SequentialAgent(
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

  events, session, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  assert _SECRET not in _received_text(events)
  assert 'remember_city' not in _received_text(events)
  assert _PUBLIC in _received_text(events)
  deltas = [e.actions.state_delta for e in events if e.author == 'planner']
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
  assert escalations[0].content is None
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
