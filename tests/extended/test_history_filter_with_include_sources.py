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

"""An agent that sets both `history_filter` and `include_sources`."""

from __future__ import annotations

from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedModel(BaseLlm):
  model: str = 'scripted'
  script: list[Any] = Field(default_factory=list)
  requests: list[Any] = Field(default_factory=list)

  async def generate_content_async(self, llm_request, stream=False):
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(content=types.ModelContent(self.script.pop(0)))


def _texts(request) -> list[str]:
  return [p.text for c in request.contents for p in c.parts]


@pytest.mark.asyncio
async def test_the_filter_chooses_first_and_include_sources_narrows_it():
  classifier = LlmAgent(
      name='classifier', model=_ScriptedModel(script=['L-1', 'L-2', 'L-3'])
  )
  booker = LlmAgent(
      name='booker',
      model=_ScriptedModel(script=['B-1', 'B-2', 'B-3']),
      include_sources=['user', 'self'],
      # The last four events before the booker's turn-3 call: turn 2's label
      # and reply, the user's third message and its label.
      history_filter=lambda events: events[-4:],
  )
  pipeline = SequentialAgent(name='pipeline', sub_agents=[classifier, booker])
  runner = InMemoryRunner(app=App(name='app', root_agent=pipeline))
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  for text in ['U-1', 'U-2', 'U-3']:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.UserContent(text),
    ):
      pass

  # Of the four events the filter kept, include_sources drops the labels.
  assert _texts(booker.model.requests[-1]) == ['B-2', 'U-3']


@pytest.mark.asyncio
async def test_with_none_the_filter_is_called_once_per_request():
  calls: list[int] = []

  def last_four(events):
    calls.append(len(events))
    return events[-4:]

  classifier = LlmAgent(
      name='classifier', model=_ScriptedModel(script=['L-1', 'L-2'])
  )
  booker = LlmAgent(
      name='booker',
      model=_ScriptedModel(script=['B-1', 'B-2']),
      include_contents='none',
      include_sources=['user', 'self'],
      history_filter=last_four,
  )
  pipeline = SequentialAgent(name='pipeline', sub_agents=[classifier, booker])
  runner = InMemoryRunner(app=App(name='app', root_agent=pipeline))
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  for text in ['U-1', 'U-2']:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.UserContent(text),
    ):
      pass

  # Once per request, on the whole history the booker may see: the turn and
  # include_sources narrow what it chose, without asking it again.
  assert calls == [2, 5]
  assert _texts(booker.model.requests[-1]) == ['U-2']
