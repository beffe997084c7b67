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
import json
import logging
from pathlib import Path
import sys
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.runners import InMemoryRunner
from google.adk.workflow import FunctionNode
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow

# The shared scripted model is in tests/, which a script run by another
# interpreter does not have on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _scripted import contents_json  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import run_turns  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import ScriptedLlm  # pylint: disable=g-import-not-at-top,wrong-import-position

_TURNS = ('USER-1 a table for two', 'USER-2 make it three')


def _agent(
    name: str, models: dict[str, ScriptedLlm], **kwargs: Any
) -> LlmAgent:
  # Answers with its name and the call count.
  label = name.upper()
  models[name] = ScriptedLlm(script=[f'{label}-{n}' for n in range(1, 9)])
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
  models: dict[str, ScriptedLlm] = {}
  runner = InMemoryRunner(node=build(models), app_name='parity')
  await run_turns(runner, *_TURNS)
  return {name: _recorded(model) for name, model in sorted(models.items())}


def _recorded(model: ScriptedLlm) -> list[dict[str, Any]]:
  return [
      {
          'contents': contents_json(request),
          'system_instruction': request.config.system_instruction,
      }
      for request in model.requests
  ]


async def _main() -> None:
  results = {}
  for name, build in _shapes().items():
    results[name] = await _run(build)
  print(json.dumps(results, sort_keys=True))


if __name__ == '__main__':
  warnings.simplefilter('ignore')
  logging.disable(logging.CRITICAL)
  asyncio.run(_main())
