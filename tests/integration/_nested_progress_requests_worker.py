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

"""Runs an assistant with an agent tool and prints every model request.

Run by test_nested_progress_requests.py in the fork's interpreter (with
``--nested-progress LEVEL``: the fork's setting, in filter mode) and in
pristine upstream 2.13.0's (without it: upstream's public API only). The
assistant calls an ``AgentTool`` researcher that searches, a plain tool and a
tool the client answers, then answers; two turns. Function call ids are
random, so each is replaced by the order in which it first appears.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncGenerator
import json
import logging
import re
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
from pydantic import Field

_TURNS = ('USER-1 where do quokkas live?', 'USER-2 and wombats?')
_ID = re.compile(r'adk-[0-9a-f-]{36}')


class _Recorder(BaseLlm):
  """Plays its script by the number of replies so far; records requests."""

  model: str = 'recorder'
  script: list[types.Part]
  requests: list[dict[str, Any]] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(
        llm_request.model_dump(
            mode='json', exclude_none=True, exclude={'live_connect_config'}
        )
    )
    replies = sum(1 for c in llm_request.contents if c.role == 'model')
    part = self.script[replies % len(self.script)]
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _call(name: str, **args: Any) -> types.Part:
  return types.Part(function_call=types.FunctionCall(name=name, args=args))


def search(query: str) -> dict[str, Any]:
  """Searches the web."""
  return {'hits': [f'SEARCH-HIT for {query}']}


def lookup_account(user: str) -> dict[str, str]:
  """Looks up the user's account."""
  return {'tier': 'gold', 'user': user}


def ask_user_to_confirm(question: str) -> None:
  """Asks the user, in the client, to confirm."""
  del question


async def _main(nested_progress: str | None) -> dict[str, Any]:
  researcher_model = _Recorder(
      script=[_call('search', query='habitat'), types.Part(text='RESEARCHED')]
  )
  assistant_model = _Recorder(
      script=[
          _call('researcher', request='habitat?'),
          _call('lookup_account', user='u1'),
          _call('ask_user_to_confirm', question='Book?'),
          types.Part(text='ASSISTANT-ANSWER'),
      ]
  )
  researcher = LlmAgent(
      name='researcher',
      description='Researches a topic.',
      model=researcher_model,
      tools=[search],
  )
  assistant = LlmAgent(
      name='assistant',
      model=assistant_model,
      tools=[
          AgentTool(researcher),
          lookup_account,
          LongRunningFunctionTool(ask_user_to_confirm),
      ],
  )
  runner = InMemoryRunner(agent=assistant, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  run_config = (
      RunConfig(visibility_mode='filter', nested_progress=nested_progress)
      if nested_progress
      else RunConfig()
  )
  progress = 0
  for text in _TURNS:
    asked = None
    async for event in runner.run_async(
        user_id='u',
        session_id=session.id,
        new_message=types.UserContent(text),
        run_config=run_config,
    ):
      progress += 'adk_progress' in (event.custom_metadata or {})
      for call in event.get_function_calls():
        if call.name == 'ask_user_to_confirm':
          asked = call
    assert asked is not None
    answer = types.UserContent(
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id=asked.id, name=asked.name, response={'answer': 'yes'}
                )
            )
        ]
    )
    async for _ in runner.run_async(
        user_id='u',
        session_id=session.id,
        new_message=answer,
        run_config=run_config,
    ):
      pass
  recorded = {
      'progress_events': progress,
      'assistant': assistant_model.requests,
      'researcher': researcher_model.requests,
  }
  ids: dict[str, str] = {}
  text = _ID.sub(
      lambda m: ids.setdefault(m.group(0), f'ID-{len(ids)}'),
      json.dumps(recorded, sort_keys=True),
  )
  return json.loads(text)


if __name__ == '__main__':
  parser = argparse.ArgumentParser()
  parser.add_argument('--nested-progress')
  arguments = parser.parse_args()
  logging.disable(logging.WARNING)
  warnings.simplefilter('ignore')
  print(
      json.dumps(asyncio.run(_main(arguments.nested_progress)), sort_keys=True)
  )
