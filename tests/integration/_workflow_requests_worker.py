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

"""Runs Workflow shapes without include_sources and prints every request.

Run by test_workflow_requests_match_upstream.py in the fork's interpreter and
in pristine upstream 2.13.0's: it uses only upstream's public API, so both
print the same JSON when the fork leaves apps that do not set
``include_sources`` alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import json
import logging
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import FunctionNode
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field

_TURNS = ('USER-1 a table for two', 'USER-2 make it three')


class _Recorder(BaseLlm):
  """Answers with its name and the call count; records each request."""

  model: str = 'recorder'
  label: str = ''
  requests: list[dict[str, Any]] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append({
        'contents': [
            content.model_dump(mode='json', exclude_none=True)
            for content in llm_request.contents
        ],
        'system_instruction': llm_request.config.system_instruction,
    })
    text = f'{self.label}-{len(self.requests)}'
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=text)])
    )


def _agent(name: str, models: dict[str, _Recorder], **kwargs: Any) -> LlmAgent:
  models[name] = _Recorder(label=name.upper())
  return LlmAgent(name=name, model=models[name], **kwargs)


def _route_by_intent(intent: str) -> Event:
  del intent
  return Event(route='booking')


def _shapes() -> dict[str, Any]:
  """Each shape builds a fresh root and the models it records."""

  def classified(models):
    return Workflow(
        name='router',
        edges=[(
            START,
            _agent('classifier', models, output_key='intent'),
            _agent('booker', models, instruction='About {intent}.'),
        )],
    )

  def routed(models):
    return Workflow(
        name='router',
        edges=[
            (
                START,
                _agent('classifier', models, output_key='intent'),
                _route_by_intent,
            ),
            (_route_by_intent, {'booking': _agent('booker', models)}),
        ],
    )

  def joined(models):
    join = JoinNode(name='join')
    return Workflow(
        name='router',
        edges=[
            (START, _agent('scout', models), join),
            (START, _agent('critic', models), join),
            (join, _agent('writer', models)),
        ],
    )

  def dynamic(models):
    helper = _agent('helper', models)

    async def orchestrate(ctx: Any, node_input: Any) -> Any:
      del node_input
      return await ctx.run_node(helper, node_input='TASK summarise')

    return Workflow(
        name='router',
        edges=[(START, FunctionNode(func=orchestrate, rerun_on_resume=True))],
    )

  def nested(models):
    inner = Workflow(name='inner', edges=[(START, _agent('drafter', models))])
    return Workflow(
        name='router',
        edges=[(START, _agent('planner', models), inner)],
    )

  def chat(models):
    return Workflow(
        name='router', edges=[(START, _agent('concierge', models, mode='chat'))]
    )

  return {
      'classified': classified,
      'routed': routed,
      'joined': joined,
      'dynamic': dynamic,
      'nested': nested,
      'chat': chat,
  }


async def _run(build: Any) -> dict[str, Any]:
  models: dict[str, _Recorder] = {}
  runner = InMemoryRunner(node=build(models), app_name='parity')
  session = await runner.session_service.create_session(
      app_name='parity', user_id='user'
  )
  for turn in _TURNS:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(role='user', parts=[types.Part(text=turn)]),
    ):
      pass
  return {name: model.requests for name, model in sorted(models.items())}


async def _main() -> None:
  results = {}
  for name, build in _shapes().items():
    results[name] = await _run(build)
  print(json.dumps(results, sort_keys=True))


if __name__ == '__main__':
  warnings.simplefilter('ignore')
  logging.disable(logging.CRITICAL)
  asyncio.run(_main())
