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

"""`adk run` at the end of its input: the session ends as `exit` ends it."""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.artifacts.in_memory_artifact_service import InMemoryArtifactService
from google.adk.auth.credential_service.in_memory_credential_service import InMemoryCredentialService
from google.adk.cli import cli
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
from pydantic import Field
import pytest


class _ScriptedLlm(BaseLlm):
  """Answers each request with the next reply of its script."""

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  calls: int = 0

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    reply = self.script[min(self.calls, len(self.script) - 1)]
    self.calls += 1
    part = (
        types.Part(function_call=reply)
        if isinstance(reply, types.FunctionCall)
        else types.Part(text=reply)
    )
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _ask_manager(reason: str) -> None:
  """Asks a manager to approve; the answer comes later."""
  del reason


async def _run_with_input(agent: LlmAgent, lines: list[str], monkeypatch):
  """Runs `adk run`'s chat loop on `lines`, then the end of the input."""
  remaining = list(lines)

  def fake_input(prompt: str = '') -> str:
    del prompt
    if not remaining:
      raise EOFError
    return remaining.pop(0)

  monkeypatch.setattr('builtins.input', fake_input)
  session_service = InMemorySessionService()
  session = await session_service.create_session(
      app_name='end_of_input', user_id='user'
  )
  await cli.run_interactively(
      agent,
      InMemoryArtifactService(),
      session,
      session_service,
      InMemoryCredentialService(),
  )
  stored = await session_service.get_session(
      app_name='end_of_input', user_id='user', session_id=session.id
  )
  assert stored is not None
  return stored


@pytest.mark.asyncio
async def test_end_of_input_ends_the_session_like_exit(monkeypatch, capsys):
  agent = LlmAgent(name='greeter', model=_ScriptedLlm(script=['Hello!']))

  session = await _run_with_input(agent, ['hi'], monkeypatch)

  assert '[greeter]: Hello!' in capsys.readouterr().out
  assert [event.author for event in session.events] == ['user', 'greeter']


@pytest.mark.asyncio
async def test_end_of_input_while_a_call_waits_leaves_it_paused(
    monkeypatch, capsys
):
  call = types.FunctionCall(name='_ask_manager', args={'reason': 'refund'})
  agent = LlmAgent(
      name='desk',
      model=_ScriptedLlm(script=[call, 'Approved.']),
      tools=[LongRunningFunctionTool(func=_ask_manager)],
  )

  session = await _run_with_input(agent, ['refund please'], monkeypatch)

  # The call waits for its answer; nothing answered it for the user.
  assert '[HITL]' in capsys.readouterr().out
  calls = [e for e in session.events if e.get_function_calls()]
  assert calls and calls[-1].long_running_tool_ids
  assert not any(
      part.function_response and part.function_response.name == '_ask_manager'
      for event in session.events
      for part in (event.content.parts if event.content else [])
      if event.author == 'user'
  )
