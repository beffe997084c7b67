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

"""check_agent_tree's public API, ADK-D104 and ADK-D105."""

from __future__ import annotations

import json
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import CODES
from google.adk.diagnostics import Diagnostic
from google.adk.diagnostics import Severity
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from pydantic import BaseModel
import pytest

_MODEL = 'gemini-2.5-flash'


def _agent(name: str, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_MODEL, instruction='Help.', **kwargs)


def _composite(kind: type, name: str, *sub_agents: Any, **kwargs: Any) -> Any:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return kind(name=name, sub_agents=list(sub_agents), **kwargs)


def _found(root: Any, code: str) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == code]


def _pipeline(**booker_kwargs: Any) -> Any:
  return _composite(
      SequentialAgent,
      'router',
      _agent('classifier', output_key='intent'),
      _agent('booker', **booker_kwargs),
  )


class TestUnknownIncludeSource:
  """ADK-D104: an include_sources entry names nothing in the tree."""

  def test_a_typo_is_a_warning_with_a_suggestion(self):
    [found] = _found(
        _pipeline(include_sources=['user', 'clasifier']), 'ADK-D104'
    )

    assert (found.severity, found.agent) == (Severity.WARNING, 'booker')
    assert "'clasifier'" in found.message and "'router'" in found.message
    assert found.hint.startswith("Did you mean 'classifier'?")

  def test_each_unknown_name_is_reported_once(self):
    root = _pipeline(include_sources=['nobody', 'nobody', 'ghost'])

    assert [d.message.split("'")[3] for d in _found(root, 'ADK-D104')] == [
        'nobody',
        'ghost',
    ]

  def test_reserved_names_and_names_in_the_tree_are_quiet(self):
    root = _pipeline(include_sources=['user', 'self', 'classifier', 'router'])

    assert _found(root, 'ADK-D104') == []

  def test_workflow_node_names_are_known(self):
    def prepare(node_input: str) -> str:
      return node_input

    inner = Workflow(name='inner', edges=[(START, _agent('classifier'))])
    booker = _agent(
        'booker',
        include_sources=['user', 'classifier', 'prepare', 'inner', 'join'],
    )
    flow = Workflow(
        name='flow',
        edges=[(START, inner, prepare, JoinNode(name='join'), booker)],
    )

    assert _found(flow, 'ADK-D104') == []

  def test_a_typo_of_a_function_node_name_is_a_warning(self):
    def prepare(node_input: str) -> str:
      return node_input

    booker = _agent('booker', include_sources=['user', 'prepar'])
    flow = Workflow(name='flow', edges=[(START, prepare, booker)])

    [found] = _found(flow, 'ADK-D104')

    assert 'no agent or workflow node named' in found.message
    assert found.hint.startswith("Did you mean 'prepare'?")


class TestNoUserFacingAgent:
  """ADK-D105: no agent in the tree is user-facing."""

  def test_every_agent_internal_by_choice_is_a_warning(self):
    root = _composite(
        SequentialAgent,
        'router',
        _agent('classifier', visibility='internal'),
        _agent('booker', visibility='internal'),
    )

    [found] = _found(root, 'ADK-D105')

    assert (found.severity, found.agent) == (Severity.WARNING, 'router')
    assert 'fallback' in found.message
    assert "visibility='user'" in found.hint

  def test_a_function_node_after_internal_agents_is_no_answer(self):
    def finish(node_input: str) -> str:
      return node_input

    flow = Workflow(
        name='flow',
        edges=[(START, _agent('drafter', visibility='internal'), finish)],
    )

    assert [d.agent for d in _found(flow, 'ADK-D105')] == ['flow']

  def test_inference_always_leaves_an_answer(self):
    # The classifier is the last agent that is not internal by choice.
    root = _pipeline(visibility='internal')

    assert _found(root, 'ADK-D105') == []

  def test_a_presenter_after_the_loop_is_quiet(self):
    loop = _composite(LoopAgent, 'loop', _agent('drafter'), max_iterations=2)
    root = _composite(SequentialAgent, 'app', loop, _agent('presenter'))

    assert _found(root, 'ADK-D105') == []


class TestPublicApi:

  def test_codes_list_every_check_in_order(self):
    assert {'ADK-D104', 'ADK-D105'} <= set(CODES)
    assert list(CODES) == sorted(set(CODES))

  def test_an_app_is_checked_through_its_root_agent(self):
    app = App(name='booking', root_agent=_pipeline(include_sources=['x']))

    assert check_agent_tree(app) == check_agent_tree(app.root_agent)
    assert _found(app, 'ADK-D104')

  def test_diagnostics_are_frozen_and_serialize_to_json(self):
    [found] = _found(_pipeline(include_sources=['x']), 'ADK-D104')

    data = json.loads(json.dumps(found.to_dict()))

    assert data == {
        'severity': 'warning',
        'code': 'ADK-D104',
        'agent': 'booker',
        'message': found.message,
        'hint': found.hint,
    }
    with pytest.raises(AttributeError):
      found.code = 'ADK-D999'  # type: ignore[misc]

  def test_bad_input_says_what_to_pass(self):
    with pytest.raises(TypeError, match='root_agent'):
      check_agent_tree('router')

  def test_warnings_come_before_infos(self):
    assert [s.rank for s in Severity] == [0, 1, 2]
    loop = _composite(
        LoopAgent,
        'loop',
        _agent('drafter', include_sources=['user', 'critc']),
        _agent('critic'),
        max_iterations=2,
    )

    ranks = [d.severity.rank for d in check_agent_tree(loop)]

    assert ranks == sorted(ranks)
    assert 'ADK-D104' in {d.code for d in check_agent_tree(loop)}

  def test_the_tree_is_not_changed(self):
    root = _pipeline(include_sources=['user', 'clasifier'])
    before = root.model_dump(mode='json', exclude_none=True)

    check_agent_tree(root)

    assert root.model_dump(mode='json', exclude_none=True) == before


class _Hotel(BaseModel):
  name: str
  price: int


def _concierge(**kwargs: Any) -> LlmAgent:
  finder = _agent('hotel_finder', output_schema=_Hotel)
  return _agent('concierge', tools=[AgentTool(finder)], **kwargs)


def test_a_structured_result_a_filtered_client_loses_is_named():
  """ADK-D113: an agent tool's structured result reaches a client by name."""
  [found] = _found(_concierge(), 'ADK-D113')

  assert found.severity == Severity.INFO
  assert found.agent == 'concierge'
  assert "'hotel_finder'" in found.message and '_Hotel' in found.message
  assert "tool_visibility={'hotel_finder': 'full'}" in found.hint


def test_a_structured_result_sent_or_internal_is_not_named():
  sent = _concierge(tool_visibility={'hotel_finder': 'full'})
  internal = _composite(
      SequentialAgent,
      'trip',
      _concierge(),
      _agent('presenter'),
  )
  plain = _agent('concierge', tools=[AgentTool(_agent('researcher'))])

  for root in (sent, internal, plain):
    assert _found(root, 'ADK-D113') == []
