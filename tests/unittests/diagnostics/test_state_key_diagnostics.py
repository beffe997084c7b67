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

"""ADK-D101: an instruction reads a state key nothing before it produces."""

from __future__ import annotations

from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import Diagnostic
from google.adk.diagnostics import Severity

_MODEL = 'gemini-2.5-flash'


def _agent(name: str, instruction: str = 'Help.', **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=_MODEL, instruction=instruction, **kwargs)


def _composite(kind: type, name: str, *sub_agents: Any, **kwargs: Any) -> Any:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return kind(name=name, sub_agents=list(sub_agents), **kwargs)


def _found(root: Any) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == 'ADK-D101']


def _pipeline(instruction: str) -> Any:
  return _composite(
      SequentialAgent,
      'router',
      _agent('classifier', output_key='intent'),
      _agent('booker', instruction),
  )


def test_a_typo_with_no_producer_anywhere_is_an_error():
  [found] = _found(_pipeline('The request is about {intnet}.'))

  assert (found.severity, found.agent) == (Severity.ERROR, 'booker')
  assert '{intnet}' in found.message and 'KeyError' in found.message
  assert found.hint.startswith('Did you mean {intent}?')
  assert '{intnet?}' in found.hint


def test_a_key_produced_before_the_reader_is_quiet():
  assert _found(_pipeline('The request is about {intent}.')) == []


def test_a_producer_that_runs_after_the_reader_is_a_warning():
  root = _composite(
      SequentialAgent,
      'router',
      _agent('booker', 'About {intent}.'),
      _agent('classifier', output_key='intent'),
  )

  [found] = _found(root)

  assert (found.severity, found.agent) == (Severity.WARNING, 'booker')
  assert "'classifier' stores it only after 'booker'" in found.message


def test_optional_keys_artifacts_and_text_that_is_not_a_key_are_quiet():
  root = _pipeline('{intnet?} {artifact.report} {not a key} ${literal}')

  assert _found(root) == []


def test_a_callback_that_may_set_the_key_makes_it_info():
  def set_intent(callback_context):
    callback_context.state['intent'] = 'booking'

  root = _composite(
      SequentialAgent,
      'router',
      _agent('setter', before_agent_callback=set_intent),
      _agent('booker', 'About {intent}.'),
  )

  [found] = _found(root)

  assert found.severity is Severity.INFO
  assert "'setter'" in found.message and 'callback' in found.message


def test_a_later_loop_sibling_is_info_and_optional_is_quiet():
  drafter = _agent('drafter', 'Revise using {feedback}.', output_key='draft')
  critic = _agent('critic', 'Critique {draft}.', output_key='feedback')
  loop = _composite(LoopAgent, 'loop', drafter, critic, max_iterations=3)

  [found] = _found(loop)

  assert (found.agent, found.severity) == ('drafter', Severity.INFO)
  assert "'critic' stores it" in found.message

  drafter.instruction = 'Revise using {feedback?}.'
  assert _found(loop) == []
