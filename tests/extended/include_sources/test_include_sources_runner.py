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

"""End-to-end tests of `LlmAgent.include_sources` through a real Runner."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Callable
from typing import Any
from typing import Optional
import warnings

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest

_Reply = str | types.FunctionCall | Callable[[LlmRequest], Any]


class _ScriptedModel(BaseLlm):
  """Returns scripted replies and records every request it receives.

  A reply is text, a function call, or a callable that picks one of those
  from the request, for a model that reacts to what it was shown.
  """

  model: str = 'scripted'
  script: list[_Reply] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    if not self.script:
      raise AssertionError(f'Unexpected model call #{len(self.requests)}.')
    reply = self.script.pop(0)
    if callable(reply):
      reply = reply(llm_request)
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


def _lookup(city: str) -> dict[str, str]:
  """Looks up the opening hours of a restaurant in a city."""
  return {'hours': f'HOURS-OF-{city}'}


def _call_lookup(city: str) -> types.FunctionCall:
  return types.FunctionCall(name='_lookup', args={'city': city})


def _answer_once_lookup_returns(answer: str, city: str):
  """A reply that calls `_lookup` until the request holds its result."""

  def reply(llm_request: LlmRequest) -> _Reply:
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
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  for message in messages:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.Content(
            role='user', parts=[types.Part(text=message)]
        ),
        run_config=run_config,
    ):
      pass


def _classifier_and_booker(**booker_kwargs: Any):
  classifier_model = _ScriptedModel(script=['CLASSIFIER-booking'] * 3)
  booker_model = _ScriptedModel(script=['BOOKER-done-1', 'BOOKER-done-2'])
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
async def test_include_contents_none_with_user_keeps_the_user_message():
  classifier, booker, unfiltered_model = _classifier_and_booker(
      include_contents='none'
  )
  await _run(_sequential(classifier, booker), 'USER-1 table for two')
  classifier, booker, booker_model = _classifier_and_booker(
      include_contents='none', include_sources=['user']
  )

  await _run(_sequential(classifier, booker), 'USER-1 table for two')

  assert 'USER-1' not in _text(unfiltered_model.requests[0])
  assert _text(booker_model.requests[0]) == 'user: USER-1 table for two'


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
  model = _ScriptedModel(
      script=[
          _answer_once_lookup_returns('ANSWER-1', 'paris'),
          _answer_once_lookup_returns('ANSWER-1', 'paris'),
          _answer_once_lookup_returns('ANSWER-2', 'rome'),
          _answer_once_lookup_returns('ANSWER-2', 'rome'),
      ]
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
  scout_model = _ScriptedModel(script=[_call_lookup('oslo'), 'SCOUT-found'])
  booker_model = _ScriptedModel(script=['BOOKER-done'])
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


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ('include_contents', 'include_sources', 'expected'),
    [
        (
            'current',
            None,
            ['user: USER-2 for three', 'user: [classifier] said: CLASSIFIER'],
        ),
        ('current', ['user', 'self'], ['user: USER-2 for three']),
        ('current', ['classifier'], ['user: [classifier] said: CLASSIFIER']),
        ('none', None, ['user: [classifier] said: CLASSIFIER']),
        ('none', ['user'], ['user: USER-2 for three']),
        (
            'none',
            ['user', 'classifier'],
            ['user: [classifier] said: CLASSIFIER'],
        ),
    ],
)
async def test_include_contents_modes_with_sources(
    include_contents, include_sources, expected
):
  classifier, booker, booker_model = _classifier_and_booker(
      include_contents=include_contents, include_sources=include_sources
  )

  await _run(
      _sequential(classifier, booker), 'USER-1 table', 'USER-2 for three'
  )

  lines = []
  for content in booker_model.requests[-1].contents:
    texts = [p.text for p in content.parts if p.text]
    said = [t for t in texts if t.startswith('[classifier] said:')]
    if said:
      lines.append(f'{content.role}: [classifier] said: CLASSIFIER')
    else:
      lines.extend(f'{content.role}: {t}' for t in texts)
  assert lines == expected


@pytest.mark.asyncio
async def test_llm_transfer_to_a_filtered_sub_agent():
  coordinator_model = _ScriptedModel(
      script=[
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          )
      ]
  )
  booker_model = _ScriptedModel(script=['BOOKER-1', 'BOOKER-2'])
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
  coordinator_model = _ScriptedModel(
      script=[
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          )
      ]
  )
  booker_model = _ScriptedModel(script=['BOOKER-1'])
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
  critic_model = _ScriptedModel(script=['CRITIC-1', 'CRITIC-2'])
  writer_model = _ScriptedModel(script=['WRITER-1', 'WRITER-2'])
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
  north_model = _ScriptedModel(script=['NORTH-result'])
  south_model = _ScriptedModel(script=['SOUTH-result'])
  merger_model = _ScriptedModel(script=['MERGED'])
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


def _workflow(**booker_kwargs: Any):
  classifier_model = _ScriptedModel(script=['CLASSIFIER-booking'])
  booker_model = _ScriptedModel(script=list(booker_kwargs.pop('script')))
  classifier = LlmAgent(name='classifier', model=classifier_model)
  booker = LlmAgent(name='booker', model=booker_model, **booker_kwargs)
  return (
      Workflow(name='flow', edges=[(START, classifier, booker)]),
      booker_model,
  )


@pytest.mark.asyncio
@pytest.mark.parametrize('include_sources', [None, ['self'], ['classifier']])
async def test_workflow_node_always_receives_its_input(include_sources):
  flow, booker_model = _workflow(
      include_sources=include_sources, script=['BOOKER-done']
  )

  await _run(flow, 'USER-1 table')

  assert _text(booker_model.requests[0]) == 'user: CLASSIFIER-booking'


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
      'user: CLASSIFIER-booking',
      'model: call _lookup',
      'user: response _lookup',
  ])


@pytest.mark.asyncio
@pytest.mark.parametrize('include_sources', [None, ['user']])
async def test_current_after_a_transfer_starts_at_the_user_message(
    include_sources,
):
  coordinator_model = _ScriptedModel(
      script=[
          'COORDINATOR-1',
          types.FunctionCall(
              name='transfer_to_agent', args={'agent_name': 'booker'}
          ),
      ]
  )
  booker_model = _ScriptedModel(script=['BOOKER-1'])
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      description='Books tables.',
      include_contents='current',
      include_sources=include_sources,
  )
  coordinator = LlmAgent(
      name='coordinator', model=coordinator_model, sub_agents=[booker]
  )

  await _run(coordinator, 'USER-1 hello', 'USER-2 now book')

  text = _text(booker_model.requests[0])
  assert text.startswith('user: USER-2 now book')
  assert 'USER-1' not in text and 'COORDINATOR-1' not in text
  # The transfer is context, shown unless the coordinator is filtered out.
  shows_transfer = '[coordinator] called tool `transfer_to_agent`' in text
  assert shows_transfer == (include_sources is None)
