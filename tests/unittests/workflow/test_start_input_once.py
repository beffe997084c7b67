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

"""A workflow node that keeps the history sees the user's message once."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _RecordingLlm(BaseLlm):
  """Replies with its label and a count; keeps every request."""

  model: str = 'recording'
  label: str = 'REPLY'
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    text = f'{self.label}-{len(self.requests)}'
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=text)])
    )


def _lines(llm_request: LlmRequest) -> list[str]:
  return [
      f'{content.role}: {part.text}'
      for content in llm_request.contents
      for part in content.parts or []
      if part.text
  ]


async def _run(workflow: Workflow, *messages: str) -> None:
  runner = InMemoryRunner(node=workflow, app_name='test_app')
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
    ):
      pass


def _assistant(**kwargs: Any) -> tuple[LlmAgent, _RecordingLlm]:
  llm = _RecordingLlm(label='ASSISTANT')
  return LlmAgent(name='assistant', model=llm, **kwargs), llm


@pytest.mark.asyncio
async def test_node_after_start_with_history_sees_each_message_once():
  assistant, llm = _assistant(include_contents='default')

  await _run(
      Workflow(name='root', edges=[(START, assistant)]),
      'My name is Deepak.',
      'What is my name?',
  )

  assert [_lines(request) for request in llm.requests] == [
      ['user: My name is Deepak.'],
      [
          'user: My name is Deepak.',
          'model: ASSISTANT-1',
          'user: What is my name?',
      ],
  ]


@pytest.mark.asyncio
async def test_node_after_start_without_history_still_gets_its_input():
  assistant, llm = _assistant()

  await _run(
      Workflow(name='root', edges=[(START, assistant)]),
      'My name is Deepak.',
      'What is my name?',
  )

  assert _lines(llm.requests[1]) == ['user: What is my name?']


@pytest.mark.asyncio
async def test_node_after_another_node_still_gets_its_input():
  classifier = LlmAgent(
      name='classifier', model=_RecordingLlm(label='CLASSIFIER')
  )
  assistant, llm = _assistant(include_contents='default')

  await _run(
      Workflow(name='root', edges=[(START, classifier, assistant)]),
      'I want a table.',
  )

  assert _lines(llm.requests[0]) == [
      'user: I want a table.',
      'user: CLASSIFIER-1',
  ]
