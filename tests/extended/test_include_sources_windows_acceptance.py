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

"""Issue 23's acceptance scenario: 10 turns, planner, researcher, writer."""

from __future__ import annotations

from typing import Any
import warnings

from _scripted import request_text
from _scripted import run_turns
from _scripted import ScriptedLlm
from google.adk.agents import SourceWindow
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.llm_request import LlmRequest
from google.adk.runners import InMemoryRunner
from google.genai import types
import pytest

warnings.filterwarnings('ignore', message=r'\[EXPERIMENTAL\]')

_TURNS = 10


def search(query: str) -> dict[str, str]:
  """Searches the web."""
  return {'hits': f'HITS-FOR-{query}'}


def _tree(**writer_kwargs: Any) -> tuple[Any, list[ScriptedLlm]]:
  planner_model = ScriptedLlm(
      strict=True, script=[f'PLAN-{n}' for n in range(1, _TURNS + 1)]
  )
  researcher_script: list[Any] = []
  for n in range(1, _TURNS + 1):
    researcher_script += [
        types.FunctionCall(name='search', args={'query': f'q{n}'}),
        f'FINDING-{n}',
    ]
  writer_model = ScriptedLlm(
      strict=True, script=[f'DRAFT-{n}' for n in range(1, _TURNS + 1)]
  )
  agents = [
      LlmAgent(name='planner', model=planner_model),
      LlmAgent(
          name='researcher',
          model=ScriptedLlm(strict=True, script=researcher_script),
          tools=[search],
      ),
      LlmAgent(name='writer', model=writer_model, **writer_kwargs),
  ]
  return agents, [a.model for a in agents]


def _sequence(agents: list[Any]) -> SequentialAgent:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='team', sub_agents=agents)


async def _run(root: Any, turns: int = _TURNS) -> None:
  runner = InMemoryRunner(agent=root, app_name='app')
  await run_turns(
      runner, *(f'USER-{n}' for n in range(1, turns + 1)), user_id='u'
  )


def _chars(request: LlmRequest) -> int:
  total = 0
  for content in request.contents:
    for part in content.parts or ():
      total += len(part.text or '')
      if part.function_call:
        total += len(str(part.function_call.args))
      if part.function_response:
        total += len(str(part.function_response.response))
  return total


def _assert_every_call_answered(request: LlmRequest) -> None:
  pending = 0
  for content in request.contents:
    for part in content.parts or ():
      pending += bool(part.function_call)
      if part.function_response:
        assert pending, 'a response without its call'
        pending -= 1
  assert pending == 0, 'a call without its response'
  text = request_text(request)
  assert text.count('called tool') == text.count('tool returned'), text


_WINDOWS = [
    SourceWindow('user', first=1, last=1),
    SourceWindow('planner', last=1),
    SourceWindow('researcher', final_answers_only=True),
]


@pytest.mark.asyncio
async def test_writer_request_after_ten_turns():
  agents, models = _tree(include_sources=_WINDOWS)
  await _run(_sequence(agents))
  writer_request = models[2].requests[-1]
  text = request_text(writer_request)
  assert 'USER-1' in text and f'USER-{_TURNS}' in text
  assert all(f'USER-{n}\n' not in text for n in range(2, _TURNS))
  assert f'PLAN-{_TURNS}' in text
  assert all(f'PLAN-{n}\n' not in text + '\n' for n in range(1, _TURNS))
  for n in range(1, _TURNS + 1):
    assert f'FINDING-{n}' in text
  assert 'called tool' not in text and 'HITS' not in text
  for model in models:
    for request in model.requests:
      _assert_every_call_answered(request)

  plain, plain_models = _tree(include_sources=['user', 'planner', 'researcher'])
  await _run(_sequence(plain))
  default, default_models = _tree()
  await _run(_sequence(default))
  sizes = {
      'windows': _chars(writer_request),
      'plain list': _chars(plain_models[2].requests[-1]),
      'default': _chars(default_models[2].requests[-1]),
  }
  print('writer request at turn 10 (characters):', sizes)
  assert sizes['windows'] < sizes['plain list'] < sizes['default']


@pytest.mark.asyncio
async def test_everyone_but_the_researcher_admits_a_peer_added_later():
  agents, _ = _tree()
  reviewer_model = ScriptedLlm(strict=True, script=['REVIEW-1', 'REVIEW-2'])
  reviewer = LlmAgent(
      name='reviewer', model=reviewer_model, exclude_sources=['researcher']
  )
  fact_checker = LlmAgent(
      name='fact_checker',
      model=ScriptedLlm(strict=True, script=['CHECKED-1', 'CHECKED-2']),
  )
  # The fact checker is added to the tree after the reviewer was written.
  await _run(_sequence([*agents, fact_checker, reviewer]), turns=2)
  text = request_text(reviewer_model.requests[-1])
  assert 'CHECKED-1' in text and 'CHECKED-2' in text
  assert 'PLAN-2' in text and 'DRAFT-2' in text and 'USER-2' in text
  assert 'FINDING' not in text and 'HITS' not in text


@pytest.mark.parametrize('count', [-1, True, 1.5, '3', None], ids=repr)
def test_bad_counts_are_clear_errors(count):
  with pytest.raises(ValueError) as error:
    SourceWindow('planner', last=count)
  message = str(error.value)
  if count is None:
    assert 'sets no window' in message and "Write 'planner'" in message
  else:
    assert 'last' in message and (
        '>= 0' in message or 'whole number' in message
    )
