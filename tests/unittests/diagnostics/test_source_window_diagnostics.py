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

"""Diagnostics of source windows and exclusions (ADK-D104, D108 to D110)."""

from __future__ import annotations

from typing import Any
import warnings

from google.adk.agents import SourceWindow
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import CODES
from google.adk.diagnostics import Severity
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

warnings.filterwarnings('ignore', message=r'\[EXPERIMENTAL\]')


def _agent(name: str, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model='gemini-2.5-flash', **kwargs)


def _sequence(*agents: Any) -> SequentialAgent:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='team', sub_agents=list(agents))


def _found(root: Any, code: str):
  return [d for d in check_agent_tree(root) if d.code == code]


def test_new_codes_are_listed():
  assert {'ADK-D108', 'ADK-D109', 'ADK-D110'} <= set(CODES)


def test_window_on_a_source_that_never_speaks_before_the_agent():
  writer = _agent('writer', include_sources=[SourceWindow('editor', last=1)])
  root = _sequence(_agent('planner'), writer, _agent('editor'))
  (finding,) = _found(root, 'ADK-D108')
  assert finding.agent == 'writer' and "'editor'" in finding.message
  assert 'before' in finding.hint
  # Moving the editor first fixes it.
  writer = _agent('writer', include_sources=[SourceWindow('editor', last=1)])
  assert not _found(_sequence(_agent('editor'), writer), 'ADK-D108')


def test_window_of_zero():
  writer = _agent('writer', include_sources=[SourceWindow('planner', last=0)])
  (finding,) = _found(_sequence(_agent('planner'), writer), 'ADK-D109')
  assert 'exclude_sources' in finding.hint
  writer = _agent(
      'writer', include_sources=[SourceWindow('planner', first=0, last=2)]
  )
  (finding,) = _found(_sequence(_agent('planner'), writer), 'ADK-D109')
  assert 'Remove first=0' in finding.hint


def test_final_answers_of_an_agent_that_only_calls_tools():
  caller = _agent(
      'caller',
      generate_content_config=types.GenerateContentConfig(
          tool_config=types.ToolConfig(
              function_calling_config=types.FunctionCallingConfig(mode='ANY')
          )
      ),
  )
  writer = _agent(
      'writer',
      include_sources=[SourceWindow('caller', final_answers_only=True)],
  )
  (finding,) = _found(_sequence(caller, writer), 'ADK-D110')
  assert 'mode ANY' in finding.message and 'AUTO' in finding.hint
  writer = _agent(
      'writer',
      include_sources=[SourceWindow('planner', final_answers_only=True)],
  )
  assert not _found(_sequence(_agent('planner'), writer), 'ADK-D110')


def test_final_answers_of_a_function_node():
  def route(node_input: str) -> str:
    return node_input

  writer = _agent(
      'writer', include_sources=[SourceWindow('route', final_answers_only=True)]
  )
  root = Workflow(
      name='flow', edges=[(START, _agent('planner'), route, writer)]
  )
  (finding,) = _found(root, 'ADK-D110')
  assert "'route'" in finding.message


@pytest.mark.parametrize(
    'kwargs',
    [
        {'exclude_sources': ['reseacher']},
        {'include_sources': ['user', SourceWindow('reseacher', last=1)]},
    ],
)
def test_unknown_names_in_the_new_forms_are_errors(kwargs):
  root = _sequence(_agent('researcher'), _agent('writer', **kwargs))
  (finding,) = _found(root, 'ADK-D104')
  assert finding.severity == Severity.ERROR
  assert "Did you mean 'researcher'?" in finding.hint
  with pytest.raises(ValueError, match="Did you mean 'researcher'"):
    InMemoryRunner(agent=root, app_name='app')


def test_plain_unknown_names_stay_a_warning():
  root = _sequence(
      _agent('researcher'), _agent('writer', include_sources=['reseacher'])
  )
  (finding,) = _found(root, 'ADK-D104')
  assert finding.severity == Severity.WARNING
  InMemoryRunner(agent=root, app_name='app')  # builds


def test_star_and_windows_are_not_reported_as_unknown_names():
  writer = _agent(
      'writer',
      include_sources=['*', SourceWindow('planner', last=1)],
      exclude_sources=['researcher'],
  )
  root = _sequence(_agent('planner'), _agent('researcher'), writer)
  assert not _found(root, 'ADK-D104')
  assert not _found(root, 'ADK-D108')
