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

"""Tests of where the current turn starts for `include_contents`."""

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
async def test_include_contents_none_with_user_keeps_the_user_message():
  classifier, booker, unfiltered_model = _classifier_and_booker(
      include_contents='none'
  )
  await _run(_sequential(classifier, booker), 'USER-1 table for two')
  classifier, booker, booker_model = _classifier_and_booker(
      include_contents='none', include_sources=['user']
  )

  await _run(_sequential(classifier, booker), 'USER-1 table for two')

  assert 'USER-1' not in _text(unfiltered_model.requests[0])
  assert _text(booker_model.requests[0]) == 'user: USER-1 table for two'


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('include_sources', 'expected'),
    [
        (None, 'user: CLASSIFIER-booking'),
        (['user'], 'user: USER-2 for three'),
    ],
)
async def test_include_contents_none_in_a_workflow_node(
    include_sources, expected
):
  # The workflow hands the booker the classifier's label as its input; with
  # ['user'] the turn starts at what the user typed instead.
  classifier, booker, booker_model = _classifier_and_booker(
      include_contents='none', include_sources=include_sources
  )

  await _run(
      Workflow(name='flow', edges=[(START, classifier, booker)]),
      'USER-1 table',
      'USER-2 for three',
  )

  assert _text(booker_model.requests[1]) == expected


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('include_contents', 'include_sources', 'expected'),
    [
        ('none', None, ['user: [classifier] said: CLASSIFIER']),
        ('none', ['user'], ['user: USER-2 for three']),
        (
            'none',
            ['user', 'classifier'],
            ['user: [classifier] said: CLASSIFIER'],
        ),
    ],
)
async def test_include_contents_modes_with_sources(
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


def test_include_contents_rejects_unknown_modes():
  with pytest.raises(ValueError):
    LlmAgent(name='agent', include_contents='latest')
