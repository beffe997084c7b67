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

"""The scripted model and the runs of the fork-only tests.

For ``tests/extended``, ``tests/integration``, ``tests/samples`` and
``tests/fork``: pytest puts this folder on ``sys.path`` (``tests/conftest.py``
is not in a package), so a test module there says ``import _scripted``. A
script run in another interpreter (a worker under pristine upstream) puts
this folder on ``sys.path`` itself. It uses upstream's public API only, so it
runs under pristine google-adk 2.13.0 too. The PR tests under
``tests/unittests`` go upstream alone and do not use it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
import json
import os
from pathlib import Path
import subprocess
from typing import Any
from typing import Optional

from google.adk.agents.run_config import RunConfig
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.genai import types
from pydantic import Field

Reply = Any
"""What a script holds: text, a ``types.FunctionCall``, a ``types.Part``,
a ``types.Content``, an ``LlmResponse``, or a callable that picks one of those
from the request."""


class ScriptedLlm(BaseLlm):
  """Answers from its script and records every request it receives.

  The n-th request gets ``script[n]``; past the end the last reply repeats,
  or, with ``strict``, the call fails (the model was asked more often than
  the test expects). With ``per_turn`` the reply is picked by the replies
  the model already gave in the turn instead (the model contents after the
  user's last typed message), so a session may run any number of turns. A
  streamed request gets text as a partial chunk first, as a real model sends
  it.
  """

  model: str = 'scripted'
  script: list[Reply] = Field(default_factory=list)
  strict: bool = False
  per_turn: bool = False
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(recorded(llm_request))
    reply = self._reply_for(llm_request)
    if callable(reply):
      reply = reply(llm_request)
    response = as_response(reply)
    content = response.content
    if stream and content and any(p.text for p in content.parts or ()):
      yield response.model_copy(update={'partial': True})
    yield response

  def _reply_for(self, llm_request: LlmRequest) -> Reply:
    if self.per_turn:
      index = replies_in_turn(llm_request)
    else:
      index = len(self.requests) - 1
    if index < len(self.script):
      return self.script[index]
    if self.strict or not self.script:
      raise AssertionError(f'Unexpected model call #{index + 1}.')
    return self.script[-1]


def recorded(llm_request: LlmRequest) -> LlmRequest:
  """A copy of a request that later changes to it do not reach.

  Without the tool objects (``tools_dict``, which no request sends): an
  ``AgentTool`` holds its whole agent, scripted model and requests included.
  """
  return llm_request.model_copy(update={'tools_dict': {}}).model_copy(deep=True)


def as_response(reply: Reply) -> LlmResponse:
  """The model's response for one scripted reply."""
  if isinstance(reply, LlmResponse):
    return reply
  if isinstance(reply, types.Content):
    return LlmResponse(content=reply)
  if isinstance(reply, types.FunctionCall):
    part = types.Part(function_call=reply)
  elif isinstance(reply, types.Part):
    # A copy: the runtime gives a call its id on the part it receives.
    part = reply.model_copy(deep=True)
  else:
    part = types.Part(text=reply)
  return LlmResponse(content=types.ModelContent(parts=[part]))


def replies_in_turn(llm_request: LlmRequest) -> int:
  """The model's replies since the user's last typed message."""
  contents = llm_request.contents
  typed = max(
      (
          i
          for i, content in enumerate(contents)
          if content.role == 'user'
          and any(part.text for part in content.parts or ())
      ),
      default=0,
  )
  return sum(1 for content in contents[typed:] if content.role == 'model')


def call(name: str, **args: Any) -> types.Part:
  """A function call part, as a script holds it."""
  return types.Part(function_call=types.FunctionCall(name=name, args=args))


def contents_json(llm_request: LlmRequest) -> list[dict[str, Any]]:
  """A request's contents as JSON, to compare across interpreters."""
  return [
      content.model_dump(mode='json', exclude_none=True)
      for content in llm_request.contents
  ]


def request_text(llm_request: LlmRequest) -> str:
  """Every text part of a request's contents, one a line."""
  return '\n'.join(
      part.text
      for content in llm_request.contents
      for part in content.parts or ()
      if part.text
  )


def user_message(text: str) -> types.Content:
  return types.Content(role='user', parts=[types.Part(text=text)])


async def run_turns(
    runner: Runner,
    *messages: str,
    user_id: str = 'user',
    session_id: Optional[str] = None,
    state: Optional[dict[str, Any]] = None,
    run_config: Optional[RunConfig] = None,
) -> list[Event]:
  """Runs one turn per message in one session; returns the events yielded.

  The session is created (with ``state``) unless ``session_id`` names one
  that exists.
  """
  if session_id is None:
    session = await runner.session_service.create_session(
        app_name=runner.app_name, user_id=user_id, state=state
    )
    session_id = session.id
  events = []
  for message in messages:
    async for event in runner.run_async(
        user_id=user_id,
        session_id=session_id,
        new_message=user_message(message),
        run_config=run_config,
    ):
      events.append(event)
  return events


def worker_env(**extra: str) -> dict[str, str]:
  """The environment of a script run in another interpreter.

  Without credentials, so nothing reaches a real model, and without
  ``PYTHONPATH``, so pristine upstream does not pick up the fork's sources.
  """
  env = {
      k: v
      for k, v in os.environ.items()
      if not k.startswith(('GOOGLE_', 'GEMINI_')) and k != 'PYTHONPATH'
  }
  env.update(extra)
  return env


def worker_json(
    python: str,
    script: Path,
    *args: str,
    stdin: Optional[str] = None,
    env: Optional[dict[str, str]] = None,
    timeout: float = 300,
) -> Any:
  """Runs ``script`` under ``python`` and reads the JSON it prints."""
  result = subprocess.run(
      [python, str(script), *args],
      input=stdin,
      env=worker_env() if env is None else env,
      capture_output=True,
      text=True,
      timeout=timeout,
  )
  assert result.returncode == 0, result.stderr[-4000:]
  return json.loads(result.stdout)
