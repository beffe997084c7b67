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

"""Each diagnostic check fires on a faulty tree and stays quiet on its fix."""

from __future__ import annotations

import json
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import CODES
from google.adk.diagnostics import Diagnostic
from google.adk.diagnostics import Severity
from google.adk.events.event import Event
from google.adk.workflow import START
from google.adk.workflow import Workflow
import pytest

_MODEL = 'gemini-2.5-flash'


def _agent(name: str, instruction: str = 'Help.', **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_MODEL, instruction=instruction, **kwargs)


def _composite(kind: type, name: str, *sub_agents: Any, **kwargs: Any) -> Any:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return kind(name=name, sub_agents=list(sub_agents), **kwargs)


def _found(root: Any, code: str) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == code]


def _only(root: Any, code: str) -> Diagnostic:
  found = _found(root, code)
  assert len(found) == 1, found
  return found[0]


def _pipeline(**booker_kwargs: Any) -> Any:
  classifier = _agent(
      'classifier', 'Answer "booking" or "info".', output_key='intent'
  )
  booker = _agent(
      'booker',
      booker_kwargs.pop('instruction', 'The request is about {intent}.'),
      **booker_kwargs,
  )
  return _composite(SequentialAgent, 'router', classifier, booker)


class TestMissingStateKey:
  """ADK-D101: an instruction reads a key nothing before it produces."""

  def test_a_typo_with_no_producer_anywhere_is_an_error(self):
    root = _pipeline(
        instruction='The request is about {intnet}.',
        include_sources=['user', 'self'],
    )
    found = _only(root, 'ADK-D101')
    assert found.severity is Severity.ERROR
    assert found.agent == 'booker'
    assert '{intnet}' in found.message and 'KeyError' in found.message
    assert 'Did you mean {intent}?' in found.hint

  def test_the_key_produced_before_the_reader_is_quiet(self):
    root = _pipeline(include_sources=['user', 'self'])
    assert check_agent_tree(root) == []

  def test_a_producer_that_runs_after_the_reader_is_a_warning(self):
    booker = _agent('booker', 'About {intent}.', include_sources=['user'])
    classifier = _agent('classifier', output_key='intent')
    root = _composite(SequentialAgent, 'router', booker, classifier)
    found = _only(root, 'ADK-D101')
    assert found.severity is Severity.WARNING
    assert "'classifier'" in found.message

  def test_a_parallel_sibling_does_not_run_before(self):
    left = _agent('left', output_key='fact')
    right = _agent('right', 'Use {fact}.')
    root = _composite(
        SequentialAgent,
        'pipeline',
        _composite(ParallelAgent, 'both', left, right),
        _agent('presenter', 'Present {fact}.', include_sources=['user']),
    )
    found = _only(root, 'ADK-D101')
    assert (found.agent, found.severity) == ('right', Severity.WARNING)

  def test_optional_keys_artifacts_and_non_names_are_quiet(self):
    root = _pipeline(
        instruction='{intent?} {artifact.report} {not a key} ${x} {{intent}}',
        include_sources=['user'],
    )
    assert _found(root, 'ADK-D101') == []

  def test_persisted_prefixes_are_info(self):
    root = _pipeline(
        instruction='Greet {user:name} of {app:brand}.',
        include_sources=['user'],
    )
    found = _found(root, 'ADK-D101')
    assert {d.severity for d in found} == {Severity.INFO}
    assert {'user:name', 'app:brand'} == {
        key
        for key in ('user:name', 'app:brand')
        for d in found
        if key in d.message
    }

  def test_temp_keys_are_checked_like_plain_keys(self):
    root = _pipeline(
        instruction='Use {temp:scratch}.', include_sources=['user']
    )
    assert _only(root, 'ADK-D101').severity is Severity.ERROR

  def test_a_callback_before_the_reader_makes_it_info(self):
    def set_intent(callback_context):
      callback_context.state['intent'] = 'booking'

    reader = _agent('booker', 'About {intent}.', include_sources=['user'])
    setter = _agent('setter', before_agent_callback=set_intent)
    root = _composite(SequentialAgent, 'router', setter, reader)
    found = _only(root, 'ADK-D101')
    assert found.severity is Severity.INFO
    assert "'setter'" in found.message and 'callback' in found.message

  def test_a_later_loop_sibling_is_info_and_optional_is_quiet(self):
    drafter = _agent('drafter', 'Revise using {feedback}.', output_key='draft')
    critic = _agent('critic', 'Critique {draft}.', output_key='feedback')
    loop = _composite(LoopAgent, 'loop', drafter, critic, max_iterations=3)
    root = _composite(
        SequentialAgent, 'app', loop, _agent('presenter', 'Show {draft}.')
    )
    found = _only(root, 'ADK-D101')
    assert (found.agent, found.severity) == ('drafter', Severity.INFO)
    assert "'critic'" in found.message

    drafter.instruction = 'Revise using {feedback?}.'
    assert _found(root, 'ADK-D101') == []

  def test_transfer_order_is_unknown_so_info(self):
    helper = _agent('helper', 'Use {summary}.')
    coordinator = _agent(
        'coordinator', output_key='summary', sub_agents=[helper]
    )
    found = _only(coordinator, 'ADK-D101')
    assert (found.agent, found.severity) == ('helper', Severity.INFO)

  def test_a_workflow_edge_orders_producer_and_reader(self):
    classifier = _agent('classifier', output_key='intent')
    booker = _agent('booker', 'About {intent}.', include_sources=['user'])
    assert (
        check_agent_tree(
            Workflow(name='flow', edges=[(START, classifier, booker)])
        )
        == []
    )

    reversed_flow = Workflow(
        name='flow', edges=[(START, booker.clone(), classifier.clone())]
    )
    found = _only(reversed_flow, 'ADK-D101')
    assert (found.agent, found.severity) == ('booker', Severity.WARNING)

  def test_a_workflow_key_produced_on_one_branch_only_is_info(self):
    def route(node_input: Any):
      return Event(route='fast')

    fast = _agent('fast', output_key='answer')
    slow = _agent('slow')
    join = _agent('presenter', 'Present {answer}.', include_sources=['user'])
    flow = Workflow(
        name='flow',
        edges=[
            (START, route, {'fast': fast, 'slow': slow}),
            (fast, join),
            (slow, join),
        ],
    )
    found = _only(flow, 'ADK-D101')
    assert (found.agent, found.severity) == ('presenter', Severity.INFO)
    assert "'fast'" in found.message


class TestInternalReplyUnused:
  """ADK-D102: an internal agent without output_key."""

  def test_internal_reply_nobody_receives_is_a_warning(self):
    researcher = _agent('researcher')
    writer = _agent('writer', include_sources=['user', 'self'])
    root = _composite(SequentialAgent, 'pipeline', researcher, writer)
    found = _only(root, 'ADK-D102')
    assert (found.agent, found.severity) == ('researcher', Severity.WARNING)
    assert 'filter mode' in found.message and 'output_key' in found.hint

  def test_reply_received_through_history_is_info(self):
    root = _composite(
        SequentialAgent, 'pipeline', _agent('researcher'), _agent('writer')
    )
    found = _only(root, 'ADK-D102')
    assert found.severity is Severity.INFO
    assert "'writer'" in found.message

  def test_output_key_user_visibility_and_tools_are_quiet(self):
    researcher = _agent('researcher', output_key='notes')
    writer = _agent('writer', 'Use {notes}.', include_sources=['user'])
    root = _composite(SequentialAgent, 'pipeline', researcher, writer)
    assert _found(root, 'ADK-D102') == []

    shown = _agent('researcher', visibility='user')
    root = _composite(
        SequentialAgent,
        'pipeline',
        shown,
        _agent('w', include_sources=['user']),
    )
    assert _found(root, 'ADK-D102') == []

  def test_workflow_node_feeding_the_next_node_is_quiet(self):
    flow = Workflow(
        name='flow', edges=[(START, _agent('researcher'), _agent('writer'))]
    )
    assert _found(flow, 'ADK-D102') == []


class TestSameDataTwice:
  """ADK-D103: a reply received through state and through history."""

  def test_default_history_plus_template_is_info_naming_both_channels(self):
    found = _only(_pipeline(), 'ADK-D103')
    assert (found.agent, found.severity) == ('booker', Severity.INFO)
    assert "'classifier'" in found.message
    assert '{intent}' in found.message and 'history' in found.message
    assert "include_sources=['user', 'self']" in found.hint

  def test_excluding_the_producer_is_quiet(self):
    assert _found(_pipeline(include_sources=['user', 'self']), 'ADK-D103') == []

  def test_naming_the_producer_in_include_sources_fires(self):
    found = _only(_pipeline(include_sources=['user', 'classifier']), 'ADK-D103')
    assert "include_sources=['user']" in found.hint


class TestUnknownIncludeSource:
  """ADK-D104: include_sources names nothing in the tree."""

  def test_typo_is_a_warning_with_a_suggestion(self):
    found = _only(_pipeline(include_sources=['user', 'clasifier']), 'ADK-D104')
    assert (found.agent, found.severity) == ('booker', Severity.WARNING)
    assert "'clasifier'" in found.message
    assert "Did you mean 'classifier'?" in found.hint

  def test_known_and_reserved_names_are_quiet(self):
    root = _pipeline(include_sources=['user', 'self', 'booker'])
    assert _found(root, 'ADK-D104') == []


class TestNoUserFacingAgent:
  """ADK-D105: nobody in the tree talks to the user."""

  def test_loop_at_the_root_is_a_warning(self):
    loop = _composite(
        LoopAgent,
        'loop',
        _agent('drafter', output_key='draft'),
        _agent('critic', 'Critique {draft}.', output_key='feedback'),
        max_iterations=2,
    )
    found = _only(loop, 'ADK-D105')
    assert (found.agent, found.severity) == ('loop', Severity.WARNING)
    assert 'presents' in found.hint or "visibility='user'" in found.hint

  def test_a_presenter_after_the_loop_is_quiet(self):
    loop = _composite(
        LoopAgent,
        'loop',
        _agent('drafter', output_key='draft'),
        max_iterations=2,
    )
    root = _composite(
        SequentialAgent,
        'app',
        loop,
        _agent('presenter', 'Show {draft}.', include_sources=['user']),
    )
    assert _found(root, 'ADK-D105') == []


class TestMissingRouteState:
  """ADK-D106: a workflow node reads a state key nothing produces."""

  @staticmethod
  def _routed(reader: Any) -> Workflow:
    classifier = _agent('classifier', output_key='intent')
    return Workflow(
        name='flow',
        edges=[(
            START,
            classifier,
            reader,
            {
                'booking': _agent('booker'),
                'info': _agent('informer'),
            },
        )],
    )

  def test_route_reading_an_unproduced_key_is_an_error(self):
    def route_on_mood(mood: str):
      return Event(route=mood)

    found = _only(self._routed(route_on_mood), 'ADK-D106')
    assert (found.agent, found.severity) == ('route_on_mood', Severity.ERROR)
    assert "'mood'" in found.message and 'route' in found.message
    assert 'WorkflowDataError' in found.message

  def test_route_reading_the_produced_key_is_quiet(self):
    def route_on_intent(intent: str):
      return Event(route=intent)

    def route_with_default(mood: str = 'calm'):
      return Event(route=mood)

    assert _found(self._routed(route_on_intent), 'ADK-D106') == []
    assert _found(self._routed(route_with_default), 'ADK-D106') == []

  def test_loop_exit_reading_a_key_of_a_later_node_is_info(self):
    def should_stop(verdict: str):
      return Event(route='done' if verdict == 'good' else 'again')

    drafter = _agent('drafter', output_key='draft')
    critic = _agent('critic', 'Judge {draft}.', output_key='verdict')
    flow = Workflow(
        name='flow',
        edges=[
            (START, should_stop),
            (should_stop, {'again': drafter, 'done': _agent('presenter')}),
            (drafter, critic, should_stop),
        ],
    )
    found = _only(flow, 'ADK-D106')
    assert (found.agent, found.severity) == ('should_stop', Severity.INFO)
    assert "'critic'" in found.message


class TestPublicApi:

  def test_codes_are_stable(self):
    assert CODES == tuple(f'ADK-D10{n}' for n in range(1, 7))

  def test_an_app_is_checked_through_its_root_agent(self):
    app = App(name='booking', root_agent=_pipeline())
    assert check_agent_tree(app) == check_agent_tree(app.root_agent)

  def test_diagnostics_serialize_to_json(self):
    found = _only(_pipeline(), 'ADK-D103')
    data = json.loads(json.dumps(found.to_dict()))
    assert data['severity'] == 'info' and data['code'] == 'ADK-D103'
    assert set(data) == {'severity', 'code', 'agent', 'message', 'hint'}

  def test_bad_input_says_what_to_pass(self):
    with pytest.raises(TypeError, match='root_agent'):
      check_agent_tree('router')

  def test_errors_come_first(self):
    root = _pipeline(instruction='{intnet} {user:name}')
    severities = [d.severity.rank for d in check_agent_tree(root)]
    assert severities == sorted(severities) and severities[0] == 0
