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
import json
import logging
from pathlib import Path
import re
import sys
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types

# The shared scripted model is in tests/, which a script run by another
# interpreter does not have on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _scripted import call  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import ScriptedLlm  # pylint: disable=g-import-not-at-top,wrong-import-position

_TURNS = ('USER-1 where do quokkas live?', 'USER-2 and wombats?')
_ID = re.compile(r'adk-[0-9a-f-]{36}')


def search(query: str) -> dict[str, Any]:
  """Searches the web."""
  return {'hits': [f'SEARCH-HIT for {query}']}


def lookup_account(user: str) -> dict[str, str]:
  """Looks up the user's account."""
  return {'tier': 'gold', 'user': user}


def ask_user_to_confirm(question: str) -> None:
  """Asks the user, in the client, to confirm."""
  del question


def _dumped(model: ScriptedLlm) -> list[dict[str, Any]]:
  return [
      request.model_dump(
          mode='json', exclude_none=True, exclude={'live_connect_config'}
      )
      for request in model.requests
  ]


async def _main(nested_progress: str | None) -> dict[str, Any]:
  researcher_model = ScriptedLlm(
      per_turn=True,
      script=[call('search', query='habitat'), types.Part(text='RESEARCHED')],
  )
  assistant_model = ScriptedLlm(
      per_turn=True,
      script=[
          call('researcher', request='habitat?'),
          call('lookup_account', user='u1'),
          call('ask_user_to_confirm', question='Book?'),
          types.Part(text='ASSISTANT-ANSWER'),
      ],
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
      for function_call in event.get_function_calls():
        if function_call.name == 'ask_user_to_confirm':
          asked = function_call
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
      'assistant': _dumped(assistant_model),
      'researcher': _dumped(researcher_model),
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
