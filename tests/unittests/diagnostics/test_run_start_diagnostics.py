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

"""The Runner logs a tree's diagnostics once, and the run is unchanged."""

from __future__ import annotations

from collections.abc import AsyncGenerator
import logging
from typing import Any
import uuid
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import Field
import pytest

_LOGGER = 'google_adk.google.adk.diagnostics._run_start'
_SOURCES_LOGGER = 'google_adk.google.adk.agents._include_sources'


class _RecordingModel(BaseLlm):
  """Replies with a fixed text and records every request."""

  model: str = 'recording'
  reply: str = 'booking'
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=self.reply)])
    )


def _tree(name: str, model: BaseLlm) -> Any:
  """A pipeline whose researcher's reply nobody receives (ADK-D102)."""
  researcher = LlmAgent(name='researcher', model=model, instruction='Research.')
  writer = LlmAgent(
      name='writer',
      model=model,
      instruction='Write.',
      include_sources=['user', 'self', 'reseacher'],
  )
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name=name, sub_agents=[researcher, writer])


async def _run(root: Any, *messages: str) -> list[tuple[str, str, bool]]:
  runner = InMemoryRunner(agent=root, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  seen = []
  for message in messages:
    async for event in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(
            role='user', parts=[types.Part(text=message)]
        ),
    ):
      text = ''.join(p.text or '' for p in event.content.parts or [])
      seen.append((event.author, text, event.is_user_facing))
  return seen


def _records(caplog, logger: str) -> list[logging.LogRecord]:
  return [record for record in caplog.records if record.name == logger]


@pytest.mark.asyncio
async def test_a_problem_is_logged_once_across_invocations(caplog):
  root = _tree(f'pipeline_{uuid.uuid4().hex[:6]}', _RecordingModel())

  with caplog.at_level(logging.INFO, logger='google_adk'):
    await _run(root, 'first', 'second')

  diagnostics = _records(caplog, _LOGGER)
  unused_reply = [r for r in diagnostics if 'ADK-D102' in r.getMessage()]
  assert len(unused_reply) == 1
  assert unused_reply[0].levelno == logging.WARNING
  assert "'researcher'" in unused_reply[0].getMessage()
  # The unknown include_sources name is reported once, by its own check.
  unknown = [
      r
      for r in _records(caplog, _SOURCES_LOGGER)
      if 'reseacher' in r.getMessage()
  ]
  assert len(unknown) == 1
  assert not [r for r in diagnostics if 'ADK-D104' in r.getMessage()]


@pytest.mark.asyncio
async def test_the_run_is_the_same_with_and_without_the_check(caplog):
  model = _RecordingModel()
  root = _tree(f'pipeline_{uuid.uuid4().hex[:6]}', model)

  # The first run of a root runs the checks; a second run, in a fresh
  # session, finds the root already checked and runs without them.
  with caplog.at_level(logging.INFO, logger='google_adk'):
    checked_events = await _run(root, 'hello')
    logged_by_first_run = len(_records(caplog, _LOGGER))
    unchecked_events = await _run(root, 'hello')
  checked_requests, unchecked_requests = model.requests[:2], model.requests[2:]

  assert logged_by_first_run > 0
  assert len(_records(caplog, _LOGGER)) == logged_by_first_run
  assert checked_events == unchecked_events
  assert checked_events == [
      ('researcher', 'booking', False),
      ('writer', 'booking', True),
  ]
  assert [r.contents for r in checked_requests] == [
      r.contents for r in unchecked_requests
  ]
