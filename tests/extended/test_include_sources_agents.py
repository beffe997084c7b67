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

"""Tests of `LlmAgent.include_sources` through a real Runner: the fuller set."""

from __future__ import annotations

from typing import Any
from typing import Optional
import warnings

from _scripted import run_turns
from _scripted import ScriptedLlm
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest


def _lookup(city: str) -> dict[str, str]:
  """Looks up the opening hours of a restaurant in a city."""
  return {'hours': f'HOURS-OF-{city}'}


def _call_lookup(city: str) -> types.FunctionCall:
  return types.FunctionCall(name='_lookup', args={'city': city})


def _answer_once_lookup_returns(answer: str, city: str):
  """A reply that calls `_lookup` until the request holds its result."""

  def reply(llm_request: LlmRequest) -> Any:
    for content in llm_request.contents:
      for part in content.parts or []:
        if part.function_response and part.function_response.name == '_lookup':
          return answer
    return _call_lookup(city)

  return reply


def _text(llm_request: LlmRequest) -> str:
  """Renders the request contents as one string."""
  lines = []
  for content in llm_request.contents:
    for part in content.parts or []:
      if part.text:
        lines.append(f'{content.role}: {part.text}')
      if part.function_call:
        lines.append(f'{content.role}: call {part.function_call.name}')
      if part.function_response:
        lines.append(f'{content.role}: response {part.function_response.name}')
  return '\n'.join(lines)


def _sequential(*agents: LlmAgent) -> SequentialAgent:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='pipeline', sub_agents=list(agents))


async def _run(
    root: Any,
    *messages: str,
    plugins: Optional[list[BasePlugin]] = None,
    run_config: Optional[RunConfig] = None,
) -> None:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='test_app')
  else:
    runner = InMemoryRunner(
        app=App(name='test_app', root_agent=root, plugins=plugins or [])
    )
  await run_turns(runner, *messages, run_config=run_config)


def _classifier_and_booker(**booker_kwargs: Any):
  classifier_model = ScriptedLlm(strict=True, script=['CLASSIFIER-booking'] * 3)
  booker_model = ScriptedLlm(
      strict=True, script=['BOOKER-done-1', 'BOOKER-done-2']
  )
  classifier = LlmAgent(
      name='classifier',
      model=classifier_model,
      instruction='Classify the intent.',
      output_key='intent',
  )
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      instruction='Handle intent {intent}.',
      **booker_kwargs,
  )
  return classifier, booker, booker_model


@pytest.mark.asyncio
async def test_booker_sees_user_but_not_classifier_issue_2207():
  classifier, booker, unfiltered_model = _classifier_and_booker()
  await _run(_sequential(classifier, booker), 'USER-1 table for two')
  classifier, booker, booker_model = _classifier_and_booker(
      include_sources=['user', 'self']
  )

  await _run(_sequential(classifier, booker), 'USER-1 table for two')

  unfiltered = _text(unfiltered_model.requests[0])
  assert 'CLASSIFIER-booking' in unfiltered and 'For context' in unfiltered
  request = booker_model.requests[0]
  assert _text(request) == 'user: USER-1 table for two'
  # The classifier's answer still reaches the booker through {intent}.
  assert (
      'Handle intent CLASSIFIER-booking.' in request.config.system_instruction
  )


@pytest.mark.asyncio
async def test_several_turns_with_user_and_self():
  classifier, booker, booker_model = _classifier_and_booker(
      include_sources=['user', 'self']
  )
  booker_model.script.append('BOOKER-done-3')

  await _run(
      _sequential(classifier, booker),
      'USER-1 table',
      'USER-2 for three',
      'USER-3 at eight',
  )

  assert _text(booker_model.requests[-1]) == '\n'.join([
      'user: USER-1 table',
      'model: BOOKER-done-1',
      'user: USER-2 for three',
      'model: BOOKER-done-2',
      'user: USER-3 at eight',
  ])


@pytest.mark.asyncio
async def test_tool_agent_with_user_only_finishes_its_loop_in_two_calls():
  model = ScriptedLlm(
      strict=True,
      script=[
          _answer_once_lookup_returns('ANSWER-1', 'paris'),
          _answer_once_lookup_returns('ANSWER-1', 'paris'),
          _answer_once_lookup_returns('ANSWER-2', 'rome'),
          _answer_once_lookup_returns('ANSWER-2', 'rome'),
      ],
  )
  agent = LlmAgent(
      name='concierge',
      model=model,
      tools=[_lookup],
      include_sources=['user'],
  )

  await _run(
      agent,
      'USER-1 paris?',
      'USER-2 rome?',
      run_config=RunConfig(max_llm_calls=3),
  )

  assert len(model.requests) == 4
  assert _text(model.requests[1]) == '\n'.join([
      'user: USER-1 paris?',
      'model: call _lookup',
      'user: response _lookup',
  ])
  # The next invocation no longer carries the finished loop or the answer.
  assert _text(model.requests[3]) == '\n'.join([
      'user: USER-1 paris?',
      'user: USER-2 rome?',
      'model: call _lookup',
      'user: response _lookup',
  ])


def _scout_and_booker(**booker_kwargs: Any):
  scout_model = ScriptedLlm(
      strict=True, script=[_call_lookup('oslo'), 'SCOUT-found']
  )
  booker_model = ScriptedLlm(strict=True, script=['BOOKER-done'])
  scout = LlmAgent(name='scout', model=scout_model, tools=[_lookup])
  booker = LlmAgent(name='booker', model=booker_model, **booker_kwargs)
  return _sequential(scout, booker), booker_model


@pytest.mark.asyncio
async def test_peer_tool_traffic_is_dropped_with_the_peer():
  root, booker_model = _scout_and_booker(include_sources=['user'])

  await _run(root, 'USER-1 find a place')

  assert _text(booker_model.requests[0]) == 'user: USER-1 find a place'


@pytest.mark.asyncio
async def test_peer_tool_traffic_is_kept_paired_when_the_peer_is_allowed():
  root, booker_model = _scout_and_booker(include_sources=['user', 'scout'])

  await _run(root, 'USER-1 find a place')

  text = _text(booker_model.requests[0])
  assert '[scout] called tool `_lookup`' in text
  assert '[scout] `_lookup` tool returned result' in text
  assert 'HOURS-OF-oslo' in text
  assert '[scout] said:' in text and 'SCOUT-found' in text


class _RecordingPlugin(BasePlugin):

  def __init__(self) -> None:
    super().__init__(name='recorder')
    self.contents: list[list[types.Content]] = []

  async def before_model_callback(
      self, *, callback_context: CallbackContext, llm_request: LlmRequest
  ) -> Optional[LlmResponse]:
    self.contents.append(
        [c.model_copy(deep=True) for c in llm_request.contents]
    )
    return None


@pytest.mark.asyncio
async def test_plugin_sees_the_filtered_request():
  classifier, booker, booker_model = _classifier_and_booker(
      include_sources=['user']
  )
  plugin = _RecordingPlugin()

  await _run(_sequential(classifier, booker), 'USER-1 table', plugins=[plugin])

  assert plugin.contents[-1] == booker_model.requests[0].contents
  assert 'CLASSIFIER' not in _text(booker_model.requests[0])


def _workflow(**booker_kwargs: Any):
  classifier_model = ScriptedLlm(strict=True, script=['CLASSIFIER-booking'] * 3)
  booker_model = ScriptedLlm(
      strict=True, script=list(booker_kwargs.pop('script'))
  )
  classifier = LlmAgent(
      name='classifier', model=classifier_model, output_key='intent'
  )
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      instruction='Handle intent {intent}.',
      **booker_kwargs,
  )
  return (
      Workflow(name='flow', edges=[(START, classifier, booker)]),
      booker_model,
  )


@pytest.mark.asyncio
async def test_workflow_node_without_sources_receives_its_node_input():
  flow, booker_model = _workflow(script=['BOOKER-done-1', 'BOOKER-done-2'])

  await _run(flow, 'USER-1 table', 'USER-2 for three')

  assert [_text(request) for request in booker_model.requests] == [
      'user: CLASSIFIER-booking',
      'user: CLASSIFIER-booking',
  ]


@pytest.mark.asyncio
async def test_workflow_node_sees_the_user_and_itself_not_its_node_input():
  # The node input is the classifier's label: with ['user', 'self'] the
  # booker gets the user's words and its own replies, across turns.
  flow, booker_model = _workflow(
      include_sources=['user', 'self'],
      script=['BOOKER-done-1', 'BOOKER-done-2'],
  )

  await _run(flow, 'USER-1 table', 'USER-2 for three')

  assert _text(booker_model.requests[0]) == 'user: USER-1 table'
  assert _text(booker_model.requests[1]) == '\n'.join([
      'user: USER-1 table',
      'model: BOOKER-done-1',
      'user: USER-2 for three',
  ])
  assert (
      'Handle intent CLASSIFIER-booking.'
      in booker_model.requests[1].config.system_instruction
  )


@pytest.mark.asyncio
async def test_workflow_node_with_tools_finishes_its_loop():
  flow, booker_model = _workflow(
      include_sources=['user'],
      tools=[_lookup],
      script=[
          _answer_once_lookup_returns('BOOKER-done', 'lima'),
          _answer_once_lookup_returns('BOOKER-done', 'lima'),
      ],
  )

  await _run(flow, 'USER-1 table', run_config=RunConfig(max_llm_calls=4))

  assert len(booker_model.requests) == 2
  assert _text(booker_model.requests[1]) == '\n'.join([
      'user: USER-1 table',
      'model: call _lookup',
      'user: response _lookup',
  ])


async def _concierge_request(
    include_sources: list[str], imported: list[tuple[str, types.Part]]
) -> LlmRequest:
  """The request a `concierge` with `include_sources` builds after a history
  imported as one event per (author, part)."""
  model = ScriptedLlm(strict=True, script=['CONCIERGE-done'])
  agent = LlmAgent(
      name='concierge', model=model, include_sources=include_sources
  )
  runner = InMemoryRunner(app=App(name='test_app', root_agent=agent))
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  for author, part in imported:
    await runner.session_service.append_event(
        session,
        Event(
            invocation_id='imported',
            author=author,
            content=types.Content(
                role='user' if author == 'user' else 'model', parts=[part]
            ),
        ),
    )

  await run_turns(runner, 'USER-1 and rome?', session_id=session.id)
  return model.requests[0]


@pytest.mark.asyncio
@pytest.mark.parametrize('include_sources', [['self'], ['user']])
async def test_call_and_response_without_ids_are_kept_or_dropped_together(
    include_sources,
):
  # A history built by hand or imported from elsewhere has no call ids; the
  # response, authored 'user', must still follow the call it answers.
  imported = [
      ('user', types.Part(text='USER-0 hours in oslo?')),
      ('concierge', types.Part(function_call=_call_lookup('oslo'))),
      (
          'user',
          types.Part(
              function_response=types.FunctionResponse(
                  name='_lookup', response={'hours': 'HOURS-OF-oslo'}
              )
          ),
      ),
  ]
  request = await _concierge_request(include_sources, imported)

  text = _text(request)
  if include_sources == ['self']:
    assert 'call _lookup' in text and 'response _lookup' in text
  else:
    assert 'call _lookup' not in text and 'response _lookup' not in text


@pytest.mark.asyncio
async def test_an_id_less_response_answers_the_earliest_unanswered_call():
  # Two id-less calls of one tool, a peer's and then the agent's own; the
  # first answer posted back is the peer's, the second the agent's.
  imported = [
      ('scout', types.Part(function_call=_call_lookup('oslo'))),
      ('concierge', types.Part(function_call=_call_lookup('rome'))),
  ] + [
      (
          'user',
          types.Part(
              function_response=types.FunctionResponse(
                  name='_lookup', response={'hours': f'HOURS-OF-{city}'}
              )
          ),
      )
      for city in ('oslo', 'rome')
  ]
  request = await _concierge_request(['self'], imported)

  kept = [p for c in request.contents for p in c.parts]
  assert [p.function_call.args for p in kept if p.function_call] == [
      {'city': 'rome'}
  ]
  assert [
      p.function_response.response for p in kept if p.function_response
  ] == [{'hours': 'HOURS-OF-rome'}]


@pytest.mark.asyncio
async def test_a_response_answers_the_latest_call_with_its_id():
  # Call ids can repeat across invocations: a peer's answered call and, later,
  # the agent's own call with the same id, answered by the client.

  def answer(city: str) -> types.Part:
    return types.Part(
        function_response=types.FunctionResponse(
            id='call-1', name='_lookup', response={'hours': f'HOURS-OF-{city}'}
        )
    )

  def call(city: str) -> types.Part:
    return types.Part(
        function_call=types.FunctionCall(
            id='call-1', name='_lookup', args={'city': city}
        )
    )

  imported = [
      ('scout', call('oslo')),
      ('scout', answer('oslo')),
      ('concierge', call('rome')),
      ('user', answer('rome')),
  ]
  request = await _concierge_request(['self'], imported)

  kept = [p for c in request.contents for p in c.parts]
  assert [
      p.function_response.response for p in kept if p.function_response
  ] == [{'hours': 'HOURS-OF-rome'}]


class TestValidation:

  def test_defaults_to_none(self):
    assert LlmAgent(name='agent').include_sources is None

  def test_accepts_a_tuple_as_a_list(self):
    agent = LlmAgent(name='agent', include_sources=('user', 'self'))

    assert agent.include_sources == ['user', 'self']

  def test_empty_list_points_to_none(self):
    with pytest.raises(ValueError, match=r'include_sources=None'):
      LlmAgent(name='agent', include_sources=[])

  def test_bare_string_is_not_split_into_letters(self):
    with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
      LlmAgent(name='agent', include_sources='user')

  @pytest.mark.parametrize('entry', ['', '   ', 7, None])
  def test_entries_must_be_non_empty_strings(self, entry):
    with pytest.raises(ValueError, match='non-empty strings'):
      LlmAgent(name='agent', include_sources=['user', entry])

  @pytest.mark.asyncio
  async def test_a_string_assigned_later_fails_the_next_request(self):
    agent = LlmAgent(
        name='agent', model=ScriptedLlm(strict=True, script=['unused'])
    )
    agent.include_sources = 'user'

    with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
      await _run(agent, 'USER-1 hello')
