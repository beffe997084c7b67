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

"""The model the samples run on: Gemini when configured, else a scripted one.

The samples in this folder run offline, with no API key and no network, on a
deterministic model that answers each agent's turns from what is in that
agent's request, much as a real model would. With ``GOOGLE_API_KEY`` set (or
``GOOGLE_GENAI_USE_VERTEXAI=true`` with ``GOOGLE_CLOUD_PROJECT``) they run on
Gemini instead (``ADK_SAMPLES_MODEL``, default ``gemini-2.5-flash``).
``ADK_SAMPLES_OFFLINE=1`` forces the scripted model, for demos and tests.

``adk run``, ``adk web`` and ``adk api_server`` put this folder on
``sys.path`` when they load a sample, which is how the samples import this
module. Because the scripted answers depend only on the request, whatever
changes the request (``include_contents``, ``include_sources``) changes the
answer the way it would with a real model: an agent that no longer sees the
user's message cannot act on it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import AsyncGenerator
from typing import Callable

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import Field

GEMINI_MODEL = os.environ.get('ADK_SAMPLES_MODEL', 'gemini-2.5-flash')

Reply = Callable[[LlmRequest], 'str | types.Content']
"""Turns an agent's request into its answer: text, or a whole Content."""

_announced: set[str] = set()


def gemini_configured() -> bool:
  """Whether the environment has what the Gemini client needs."""
  if os.environ.get('ADK_SAMPLES_OFFLINE', '').lower() in ('1', 'true'):
    return False
  if os.environ.get('GOOGLE_API_KEY') or os.environ.get('GEMINI_API_KEY'):
    return True
  vertex = os.environ.get('GOOGLE_GENAI_USE_VERTEXAI', '').lower()
  return vertex in ('1', 'true') and bool(
      os.environ.get('GOOGLE_CLOUD_PROJECT')
  )


class ScriptedModel(BaseLlm):
  """Answers at once with what ``reply`` makes of the request.

  Every request is kept in ``requests``, so a demo or a test can show exactly
  what the agent's model received.
  """

  model: str = 'scripted'
  reply: Reply
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream  # The whole answer is known at once.
    self.requests.append(llm_request.model_copy(deep=True))
    answer = self.reply(llm_request)
    if isinstance(answer, str):
      answer = types.Content(role='model', parts=[types.Part(text=answer)])
    request_chars = conversation_chars(llm_request)
    answer_chars = sum(len(part.text or '') for part in answer.parts or [])
    yield LlmResponse(
        content=answer,
        # A rough count (four characters a token), so that usage shows up in
        # traces and in adk web as it does for a real model.
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=request_chars // 4,
            candidates_token_count=answer_chars // 4,
            total_token_count=(request_chars + answer_chars) // 4,
        ),
    )


def model_for(agent_name: str, reply: Reply) -> BaseLlm | str:
  """The model an agent of a sample runs on.

  Args:
    agent_name: The agent's name; the scripted model is named after it.
    reply: How the scripted model answers this agent.

  Returns:
    The Gemini model name when Gemini is configured, else a ScriptedModel.
  """
  if gemini_configured():
    return GEMINI_MODEL
  return ScriptedModel(model=f'scripted-{agent_name}', reply=reply)


def announce(sample: str) -> None:
  """Says once, on stderr, which model a sample runs on."""
  if sample in _announced:
    return
  _announced.add(sample)
  if gemini_configured():
    what = f'{GEMINI_MODEL} (Gemini is configured)'
  else:
    what = 'scripted, offline (no GOOGLE_API_KEY)'
  # stderr, so that commands printing JSON on stdout stay parseable.
  print(f'[{sample}] model: {what}', file=sys.stderr)


def request_lines(llm_request: LlmRequest) -> list[str]:
  """A request's conversation as the model got it, one ``role: ...`` per part."""
  lines = []
  for content in llm_request.contents:
    for part in content.parts or []:
      if part.text:
        lines.append(f'{content.role}: {part.text}')
      elif part.function_call:
        lines.append(f'{content.role}: call {part.function_call.name}')
      elif part.function_response:
        lines.append(f'{content.role}: result of {part.function_response.name}')
  return lines


def request_text(llm_request: LlmRequest) -> str:
  """The text of a request's conversation, one line per part."""
  return '\n'.join(request_lines(llm_request))


def conversation_chars(llm_request: LlmRequest) -> int:
  """Characters of conversation in a request: text, call and result payloads."""
  total = 0
  for content in llm_request.contents:
    for part in content.parts or []:
      if part.text:
        total += len(part.text)
      elif part.function_call:
        total += len(json.dumps(part.function_call.args or {}))
      elif part.function_response:
        total += len(json.dumps(part.function_response.response or {}))
  return total


def user_texts(llm_request: LlmRequest) -> list[str]:
  """What the user typed, as far as the request shows it, oldest first.

  Other agents' replies reach a model as user-role text starting with "For
  context:"; they are not the user's words.
  """
  texts = []
  for content in llm_request.contents:
    if content.role != 'user':
      continue
    text = ''.join(part.text or '' for part in content.parts or [])
    if text and not text.startswith('For context:'):
      texts.append(text)
  return texts


def own_replies(llm_request: LlmRequest) -> list[str]:
  """The agent's own earlier text replies in the request, oldest first."""
  return [
      ''.join(part.text or '' for part in content.parts or [])
      for content in llm_request.contents
      if content.role == 'model'
  ]


def instruction(llm_request: LlmRequest) -> str:
  """The system instruction the agent's model received."""
  return str(llm_request.config.system_instruction or '')
