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

"""Source windows, '*' and exclude_sources, through a real Runner."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any
import warnings

from google.adk.agents import SourceWindow
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.apps.app import App
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest

warnings.filterwarnings('ignore', message=r'\[EXPERIMENTAL\]')


class _ScriptedModel(BaseLlm):
  """Replies from a script (text or a function call); records requests."""

  model: str = 'scripted'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    reply = self.script.pop(0)
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


def lookup(topic: str) -> dict[str, str]:
  """Looks up facts about a topic."""
  return {'facts': f'FACTS-{topic}'}


def _call(topic: str) -> types.FunctionCall:
  return types.FunctionCall(name='lookup', args={'topic': topic})


def _text(request: LlmRequest) -> str:
  lines = []
  for content in request.contents:
    for part in content.parts or ():
      if part.text:
        lines.append(part.text)
      if part.function_call:
        lines.append(f'call {part.function_call.name}')
      if part.function_response:
        lines.append(f'response {part.function_response.name}')
  return '\n'.join(lines)


def _assert_calls_answered(request: LlmRequest) -> None:
  """Every call in the request has its response, and every response its
  call (ids are stripped in requests, so they are counted in order)."""
  pending = 0
  for content in request.contents:
    for part in content.parts or ():
      if part.function_call:
        pending += 1
      if part.function_response:
        assert pending > 0, _text(request)
        pending -= 1
  assert pending == 0, _text(request)
  # A peer's call recast as context is text: its result must follow it.
  text = _text(request)
  assert text.count('called tool') == text.count('tool returned'), text


def _sequential(*agents: Any) -> SequentialAgent:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return SequentialAgent(name='team', sub_agents=list(agents))


async def _runner(root: Any) -> tuple[InMemoryRunner, str]:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='test_app')
  else:
    runner = InMemoryRunner(app=App(name='test_app', root_agent=root))
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  return runner, session.id


async def _send(runner: InMemoryRunner, session_id: str, *messages: str):
  for message in messages:
    async for _ in runner.run_async(
        user_id='user',
        session_id=session_id,
        new_message=types.Content(
            role='user', parts=[types.Part(text=message)]
        ),
    ):
      pass


async def _run(root: Any, *messages: str) -> None:
  runner, session_id = await _runner(root)
  await _send(runner, session_id, *messages)


def _team(turns: int, **writer_kwargs: Any):
  """A planner, a researcher with a tool, and a writer, for `turns` turns."""
  planner = LlmAgent(
      name='planner',
      model=_ScriptedModel(script=[f'PLAN-{n}' for n in range(1, turns + 1)]),
  )
  researcher_script: list[Any] = []
  for n in range(1, turns + 1):
    researcher_script += [_call(f't{n}'), f'RESEARCH-{n}']
  researcher = LlmAgent(
      name='researcher',
      model=_ScriptedModel(script=researcher_script),
      tools=[lookup],
  )
  writer_model = _ScriptedModel(
      script=[f'DRAFT-{n}' for n in range(1, turns + 1)]
  )
  writer = LlmAgent(name='writer', model=writer_model, **writer_kwargs)
  return _sequential(planner, researcher, writer), writer_model


@pytest.mark.asyncio
async def test_last_item_of_a_peer_keeps_a_call_with_its_response():
  # The researcher's items in turn 2: its call with the response (one item),
  # then its answer. last=1 is the answer; last=2 adds the call and result
  # together, never one without the other.
  team, writer_model = _team(
      2, include_sources=['user', SourceWindow('researcher', last=1)]
  )
  await _run(team, 'USER-1', 'USER-2')
  text = _text(writer_model.requests[-1])
  assert 'RESEARCH-2' in text and 'RESEARCH-1' not in text
  assert 'lookup' not in text

  team, writer_model = _team(
      2, include_sources=['user', SourceWindow('researcher', last=2)]
  )
  await _run(team, 'USER-1', 'USER-2')
  request = writer_model.requests[-1]
  text = _text(request)
  assert 'RESEARCH-2' in text and 'RESEARCH-1' not in text
  assert 'FACTS-t2' in text and 'FACTS-t1' not in text
  _assert_calls_answered(request)


@pytest.mark.asyncio
async def test_final_answers_only_drops_a_peers_tool_traffic():
  team, writer_model = _team(
      3,
      include_sources=[
          'user',
          SourceWindow('researcher', final_answers_only=True),
      ],
  )
  await _run(team, 'USER-1', 'USER-2', 'USER-3')
  text = _text(writer_model.requests[-1])
  for n in (1, 2, 3):
    assert f'RESEARCH-{n}' in text
  assert 'lookup' not in text and 'FACTS' not in text


@pytest.mark.asyncio
async def test_first_and_last_user_messages():
  team, writer_model = _team(
      3, include_sources=[SourceWindow('user', first=1, last=1), 'self']
  )
  await _run(team, 'USER-1', 'USER-2', 'USER-3')
  text = _text(writer_model.requests[-1])
  assert 'USER-1' in text and 'USER-3' in text and 'USER-2' not in text
  assert 'DRAFT-1' in text and 'DRAFT-2' in text


@pytest.mark.asyncio
async def test_in_flight_tool_loop_is_kept_whatever_the_self_window():
  # last=1 on 'self': the earlier answer DONE-2 is its last item; the call
  # made in this turn and its result are kept besides and not counted.
  model = _ScriptedModel(
      script=[
          _call('a'),
          'DONE-1',
          _call('b'),
          'DONE-2',
          _call('c'),
          'DONE-3',
      ]
  )
  agent = LlmAgent(
      name='solo',
      model=model,
      tools=[lookup],
      include_sources=['user', SourceWindow('self', last=1)],
  )
  await _run(agent, 'USER-1', 'USER-2', 'USER-3')
  request = model.requests[-1]
  text = _text(request)
  assert 'DONE-2' in text and 'DONE-1' not in text
  assert text.endswith('USER-3\ncall lookup\nresponse lookup')
  assert text.count('call lookup') == 1
  _assert_calls_answered(request)
  assert len(model.requests) == 6  # no call was made twice


@pytest.mark.asyncio
async def test_exclude_sources_admits_a_peer_added_later():
  planner = LlmAgent(name='planner', model=_ScriptedModel(script=['PLAN']))
  researcher = LlmAgent(
      name='researcher', model=_ScriptedModel(script=['RESEARCH'])
  )
  critic = LlmAgent(name='critic', model=_ScriptedModel(script=['CRITIQUE']))
  reviewer_model = _ScriptedModel(script=['REVIEW'])
  reviewer = LlmAgent(
      name='reviewer', model=reviewer_model, exclude_sources=['researcher']
  )
  await _run(_sequential(planner, researcher, critic, reviewer), 'USER-1')
  text = _text(reviewer_model.requests[-1])
  assert 'USER-1' in text and 'PLAN' in text and 'CRITIQUE' in text
  assert 'RESEARCH' not in text


@pytest.mark.asyncio
async def test_star_with_a_window_and_an_exclusion():
  team, writer_model = _team(
      2,
      include_sources=['*', SourceWindow('planner', last=1)],
      exclude_sources=['researcher'],
  )
  await _run(team, 'USER-1', 'USER-2')
  text = _text(writer_model.requests[-1])
  assert 'PLAN-2' in text and 'PLAN-1' not in text
  assert 'USER-1' in text and 'DRAFT-1' in text
  assert 'RESEARCH' not in text and 'lookup' not in text


@pytest.mark.asyncio
async def test_turn_boundary_comes_from_admitted_sources():
  # 'none' starts the turn at the newest message from an admitted source:
  # the planner is excluded, so the turn starts at the user's message.
  planner = LlmAgent(name='planner', model=_ScriptedModel(script=['PLAN']))
  writer_model = _ScriptedModel(script=['DRAFT'])
  writer = LlmAgent(
      name='writer',
      model=writer_model,
      include_contents='none',
      exclude_sources=['planner'],
  )
  await _run(_sequential(planner, writer), 'USER-1')
  assert _text(writer_model.requests[-1]) == 'USER-1'

  # A window does not move the boundary: 'current' starts at the latest user
  # message, and the window counts within the turn.
  team, writer_model = _team(
      2,
      include_contents='current',
      include_sources=['user', SourceWindow('planner', last=1)],
  )
  await _run(team, 'USER-1', 'USER-2')
  text = _text(writer_model.requests[-1])
  assert 'USER-2' in text and 'PLAN-2' in text
  assert 'USER-1' not in text and 'PLAN-1' not in text


@pytest.mark.asyncio
async def test_workflow_node_input_is_an_item_of_its_producer():
  classifier = LlmAgent(
      name='classifier',
      model=_ScriptedModel(script=['LABEL-1', 'LABEL-2']),
      output_key='intent',
  )
  booker_model = _ScriptedModel(script=['BOOKED-1', 'BOOKED-2'])
  booker = LlmAgent(
      name='booker',
      model=booker_model,
      include_sources=[
          SourceWindow('user', last=1),
          SourceWindow('classifier', last=1),
          'self',
      ],
  )
  await _run(
      Workflow(name='router', edges=[(START, classifier, booker)]),
      'USER-1',
      'USER-2',
  )
  text = _text(booker_model.requests[-1])
  assert 'USER-2' in text and 'USER-1' not in text
  # The label is its reply and the node input: one item, shown once.
  assert text.count('LABEL-2') == 1 and 'LABEL-1' not in text
  assert 'BOOKED-1' in text


@pytest.mark.asyncio
async def test_compaction_summary_follows_the_windows():
  async def request_with(window: SourceWindow) -> str:
    model = _ScriptedModel(script=['ANSWER'])
    agent = LlmAgent(name='solo', model=model, include_sources=[window])
    runner, session_id = await _runner(agent)
    session = await runner.session_service.get_session(
        app_name='test_app', user_id='user', session_id=session_id
    )
    old = []
    for n, timestamp in ((1, 1.0), (2, 2.0)):
      event = Event(
          author='user',
          invocation_id=f'old-{n}',
          timestamp=timestamp,
          content=types.Content(
              role='user', parts=[types.Part(text=f'USER-{n}')]
          ),
      )
      old.append(await runner.session_service.append_event(session, event))
    summary = Event(
        author='user',
        invocation_id='old-2',
        timestamp=3.0,
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=1.0,
                end_timestamp=1.0,
                compacted_content=types.Content(
                    role='model', parts=[types.Part(text='SUMMARY-OF-1')]
                ),
            )
        ),
    )
    await runner.session_service.append_event(session, summary)
    await _send(runner, session_id, 'USER-3')
    return _text(model.requests[-1])

  # The summary covers USER-1, outside the last two items: dropped.
  text = await request_with(SourceWindow('user', last=2))
  assert 'SUMMARY-OF-1' not in text and 'USER-2' in text and 'USER-3' in text
  # first=1 keeps USER-1, so its summary stays (as the summary).
  text = await request_with(SourceWindow('user', first=1, last=1))
  assert 'SUMMARY-OF-1' in text and 'USER-2' not in text


@pytest.mark.asyncio
async def test_live_transcription_fragments_are_one_item():
  model = _ScriptedModel(script=['ANSWER'])
  agent = LlmAgent(
      name='solo',
      model=model,
      include_sources=[SourceWindow('user', last=2)],
  )
  runner, session_id = await _runner(agent)
  session = await runner.session_service.get_session(
      app_name='test_app', user_id='user', session_id=session_id
  )
  typed = Event(
      author='user',
      invocation_id='live',
      content=types.Content(role='user', parts=[types.Part(text='TYPED')]),
  )
  await runner.session_service.append_event(session, typed)
  for fragment in ('hel', 'lo ', 'there'):
    await runner.session_service.append_event(
        session,
        Event(
            author='user',
            invocation_id='live',
            input_transcription=types.Transcription(text=fragment),
        ),
    )
  await _send(runner, session_id, 'USER-NEW')
  text = _text(model.requests[-1])
  # Items: TYPED, the utterance "hello there", USER-NEW: last=2 keeps the
  # whole utterance and the new message.
  assert 'hello there' in text and 'USER-NEW' in text
  assert 'TYPED' not in text


@pytest.mark.asyncio
async def test_a_windowed_out_utterance_loses_every_fragment():
  model = _ScriptedModel(script=['ANSWER'])
  agent = LlmAgent(
      name='solo',
      model=model,
      include_sources=[SourceWindow('user', last=1)],
  )
  runner, session_id = await _runner(agent)
  session = await runner.session_service.get_session(
      app_name='test_app', user_id='user', session_id=session_id
  )
  for fragment in ('hel', 'lo ', 'there'):
    await runner.session_service.append_event(
        session,
        Event(
            author='user',
            invocation_id='live',
            input_transcription=types.Transcription(text=fragment),
        ),
    )
  await _send(runner, session_id, 'USER-NEW')
  # Items: the utterance "hello there", USER-NEW: last=1 keeps the new
  # message and none of the utterance's fragments.
  assert _text(model.requests[-1]) == 'USER-NEW'


@pytest.mark.asyncio
async def test_windows_that_admit_everything_equal_the_plain_list():
  plain_team, plain_model = _team(
      3, include_sources=['user', 'self', 'planner', 'researcher']
  )
  await _run(plain_team, 'USER-1', 'USER-2', 'USER-3')
  big = 10**6
  window_team, window_model = _team(
      3,
      include_sources=[
          SourceWindow('user', last=big),
          SourceWindow('self', first=big),
          SourceWindow('planner', last=big, first=1),
          SourceWindow('researcher', last=big),
      ],
  )
  await _run(window_team, 'USER-1', 'USER-2', 'USER-3')
  assert [r.contents for r in window_model.requests] == [
      r.contents for r in plain_model.requests
  ]
  star_team, star_model = _team(3, include_sources=['*'])
  await _run(star_team, 'USER-1', 'USER-2', 'USER-3')
  assert [r.contents for r in star_model.requests] == [
      r.contents for r in plain_model.requests
  ]


@pytest.mark.parametrize(
    'kwargs, message',
    [
        ({'last': -1}, 'must be >= 0'),
        ({'last': True}, 'whole number'),
        ({'first': 1.5}, 'whole number'),
        ({'last': '2'}, 'whole number'),
        ({}, 'sets no window'),
        ({'final_answers_only': False}, 'sets no window'),
        ({'lasst': 1}, 'lasst'),
    ],
)
def test_bad_windows_are_clear_errors(kwargs, message):
  with pytest.raises(ValueError, match=message):
    SourceWindow('planner', **kwargs)


def test_a_window_on_star_is_rejected():
  with pytest.raises(ValueError, match='Name the sources'):
    SourceWindow('*', last=1)


@pytest.mark.parametrize(
    'kwargs, message',
    [
        (
            {'include_sources': ['user'], 'exclude_sources': ['planner']},
            "Add '\\*'",
        ),
        (
            {
                'include_sources': ['*', 'planner'],
                'exclude_sources': ['planner'],
            },
            'both included',
        ),
        (
            {
                'include_sources': [
                    '*',
                    SourceWindow('planner', last=1),
                ],
                'exclude_sources': ['planner'],
            },
            'both included',
        ),
        (
            {'include_sources': ['planner', SourceWindow('planner', last=1)]},
            'Keep one',
        ),
        ({'exclude_sources': 'planner'}, "exclude_sources=\\['planner'\\]"),
        ({'exclude_sources': []}, 'excludes nothing'),
        ({'exclude_sources': ['*']}, 'every source'),
    ],
)
def test_bad_combinations_are_clear_errors(kwargs, message):
  with pytest.raises(ValueError, match=message):
    LlmAgent(name='writer', **kwargs)


@pytest.mark.asyncio
async def test_an_exclusion_assigned_later_is_checked_at_the_next_request():
  model = _ScriptedModel(script=['ANSWER'])
  agent = LlmAgent(name='solo', model=model, include_sources=['user'])
  agent.exclude_sources = ['user']
  with pytest.raises(ValueError, match="Add '\\*'"):
    await _run(agent, 'USER-1')
