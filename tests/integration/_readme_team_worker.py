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

"""Runs the README's first example on scripted models and prints the booker's
last request.

Run by test_readme_example.py in the fork's interpreter and in pristine
upstream 2.13.0's. The agents are the README's own code block, executed as
written; only each agent's model is replaced by a script that records its
requests. Pristine upstream has no ``include_sources``, so there the
``include_sources=...`` argument is taken out of the block before it runs.
Variants: ``as_written``; ``no_sources`` (the argument taken out);
``none`` (the argument taken out, ``include_contents='none'`` on the booker).
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
import re
import sys
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.runners import InMemoryRunner
from google.genai import types

# The shared scripted model is in tests/, which a script run by another
# interpreter does not have on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _scripted import contents_json  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import run_turns  # pylint: disable=g-import-not-at-top,wrong-import-position
from _scripted import ScriptedLlm  # pylint: disable=g-import-not-at-top,wrong-import-position

_README = Path(__file__).resolve().parents[2] / 'README.md'
_TURNS = (
    'I want to book a table',
    '4 people tomorrow 7pm',
    'What are your opening hours?',
    'Make it 8pm instead',
)
_SOURCES_ARGUMENT = re.compile(r'include_sources=\[[^\]]*\]')


def _transfer(agent_name: str) -> types.Content:
  return types.Content(
      role='model',
      parts=[
          types.Part(
              function_call=types.FunctionCall(
                  name='transfer_to_agent', args={'agent_name': agent_name}
              )
          )
      ],
  )


# What each agent answers on its n-th request: the booker takes turns 1 and
# 2, hands turn 3 to info, and info hands turn 4 back.
_SCRIPTS: dict[str, dict[int, Any]] = {
    'coordinator': {1: _transfer('booker')},
    'booker': {
        1: 'BOOKER-1: For how many people, and when?',
        2: 'BOOKER-2: Booked 4 people tomorrow at 7pm.',
        3: _transfer('info'),
        4: 'BOOKER-4: Moved your booking to 8pm.',
    },
    'info': {1: 'INFO-1: We are open 9am-10pm.', 2: _transfer('booker')},
}


def _readme_block() -> str:
  text = _README.read_text(encoding='utf-8')
  why = text.index('## Why')
  start = text.index('```python\n', why) + len('```python\n')
  return text[start : text.index('```', start)]


def _build(variant: str) -> tuple[LlmAgent, ScriptedLlm]:
  code = _readme_block()
  if variant != 'as_written':
    code, count = _SOURCES_ARGUMENT.subn('', code)
    assert count == 1, code
  namespace: dict[str, Any] = {}
  exec(compile(code, str(_README), 'exec'), namespace)  # pylint: disable=exec-used
  root = namespace['root_agent']
  models = {}
  for agent in (root, *root.sub_agents):
    script = _SCRIPTS[agent.name]
    models[agent.name] = ScriptedLlm(
        strict=True, script=[script[n] for n in sorted(script)]
    )
    agent.model = models[agent.name]
  if variant == 'none':
    namespace['booker'].include_contents = 'none'
  return root, models['booker']


async def _run(variant: str) -> list[list[dict[str, Any]]]:
  root, booker_model = _build(variant)
  runner = InMemoryRunner(agent=root, app_name='readme')
  await run_turns(runner, *_TURNS, user_id='u')
  return [contents_json(request) for request in booker_model.requests]


def main() -> None:
  logging.disable(logging.WARNING)
  warnings.simplefilter('ignore')
  variants = sys.argv[1:]
  print(json.dumps({v: asyncio.run(_run(v)) for v in variants}, sort_keys=True))


if __name__ == '__main__':
  main()
