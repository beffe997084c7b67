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

"""More include_sources cases through a real Runner: transfer, loops, parallel.

The cases an upstream reviewer reads are in
tests/unittests/flows/llm_flows/test_include_sources.py.
"""

from __future__ import annotations

import warnings

from _pr_tests import include_sources
from _scripted import ScriptedLlm
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.genai import types
import pytest

_text = include_sources._text
_sequential = include_sources._sequential
_run = include_sources._run


@pytest.mark.asyncio
async def test_llm_transfer_to_a_filtered_sub_agent():
  coordinator_model = ScriptedLlm(
      strict=True,
      script=[
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          )
      ],
  )
  booker_model = ScriptedLlm(strict=True, script=['BOOKER-1', 'BOOKER-2'])
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      description='Books tables.',
      include_sources=['user', 'self'],
  )
  coordinator = LlmAgent(
      name='coordinator', model=coordinator_model, sub_agents=[booker]
  )

  await _run(coordinator, 'USER-1 book', 'USER-2 thanks')

  assert _text(booker_model.requests[0]) == 'user: USER-1 book'
  assert _text(booker_model.requests[1]) == '\n'.join([
      'user: USER-1 book',
      'model: BOOKER-1',
      'user: USER-2 thanks',
  ])


@pytest.mark.asyncio
async def test_llm_transfer_without_filter_shows_the_transfer():
  coordinator_model = ScriptedLlm(
      strict=True,
      script=[
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          )
      ],
  )
  booker_model = ScriptedLlm(strict=True, script=['BOOKER-1'])
  booker = LlmAgent(name='booker', model=booker_model, description='Books.')
  coordinator = LlmAgent(
      name='coordinator', model=coordinator_model, sub_agents=[booker]
  )

  await _run(coordinator, 'USER-1 book')

  assert '[coordinator] called tool `transfer_to_agent`' in _text(
      booker_model.requests[0]
  )


@pytest.mark.asyncio
async def test_loop_agent_sees_own_earlier_iterations_but_not_the_peer():
  critic_model = ScriptedLlm(strict=True, script=['CRITIC-1', 'CRITIC-2'])
  writer_model = ScriptedLlm(strict=True, script=['WRITER-1', 'WRITER-2'])
  critic = LlmAgent(name='critic', model=critic_model)
  writer = LlmAgent(
      name='writer', model=writer_model, include_sources=['user', 'self']
  )
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    loop = LoopAgent(name='loop', sub_agents=[critic, writer], max_iterations=2)

  await _run(loop, 'USER-1 draft')

  assert _text(writer_model.requests[1]) == '\n'.join([
      'user: USER-1 draft',
      'model: WRITER-1',
  ])
  assert 'CRITIC-1' in _text(critic_model.requests[1])


@pytest.mark.asyncio
async def test_agent_after_parallel_branches_picks_one_branch():
  north_model = ScriptedLlm(strict=True, script=['NORTH-result'])
  south_model = ScriptedLlm(strict=True, script=['SOUTH-result'])
  merger_model = ScriptedLlm(strict=True, script=['MERGED'])
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    fan_out = ParallelAgent(
        name='fan_out',
        sub_agents=[
            LlmAgent(name='north', model=north_model),
            LlmAgent(name='south', model=south_model),
        ],
    )
  merger = LlmAgent(
      name='merger', model=merger_model, include_sources=['user', 'north']
  )

  await _run(_sequential(fan_out, merger), 'USER-1 compare')

  text = _text(merger_model.requests[0])
  assert 'USER-1 compare' in text and 'NORTH-result' in text
  assert 'SOUTH-result' not in text
