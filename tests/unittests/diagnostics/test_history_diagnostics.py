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

"""ADK-D102 and ADK-D103: what an agent receives in its history.

Where a finding depends on what the model receives, a Runner with a model
that records its requests shows that the finding matches the request.
"""

from __future__ import annotations

import ast
from collections.abc import AsyncGenerator
import re
from typing import Any
import warnings

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import Diagnostic
from google.adk.diagnostics import Severity
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _RecordingModel(BaseLlm):
  """Replies with a fixed text and records every request."""

  model: str = 'recording'
  reply: str = 'ok'
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=self.reply)])
    )


def _agent(name: str, instruction: str = 'Help.', **kwargs: Any) -> LlmAgent:
  kwargs.setdefault('model', _RecordingModel(reply=f'reply of {name}'))
  return LlmAgent(name=name, instruction=instruction, **kwargs)


def _sequence(*sub_agents: Any) -> Any:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='pipeline', sub_agents=list(sub_agents))


def _found(root: Any, code: str) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == code]


async def _request_of(root: Any, agent: LlmAgent) -> LlmRequest:
  """Runs the tree on one user message; returns ``agent``'s model request."""
  runner = InMemoryRunner(node=root, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  message = types.Content(role='user', parts=[types.Part(text='hello')])
  async for _ in runner.run_async(
      user_id='user', session_id=session.id, new_message=message
  ):
    pass
  [request] = agent.model.requests
  return request


def _history(request: LlmRequest) -> str:
  return ' '.join(
      part.text or '' for content in request.contents for part in content.parts
  )


def _hinted_sources(found: Diagnostic) -> list[str]:
  """The include_sources the hint says to set."""
  match = re.search(r'set include_sources=(\[.*?\])', found.hint)
  assert match, found.hint
  return ast.literal_eval(match.group(1))


class TestInternalReplyUnused:
  """ADK-D102: an internal agent without output_key."""

  def test_a_reply_nobody_receives_is_a_warning(self):
    root = _sequence(
        _agent('researcher'), _agent('writer', include_sources=['user', 'self'])
    )

    [found] = _found(root, 'ADK-D102')

    assert (found.severity, found.agent) == (Severity.WARNING, 'researcher')
    assert 'filter mode' in found.message and 'output_key' in found.hint

  async def test_a_reply_the_next_agent_sees_with_contents_none_is_info(self):
    drafter = _agent('drafter')
    editor = _agent('editor', include_contents='none')
    root = _sequence(drafter, editor)

    request = await _request_of(root, editor)
    [found] = _found(root, 'ADK-D102')

    assert 'reply of drafter' in _history(request)
    assert (found.severity, found.agent) == (Severity.INFO, 'drafter')
    assert "reaches 'editor'" in found.message

  async def test_contents_none_sees_only_the_agent_just_before(self):
    first = _agent('first')
    second = _agent('second', output_key='notes', include_sources=['user'])
    last = _agent('last', include_contents='none')
    root = _sequence(first, second, last)

    request = await _request_of(root, last)
    [found] = _found(root, 'ADK-D102')

    assert 'reply of first' not in _history(request)
    assert (found.severity, found.agent) == (Severity.WARNING, 'first')

  def test_output_key_user_visibility_and_workflow_inputs_are_quiet(self):
    root = _sequence(
        _agent('researcher', output_key='notes'),
        _agent('writer', include_sources=['user']),
    )
    shown = _sequence(
        _agent('researcher', visibility='user'),
        _agent('writer', include_sources=['user']),
    )
    flow = Workflow(
        name='flow', edges=[(START, _agent('researcher'), _agent('writer'))]
    )

    assert _found(root, 'ADK-D102') == []
    assert _found(shown, 'ADK-D102') == []
    assert _found(flow, 'ADK-D102') == []


class TestSameDataTwice:
  """ADK-D103: a reply received through {key} and through history."""

  def test_default_history_and_a_template_is_info(self):
    root = _sequence(
        _agent('classifier', output_key='intent'),
        _agent('booker', 'About {intent}.'),
    )

    [found] = _found(root, 'ADK-D103')

    assert (found.severity, found.agent) == (Severity.INFO, 'booker')
    assert "'classifier'" in found.message and '{intent}' in found.message
    assert "include_sources=['user', 'self']" in found.hint

  async def test_contents_none_still_receives_the_previous_reply(self):
    classifier = _agent('classifier', output_key='intent')
    booker = _agent('booker', 'About {intent}.', include_contents='none')
    root = _sequence(classifier, booker)

    request = await _request_of(root, booker)
    [found] = _found(root, 'ADK-D103')

    assert 'About reply of classifier.' in request.config.system_instruction
    assert 'reply of classifier' in _history(request)
    assert found.agent == 'booker'

  async def test_leaving_the_producer_out_of_include_sources_is_quiet(self):
    classifier = _agent('classifier', output_key='intent')
    booker = _agent(
        'booker',
        'About {intent}.',
        include_contents='none',
        include_sources=['user', 'self'],
    )
    root = _sequence(classifier, booker)

    request = await _request_of(root, booker)

    assert 'reply of classifier' not in _history(request)
    assert _found(root, 'ADK-D103') == []

  def test_naming_the_producer_in_include_sources_fires(self):
    root = _sequence(
        _agent('classifier', output_key='intent'),
        _agent('booker', 'About {intent}.', include_sources=['classifier']),
    )

    [found] = _found(root, 'ADK-D103')

    assert "include_sources=['user']" in found.hint

  def test_the_fix_for_exclusions_keeps_no_misspelt_name(self):
    root = _sequence(
        _agent('classifier', output_key='intent'),
        _agent('booker', 'About {intent}.', exclude_sources=['clasifier']),
    )

    [found] = _found(root, 'ADK-D103')

    # The misspelt name excludes nobody (ADK-D104 says so); the fix is the
    # list that drops the classifier's reply, not the typo beside it.
    assert "exclude_sources=['classifier']" in found.hint
    assert 'clasifier' not in found.hint


def _router(
    instruction: str = 'About {intent}.', **booker_kwargs: Any
) -> tuple[Workflow, LlmAgent, str]:
  """A classifier, booker workflow: the booker reads the {intent} label."""
  classifier = _agent('classifier', output_key='intent')
  booker = _agent('booker', instruction, **booker_kwargs)
  return (
      Workflow(name='router', edges=[(START, classifier, booker)]),
      booker,
      'classifier',
  )


def _research(**writer_kwargs: Any) -> tuple[Workflow, LlmAgent, str]:
  writer = _agent('writer', 'Write from {notes}.', **writer_kwargs)
  researcher = _agent('researcher', output_key='notes')
  flow = Workflow(
      name='pipeline', edges=[(START, researcher, writer, _agent('editor'))]
  )
  return flow, writer, 'researcher'


class TestWorkflowNodeInput:
  """A workflow node receives its predecessor's output as its node input."""

  @pytest.mark.parametrize(
      'build, kwargs, channel',
      [
          (_router, {}, "as its node input from 'classifier'"),
          (_research, {}, "as its node input from 'researcher'"),
          (
              _router,
              {'include_sources': ['user', 'classifier']},
              'as a message in its conversation history',
          ),
      ],
  )
  async def test_the_hint_drops_the_second_channel(
      self, build, kwargs, channel
  ):
    root, reader, producer = build(**kwargs)
    [found] = _found(root, 'ADK-D103')
    fixed, fixed_reader, _ = build(include_sources=_hinted_sources(found))

    before = await _request_of(root, reader)
    after = await _request_of(fixed, fixed_reader)

    assert found.agent == reader.name and channel in found.message
    assert _found(fixed, 'ADK-D103') == []
    assert f'reply of {producer}' in _history(before)
    assert f'reply of {producer}' not in _history(after)
    assert 'hello' in _history(after)
    assert f'reply of {producer}' in after.config.system_instruction

  async def test_removing_the_key_is_the_other_fix(self):
    root, _, _ = _router()
    fixed, booker, _ = _router(instruction='Help the user.')

    [found] = _found(root, 'ADK-D103')
    request = await _request_of(fixed, booker)

    assert 'or remove {intent} from its instruction' in found.hint
    assert _found(fixed, 'ADK-D103') == []
    assert 'reply of classifier' not in request.config.system_instruction
    assert 'reply of classifier' in _history(request)

  async def test_a_route_function_in_between_passes_no_node_input(self):
    def route(node_input: Any):
      return Event(route='booking')

    booker = _agent('booker', 'About {intent}.')
    flow = Workflow(
        name='router',
        edges=[
            (START, _agent('classifier', output_key='intent'), route),
            (route, {'booking': booker}),
        ],
    )

    request = await _request_of(flow, booker)

    assert 'reply of classifier' not in _history(request)
    assert _found(flow, 'ADK-D103') == []

  async def test_a_successor_that_drops_the_input_leaves_the_reply_unused(
      self,
  ):
    def pipeline(*sources: str) -> tuple[Workflow, LlmAgent]:
      writer = _agent('writer', include_sources=['user', 'self', *sources])
      edges = [(START, _agent('researcher'), writer)]
      return Workflow(name='pipeline', edges=edges), writer

    root, writer = pipeline()
    [found] = _found(root, 'ADK-D102')
    fixed, fixed_writer = pipeline('researcher')  # The hint, applied.

    before = await _request_of(root, writer)
    after = await _request_of(fixed, fixed_writer)

    assert (found.severity, found.agent) == (Severity.WARNING, 'researcher')
    assert (
        "add 'researcher' to the include_sources of the node after it"
        in found.hint
    )
    assert _found(fixed, 'ADK-D102') == []
    assert 'reply of researcher' not in _history(before)
    assert 'reply of researcher' in _history(after)
