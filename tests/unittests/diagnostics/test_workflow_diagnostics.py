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

"""Run order in a Workflow, and ADK-D106: a node reads a missing state key."""

from __future__ import annotations

from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import Diagnostic
from google.adk.diagnostics import Severity
from google.adk.events.event import Event
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow


def _agent(name: str, instruction: str = 'Help.', **kwargs: Any) -> LlmAgent:
  return LlmAgent(
      name=name, model='gemini-2.5-flash', instruction=instruction, **kwargs
  )


def _found(root: Any, code: str) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == code]


def _routed(route: Any) -> Workflow:
  classifier = _agent('classifier', output_key='intent')
  branches = {'booking': _agent('booker'), 'info': _agent('informer')}
  return Workflow(name='flow', edges=[(START, classifier, route, branches)])


def test_a_route_reading_a_key_nothing_produces_is_an_error():
  def route_on_mood(mood: str):
    return Event(route=mood)

  [found] = _found(_routed(route_on_mood), 'ADK-D106')

  assert (found.severity, found.agent) == (Severity.ERROR, 'route_on_mood')
  assert "'mood'" in found.message and 'chooses the route' in found.message
  assert 'WorkflowDataError' in found.message
  assert 'mood=None' in found.hint


def test_a_route_reading_the_produced_key_or_with_a_default_is_quiet():
  def route_on_intent(intent: str):
    return Event(route=intent)

  def route_with_default(mood: str = 'calm'):
    return Event(route=mood)

  assert _found(_routed(route_on_intent), 'ADK-D106') == []
  assert _found(_routed(route_with_default), 'ADK-D106') == []


def test_a_loop_exit_reading_a_key_of_a_later_node_is_info():
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

  [found] = _found(flow, 'ADK-D106')

  assert (found.severity, found.agent) == (Severity.INFO, 'should_stop')
  assert "'critic'" in found.message
  assert _found(flow, 'ADK-D101') == []


def test_an_edge_orders_an_instructions_producer_and_reader():
  classifier = _agent('classifier', output_key='intent')
  booker = _agent('booker', 'About {intent}.')
  in_order = Workflow(name='flow', edges=[(START, classifier, booker)])
  reversed_order = Workflow(
      name='flow', edges=[(START, booker.clone(), classifier.clone())]
  )

  [found] = _found(reversed_order, 'ADK-D101')

  assert _found(in_order, 'ADK-D101') == []
  assert (found.severity, found.agent) == (Severity.WARNING, 'booker')


def test_a_key_produced_on_one_branch_only_is_info():
  def route(node_input: Any):
    return Event(route='fast')

  fast, slow = _agent('fast', output_key='answer'), _agent('slow')
  presenter = _agent('presenter', 'Present {answer}.')
  flow = Workflow(
      name='flow',
      edges=[
          (START, route, {'fast': fast, 'slow': slow}),
          (fast, presenter),
          (slow, presenter),
      ],
  )

  [found] = _found(flow, 'ADK-D101')

  assert (found.severity, found.agent) == (Severity.INFO, 'presenter')
  assert "'fast' stores it" in found.message


def test_a_source_on_a_parallel_branch_is_reported():
  join = JoinNode(name='join')
  reader = _agent('reader', include_sources=['user', 'scout'])
  parallel = Workflow(
      name='flow',
      edges=[(START, _agent('scout'), join), (START, reader, join)],
  )
  after_join = Workflow(
      name='flow',
      edges=[
          (START, _agent('scout'), join),
          (START, _agent('critic'), join),
          (join, _agent('reader', include_sources=['user', 'scout'])),
      ],
  )

  [found] = _found(parallel, 'ADK-D104')

  assert (found.severity, found.agent) == (Severity.WARNING, 'reader')
  assert "'scout' runs in parallel with it in workflow 'flow'" in found.message
  assert found.hint.startswith('Join the branches first')
  assert _found(after_join, 'ADK-D104') == []


def test_a_source_on_another_route_is_not_parallel():
  def route_on_intent(intent: str):
    return Event(route=intent)

  branches = {
      'booking': _agent('booker', include_sources=['user', 'informer']),
      'info': _agent('informer'),
  }
  root = Workflow(
      name='flow',
      edges=[
          (START, _agent('classifier', output_key='intent'), route_on_intent),
          (route_on_intent, branches),
      ],
  )

  assert _found(root, 'ADK-D104') == []


def test_the_last_agent_of_a_loop_at_the_root_is_named():
  loop = LoopAgent(
      name='loop', sub_agents=[_agent('drafter'), _agent('critic')]
  )

  [found] = _found(loop, 'ADK-D107')

  assert (found.severity, found.agent) == (Severity.INFO, 'critic')
  assert "visibility='internal' on 'critic'" in found.hint
  assert 'SequentialAgent(sub_agents=[loop, presenter])' in found.hint


def test_the_agent_before_a_workflow_loop_ends_is_named():
  def route(node_input: str) -> str:
    return node_input

  writer = _agent('writer')
  flow = Workflow(
      name='review',
      edges=[
          (START, writer, _agent('reviewer'), route),
          (route, {'revise': writer}),
      ],
  )

  [found] = _found(flow, 'ADK-D107')

  # The route reads the reviewer's verdict: the writer's draft is the answer.
  assert found.agent == 'writer'
  assert 'a node on the route that leaves the loop' in found.hint


def test_an_answer_chosen_explicitly_or_a_presenter_is_quiet():
  chosen = LoopAgent(
      name='loop',
      sub_agents=[
          _agent('drafter', visibility='user'),
          _agent('critic', visibility='internal'),
      ],
  )
  presented = Workflow(
      name='flow',
      edges=[(
          START,
          LoopAgent(name='loop', sub_agents=[_agent('critic')]),
          _agent('presenter'),
      )],
  )

  assert _found(chosen, 'ADK-D107') == []
  assert _found(presented, 'ADK-D107') == []


def test_a_loop_that_can_end_on_a_verdict_warns_until_the_draft_stands_in():
  def refinement(drafter_key: str | None) -> SequentialAgent:
    return SequentialAgent(
        name='writing',
        sub_agents=[
            _agent('drafter', output_key=drafter_key),
            LoopAgent(
                name='refine',
                sub_agents=[
                    _agent('critic', output_key='review'),
                    _agent('refiner', output_key='document', tools=[exit_loop]),
                ],
            ),
        ],
    )

  [found] = _found(refinement('draft'), 'ADK-D111')

  assert (found.severity, found.agent) == (Severity.WARNING, 'refiner')
  assert 'the verdict' in found.message
  assert "output_key='current_document' on both" in found.hint
  assert _found(refinement('document'), 'ADK-D111') == []
