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

"""PLACEHOLDER main job: a two-agent pipeline on a scripted model, offline.

Runs classifier -> booker (a SequentialAgent) for a few user turns with a
deterministic model (no API key, no network), twice: as upstream behaves, and
with the fork's `include_sources=['user', 'self']` on the booker and the
`is_user_facing` flag. Per turn it prints what each agent's model received
and which replies the user is shown. The full side-by-side demo replaces it.
"""

from __future__ import annotations

import asyncio
from typing import AsyncGenerator
import warnings

from google.adk import fork_info
from google.adk.agents import LlmAgent
from google.adk.agents import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

_TURNS = (
    'I need a table for two tomorrow at 7pm.',
    'Can you make it 8pm instead?',
    'What time do you open on Sundays?',
)


# (agent, characters of conversation) for every model request of a turn.
_requests: list[tuple[str, int]] = []


class _ScriptedModel(BaseLlm):
  """Answers like the agent it is named after; records each request's size."""

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    text = ''.join(
        part.text or ''
        for content in llm_request.contents
        for part in content.parts or []
    )
    _requests.append((self.model, len(text)))
    last_user = text.rsplit('\n', 1)[-1].lower()
    if self.model == 'classifier':
      reply = 'info' if 'open' in last_user else 'booking'
    elif 'about info' in str(llm_request.config.system_instruction):
      reply = 'We open at 10am on Sundays.'
    else:
      reply = 'Done: your table is booked.'
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=reply)]),
        # Rough counts, so telemetry has usage to record as for a real model.
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=len(text) // 4,
            candidates_token_count=len(reply) // 4,
            total_token_count=(len(text) + len(reply)) // 4,
        ),
    )


def _pipeline(fork_features: bool) -> SequentialAgent:
  classifier = LlmAgent(
      name='classifier',
      model=_ScriptedModel(model='classifier'),
      instruction='Answer "booking" or "info".',
      output_key='intent',
  )
  booker = LlmAgent(
      name='booker',
      model=_ScriptedModel(model='booker'),
      instruction='The request is about {intent}. Help the user.',
      # The label already arrives through {intent}; the history need not
      # repeat it.
      **({'include_sources': ['user', 'self']} if fork_features else {}),
  )
  return SequentialAgent(name='router', sub_agents=[classifier, booker])


async def _run(fork_features: bool) -> int:
  """Runs the turns; returns the characters the booker's model received."""
  runner = InMemoryRunner(agent=_pipeline(fork_features), app_name='demo')
  session = await runner.session_service.create_session(
      app_name='demo', user_id='user'
  )
  booker_total = 0
  for turn, text in enumerate(_TURNS, start=1):
    print(f'turn {turn}: user says {text!r}')
    _requests.clear()
    message = types.Content(role='user', parts=[types.Part(text=text)])
    async for event in runner.run_async(
        user_id='user', session_id=session.id, new_message=message
    ):
      user_facing = getattr(event, 'is_user_facing', True)
      if event.is_final_response() and event.content and event.content.parts:
        shown = ''.join(p.text or '' for p in event.content.parts)
        if fork_features and not user_facing:
          print(f'  internal, not shown [{event.author}]: {shown!r}')
        else:
          print(f'  the user is shown [{event.author}]: {shown!r}')
    for agent, size in _requests:
      print(f'  {agent} model received {size} characters of conversation')
      if agent == 'booker':
        booker_total += size
  return booker_total


async def _main() -> None:
  # 2.13 deprecates SequentialAgent in favour of Workflow; both are supported.
  warnings.filterwarnings('ignore', category=DeprecationWarning)
  print(
      'PLACEHOLDER demo (the full side-by-side demo comes with the samples)\n'
      f'google-adk {fork_info.UPSTREAM_VERSION}'
      f' (fork label: {fork_info.FORK_LABEL or "none: pristine upstream"})\n'
  )
  print('== as upstream behaves: every reply is a final response')
  upstream_total = await _run(fork_features=False)
  if not fork_info.is_fork():
    return
  print("\n== the fork: include_sources=['user', 'self'], is_user_facing")
  fork_total = await _run(fork_features=True)
  print(
      f'\nbooker model input over {len(_TURNS)} turns: {upstream_total}'
      f' characters as upstream, {fork_total} with include_sources;'
      ' the classifier label no longer reaches the user.'
  )


if __name__ == '__main__':
  asyncio.run(_main())
