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

"""A Runner logs its tree's diagnostics only when the tree uses the settings
they are about, and each finding once."""

from __future__ import annotations

from collections.abc import AsyncGenerator
import logging
from typing import Any
import uuid
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

_LOGGER = 'google_adk.google.adk.diagnostics._run_start'


class _FixedModel(BaseLlm):
  model: str = 'fixed'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text='ok')])
    )


def _agent(name: str, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_FixedModel(), instruction='Go.', **kwargs)


def _tree(kind: type, *sub_agents: Any, **kwargs: Any) -> Any:
  # A unique name per test: findings are remembered by root name.
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return kind(
        name=f'root_{uuid.uuid4().hex[:8]}',
        sub_agents=list(sub_agents),
        **kwargs,
    )


async def _run(runner: InMemoryRunner, *messages: str) -> None:
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
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


def _logged(caplog) -> list[logging.LogRecord]:
  return [r for r in caplog.records if r.name == _LOGGER]


async def test_a_tree_without_the_settings_logs_nothing(caplog):
  # A loop that nobody presents (ADK-D105) and an internal reply nobody
  # receives (ADK-D102), with neither include_sources nor visibility set.
  loop = _tree(LoopAgent, _agent('drafter'), _agent('critic'), max_iterations=1)

  with caplog.at_level(logging.DEBUG, logger='google_adk'):
    await _run(InMemoryRunner(agent=loop, app_name='app'), 'hello')

  assert _logged(caplog) == []


async def test_a_finding_is_logged_once_across_runners_and_turns(caplog):
  root = _tree(
      SequentialAgent,
      _agent('classifier', output_key='intent'),
      _agent('booker', include_sources=['user', 'clasifier']),
  )

  with caplog.at_level(logging.INFO, logger='google_adk'):
    for _ in range(2):
      await _run(InMemoryRunner(agent=root, app_name='app'), 'one', 'two')

  [record] = [r for r in _logged(caplog) if 'ADK-D104' in r.getMessage()]
  assert record.levelno == logging.WARNING
  assert "'clasifier'" in record.getMessage()
  assert "Did you mean 'classifier'?" in record.getMessage()
  # Handlers can show the finding their own way.
  assert (record.adk_diagnostic.code, record.adk_diagnostic.agent) == (
      'ADK-D104',
      'booker',
  )


async def test_an_explicit_visibility_turns_the_check_on(caplog):
  loop = _tree(
      LoopAgent,
      _agent('drafter', output_key='draft'),
      max_iterations=1,
      visibility='internal',
  )

  with caplog.at_level(logging.INFO, logger='google_adk'):
    InMemoryRunner(agent=loop, app_name='app')

  assert ['ADK-D105'] == [r.getMessage().split()[1] for r in _logged(caplog)]
