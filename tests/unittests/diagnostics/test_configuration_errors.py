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


"""Configuration errors: one message for a wrong setting (ADK-D112 too)."""

from __future__ import annotations

from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import CODES
from google.adk.diagnostics._configuration_errors import AgentConfigurationError
from google.adk.diagnostics._configuration_errors import describe
from google.adk.runners import InMemoryRunner
from google.adk.workflow import FunctionNode
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


def _step() -> str:
  return 'ok'


def test_the_code_is_listed():
  assert 'ADK-D112' in CODES


def test_a_keyword_a_workflow_ignores_is_reported_with_the_field_it_meant():
  inner = Workflow(
      name='inner', edges=[(START, _agent('a'))], visibilty='internal'
  )
  root = Workflow(name='flow', edges=[(START, inner, _agent('b'))])

  (finding,) = [d for d in check_agent_tree(root) if d.code == 'ADK-D112']

  assert finding.severity.value == 'error' and finding.agent == 'inner'
  assert "Workflow 'inner' has no keyword 'visibilty'" in finding.message
  assert "Did you mean 'visibility'?" in finding.hint


def test_a_node_built_with_its_own_keywords_ignores_nothing():
  root = Workflow(
      name='flow', edges=[(START, _agent('a'))], visibility='internal'
  )

  assert not [d for d in check_agent_tree(root) if d.code == 'ADK-D112']


def test_a_runner_refuses_a_keyword_a_node_ignored():
  root = Workflow(name='flow', edges=[(START, _agent('a'))], visibilty='user')

  with pytest.raises(ValueError, match="Did you mean 'visibility'") as caught:
    InMemoryRunner(node=root, app_name='app')

  assert isinstance(caught.value, AgentConfigurationError)
  assert describe(caught.value) == str(caught.value)


@pytest.mark.asyncio
async def test_a_keyword_like_no_field_is_a_warning_and_the_app_runs():
  root = Workflow(name='flow', edges=[(START, _step)], team_notes='draft 2')

  (finding,) = [d for d in check_agent_tree(root) if d.code == 'ADK-D112']
  runner = InMemoryRunner(node=root, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  events = [
      event
      async for event in runner.run_async(
          user_id='u',
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='hi')]),
      )
  ]

  # Upstream ignores it as well; an app written for upstream keeps running.
  assert finding.severity.value == 'warning'
  assert "has no keyword 'team_notes'" in finding.message
  assert [event.output for event in events if event.output] == ['ok']


def test_a_runner_refusing_source_names_is_described_as_it_raised():
  root = _sequence(
      _agent('researcher'), _agent('w', exclude_sources=['reseacher'])
  )

  with pytest.raises(ValueError) as caught:
    InMemoryRunner(agent=root, app_name='app')

  assert describe(caught.value) == str(caught.value)
  assert "Did you mean 'researcher'?" in str(caught.value)


def test_an_agent_refusing_a_keyword_reads_like_a_node_ignoring_one():
  with pytest.raises(ValueError) as caught:
    _agent('writer', visibilty='internal')

  message = describe(caught.value)

  assert message.startswith(
      "LlmAgent 'writer' has no keyword 'visibilty' and refuses it."
      " Did you mean 'visibility'? Fix the keyword or remove it. (at "
  )
  assert __file__ in message
  # Code that builds the agent itself reads the same sentence.
  assert "Did you mean 'visibility'?" in str(caught.value)
  assert 'Extra inputs are not permitted' not in str(caught.value)


def test_a_tool_level_set_on_the_tool_is_described_where_it_was_set():
  from google.adk.tools.function_tool import FunctionTool

  tool = FunctionTool(_step)
  with pytest.raises(ValueError) as caught:
    tool.user_visibility = 'ful'

  message = describe(caught.value)

  assert message.startswith(
      "Invalid tool visibility 'ful' on tool '_step'. Did you mean 'full'?"
  )
  assert __file__ in message


def test_a_misspelt_tool_visibility_key_names_the_setting_not_the_input():
  with pytest.raises(ValueError) as caught:
    _agent('writer', tools=[_step], tool_visibility={'_stpe': 'minimal'})

  message = describe(caught.value)

  assert message.startswith(
      "LlmAgent 'writer': tool_visibility of agent 'writer' names '_stpe',"
      " not among its tools ('_step'). Did you mean '_step'?"
  )
  # Neither the agent's whole input nor a tool it has no sub-agents for.
  assert ' at 0x' not in message and 'transfer_to_agent' not in message


def test_a_function_node_refusing_a_keyword_is_described_the_same_way():
  with pytest.raises(TypeError) as caught:
    FunctionNode(func=_step, name='step', visibilty='internal')

  message = describe(caught.value)

  assert message.startswith(
      "FunctionNode has no keyword 'visibilty' and refuses it. Did you mean"
      " 'visibility'?"
  )


def test_a_bad_value_names_the_agent_the_field_and_the_value():
  with pytest.raises(ValueError) as caught:
    _agent('writer', visibility='hidden')

  message = describe(caught.value)

  assert message.startswith("LlmAgent 'writer': visibility='hidden' is not")


def test_the_cause_of_a_loader_error_is_described():
  try:
    try:
      _agent('writer', visibilty='internal')
    except ValueError as error:
      raise RuntimeError("Fail to load 'app' module.") from error
  except RuntimeError as wrapped:
    assert "has no keyword 'visibilty'" in describe(wrapped)


@pytest.mark.parametrize(
    'error',
    [
        ValueError('no agent here'),
        TypeError('f() takes 1 argument'),
        KeyError(),
    ],
)
def test_other_errors_are_not_configuration_errors(error):
  assert describe(error) is None
