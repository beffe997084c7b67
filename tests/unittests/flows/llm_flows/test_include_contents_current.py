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

"""Tests of `include_contents='current'`."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any
from typing import Optional
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest

_Reply = str | types.FunctionCall


class _ScriptedModel(BaseLlm):
  """Returns scripted replies and records every request it receives.

  A reply is text or a function call.
  """

  model: str = 'scripted'
  script: list[_Reply] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    if not self.script:
      raise AssertionError(f'Unexpected model call #{len(self.requests)}.')
    reply = self.script.pop(0)
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


def _text(llm_request: LlmRequest) -> str:
  """Renders the request contents as one string."""
  lines = []
  for content in llm_request.contents:
    for part in content.parts or []:
      if part.text:
        lines.append(f'{content.role}: {part.text}')
      if part.function_call:
        lines.append(f'{content.role}: call {part.function_call.name}')
      if part.function_response:
        lines.append(f'{content.role}: response {part.function_response.name}')
  return '\n'.join(lines)


def _sequential(*agents: LlmAgent) -> SequentialAgent:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='pipeline', sub_agents=list(agents))


async def _run(
    root: Any,
    *messages: str,
    run_config: Optional[RunConfig] = None,
) -> None:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='test_app')
  else:
    runner = InMemoryRunner(app=App(name='test_app', root_agent=root))
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  for message in messages:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(
            role='user', parts=[types.Part(text=message)]
        ),
        run_config=run_config,
    ):
      pass


def _classifier_and_booker(**booker_kwargs: Any):
  classifier_model = _ScriptedModel(script=['CLASSIFIER-booking'] * 3)
  booker_model = _ScriptedModel(script=['BOOKER-done-1', 'BOOKER-done-2'])
  classifier = LlmAgent(
      name='classifier',
      model=classifier_model,
      instruction='Classify the intent.',
      output_key='intent',
  )
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      instruction='Handle intent {intent}.',
      **booker_kwargs,
  )
  return classifier, booker, booker_model


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('include_contents', 'include_sources', 'expected'),
    [
        (
            'current',
            None,
            ['user: USER-2 for three', 'user: [classifier] said: CLASSIFIER'],
        ),
        ('current', ['user', 'self'], ['user: USER-2 for three']),
        ('current', ['classifier'], ['user: [classifier] said: CLASSIFIER']),
    ],
)
async def test_current_with_sources(
    include_contents, include_sources, expected
):
  classifier, booker, booker_model = _classifier_and_booker(
      include_contents=include_contents, include_sources=include_sources
  )

  await _run(
      _sequential(classifier, booker), 'USER-1 table', 'USER-2 for three'
  )

  lines = []
  for content in booker_model.requests[-1].contents:
    texts = [p.text for p in content.parts if p.text]
    said = [t for t in texts if t.startswith('[classifier] said:')]
    if said:
      lines.append(f'{content.role}: [classifier] said: CLASSIFIER')
    else:
      lines.extend(f'{content.role}: {t}' for t in texts)
  assert lines == expected


@pytest.mark.asyncio
@pytest.mark.parametrize('include_sources', [None, ['user']])
async def test_current_after_a_transfer_starts_at_the_user_message(
    include_sources,
):
  coordinator_model = _ScriptedModel(
      script=[
          'COORDINATOR-1',
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          ),
      ]
  )
  booker_model = _ScriptedModel(script=['BOOKER-1'])
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      description='Books tables.',
      include_contents='current',
      include_sources=include_sources,
  )
  coordinator = LlmAgent(
      name='coordinator', model=coordinator_model, sub_agents=[booker]
  )

  await _run(coordinator, 'USER-1 hello', 'USER-2 now book')

  text = _text(booker_model.requests[0])
  assert text.startswith('user: USER-2 now book')
  assert 'USER-1' not in text and 'COORDINATOR-1' not in text
  # The transfer is context, shown unless the coordinator is filtered out.
  shows_transfer = '[coordinator] called tool `transfer_to_agent`' in text
  assert shows_transfer == (include_sources is None)


def test_include_contents_accepts_current():
  agent = LlmAgent(name='agent', include_contents='current')

  assert agent.include_contents == 'current'
