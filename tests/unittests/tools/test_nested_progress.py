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

"""Nested progress of agents run as tools, and one message per turn.

An assistant calls an ``AgentTool`` researcher (which searches), a
``'minimal'`` tool, a ``'hidden'`` tool and a tool the client answers, then
answers. Real Runner, scripted models.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.events._client_errors import ERROR_EVENT_MESSAGE
from google.adk.events.event import Event
from google.adk.events.user_messages import user_messages
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
from pydantic import ValidationError
import pytest

_ANSWER = 'Quokkas live on Rottnest Island; your gold tier covers the ferry.'
_FOUND = 'Quokkas live on Rottnest Island.'


class _ScriptedLlm(BaseLlm):
  """Answers its n-th request in a turn with ``script[n]``."""

  model: str = 'scripted'
  script: list[types.Part]

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    replies = sum(1 for c in llm_request.contents if c.role == 'model')
    part = self.script[min(replies, len(self.script) - 1)]
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _call(name: str, **args: Any) -> types.Part:
  return types.Part(function_call=types.FunctionCall(name=name, args=args))


def search(query: str) -> dict[str, Any]:
  """Searches the web."""
  return {'hits': [_FOUND], 'query': query}


def lookup_account(user: str) -> dict[str, str]:
  """Looks up the user's account."""
  return {'tier': 'gold-7731', 'user': user}


def audit(note: str) -> dict[str, str]:
  """Writes an audit note."""
  return {'audit': 'audit-secret-5120', 'note': note}


def ask_user_to_confirm(question: str) -> None:
  """Asks the user, in the client, to confirm."""
  del question


def _assistant(researcher_visibility: str | None = None) -> LlmAgent:
  researcher = LlmAgent(
      name='researcher',
      description='Researches a topic.',
      model=_ScriptedLlm(
          script=[
              _call('search', query='quokka habitat'),
              types.Part(text=_FOUND),
          ]
      ),
      tools=[search],
  )
  researcher_tool = AgentTool(researcher)
  researcher_tool.user_visibility = researcher_visibility
  account = FunctionTool(lookup_account)
  account.user_visibility = 'minimal'
  audit_tool = FunctionTool(audit)
  audit_tool.user_visibility = 'hidden'
  return LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('researcher', request='Where do quokkas live?'),
              _call('lookup_account', user='u1'),
              _call('audit', note='researched'),
              _call('ask_user_to_confirm', question='Book the ferry?'),
              types.Part(text=_ANSWER),
          ]
      ),
      tools=[
          researcher_tool,
          account,
          audit_tool,
          LongRunningFunctionTool(ask_user_to_confirm),
      ],
  )


async def _ask(
    runner: InMemoryRunner, *texts: str, **run_kwargs: Any
) -> tuple[list[Event], list[Event]]:
  """Sends the user's messages in a new session; returns live and stored."""
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  live = [
      event
      for text in texts
      async for event in runner.run_async(
          user_id='u',
          session_id=session.id,
          new_message=types.UserContent(text),
          **run_kwargs,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name='app', user_id='u', session_id=session.id
  )
  assert stored is not None
  return live, stored.events


async def _run_turn(
    agent: LlmAgent, run_config: RunConfig
) -> tuple[list[Event], list[Event]]:
  """Runs the turn, answering the client tool; returns live and stored."""
  runner = InMemoryRunner(agent=agent, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  live: list[Event] = []
  async for event in runner.run_async(
      user_id='u',
      session_id=session.id,
      new_message=types.UserContent('Where do quokkas live?'),
      run_config=run_config,
      yield_user_message=True,
  ):
    live.append(event)
  asked = next(
      call
      for event in live
      for call in event.get_function_calls()
      if call.name == 'ask_user_to_confirm'
  )
  answer = types.UserContent(
      parts=[
          types.Part(
              function_response=types.FunctionResponse(
                  id=asked.id, name=asked.name, response={'answer': 'yes'}
              )
          )
      ]
  )
  async for event in runner.run_async(
      user_id='u',
      session_id=session.id,
      new_message=answer,
      run_config=run_config,
      yield_user_message=True,
  ):
    live.append(event)
  stored = await runner.session_service.get_session(
      app_name='app', user_id='u', session_id=session.id
  )
  assert stored is not None
  return live, stored.events


def _progress(events: list[Event]) -> list[dict[str, Any]]:
  return [
      e.custom_metadata['adk_progress']
      for e in events
      if e.custom_metadata and 'adk_progress' in e.custom_metadata
  ]


def _researcher_progress(
    live: list[Event],
) -> tuple[types.FunctionCall, list[dict[str, Any]]]:
  """The researcher's call, and the progress that arrived before its answer."""
  researcher_call = next(
      call
      for event in live
      for call in event.get_function_calls()
      if call.name == 'researcher'
  )
  response_at = next(
      i
      for i, event in enumerate(live)
      if any(r.name == 'researcher' for r in event.get_function_responses())
  )
  return researcher_call, _progress(live[:response_at])


def _shape(messages: Any) -> list[tuple[str, list[Any]]]:
  """Messages without ids: role and, per part, what a client draws."""
  shaped = []
  for message in messages:
    parts = []
    for part in message.parts:
      if part.type == 'tool':
        parts.append(
            ('tool', part.tool.name, part.tool.level, part.tool.status)
        )
      elif part.type == 'agent':
        steps = [(s.name, s.status) for s in part.agent.steps]
        parts.append(('agent', part.agent.agent, part.agent.status, steps))
      else:
        parts.append((part.type, part.text))
    shaped.append((message.role, parts))
  return shaped


@pytest.mark.asyncio
async def test_the_researchers_work_streams_live_attributed_to_its_call():
  live, _ = await _run_turn(
      _assistant(),
      RunConfig(visibility_mode='filter', nested_progress='minimal'),
  )

  researcher_call, progress = _researcher_progress(live)
  assert [(p['status'], p.get('step', {}).get('status')) for p in progress] == [
      ('started', None),
      ('step', 'running'),
      ('step', 'done'),
      ('finished', None),
  ]
  assert {p['run'] for p in progress} == {researcher_call.id}
  assert {p['agent'] for p in progress} == {'researcher'}
  assert progress[1]['step']['name'] == 'search'
  # 'minimal': names and status, not the search's arguments or hits.
  assert 'args' not in progress[1]['step']
  assert 'result' not in progress[2]['step']
  progress_events = [
      e
      for e in live
      if e.custom_metadata and 'adk_progress' in e.custom_metadata
  ]
  assert all(e.partial and e.content is None for e in progress_events)
  assert not any(e.is_final_response() for e in progress_events)


@pytest.mark.asyncio
async def test_the_turn_is_one_message_and_a_reload_shows_the_same():
  live, stored = await _run_turn(
      _assistant(),
      RunConfig(visibility_mode='filter', nested_progress='minimal'),
  )

  messages = user_messages(stored)

  assert _shape(messages) == [
      ('user', [('text', 'Where do quokkas live?')]),
      (
          'assistant',
          [
              ('agent', 'researcher', 'finished', [('search', 'done')]),
              ('tool', 'lookup_account', 'minimal', 'done'),
              ('tool', 'ask_user_to_confirm', 'full', 'done'),
              ('text', _ANSWER),
          ],
      ),
  ]
  client_card = messages[1].parts[2].tool
  assert client_card.client
  assert client_card.args == {'question': 'Book the ferry?'}
  assert client_card.result == {'answer': 'yes'}
  dumped = str([m.model_dump() for m in messages])
  assert 'audit' not in dumped
  assert 'gold-7731' not in dumped
  assert user_messages(live) == messages


@pytest.mark.asyncio
async def test_a_client_tool_waits_for_the_client_in_the_message():
  _, stored = await _ask(
      InMemoryRunner(agent=_assistant(), app_name='app'),
      'Where do quokkas live?',
  )

  card = user_messages(stored)[1].parts[-1].tool

  assert (card.name, card.status, card.client) == (
      'ask_user_to_confirm',
      'waiting',
      True,
  )
  assert card.args == {'question': 'Book the ferry?'}


@pytest.mark.asyncio
async def test_full_progress_sends_the_nested_calls_arguments_and_results():
  live, stored = await _run_turn(
      _assistant(researcher_visibility='full'),
      RunConfig(visibility_mode='filter', nested_progress='full'),
  )

  steps = [p['step'] for p in _progress(live) if p['status'] == 'step']
  assert steps[0]['args'] == {'query': 'quokka habitat'}
  assert steps[1]['result']['hits'] == [_FOUND]
  run = user_messages(stored)[1].parts[0].agent
  assert run.steps[0].result['hits'] == [_FOUND]


@pytest.mark.asyncio
async def test_an_agent_tool_caps_what_is_sent_of_its_run():
  live, _ = await _run_turn(
      _assistant(),  # the agent tool is 'minimal' by default
      RunConfig(visibility_mode='filter', nested_progress='full'),
  )
  steps = [p['step'] for p in _progress(live) if p['status'] == 'step']
  assert steps and all('args' not in s and 'result' not in s for s in steps)

  live, stored = await _run_turn(
      _assistant(researcher_visibility='hidden'),
      RunConfig(visibility_mode='filter', nested_progress='full'),
  )
  assert not _progress(live)
  assert 'researcher' not in str(
      [m.model_dump() for m in user_messages(stored)]
  )


@pytest.mark.asyncio
@pytest.mark.parametrize('mode', ['annotate', 'filter'])
async def test_nothing_is_sent_or_stored_when_no_client_asks(mode):
  live, stored = await _run_turn(_assistant(), RunConfig(visibility_mode=mode))

  assert not _progress(live)
  assert not any('nested' in str(e.custom_metadata or {}) for e in stored)
  # The researcher still shows who worked, without its steps.
  run = user_messages(stored)[1].parts[0].agent
  assert (run.agent, run.status, run.steps) == ('researcher', 'finished', [])


def test_nested_progress_takes_the_tool_levels_words():
  with pytest.raises(
      ValidationError,
      match=r"RunConfig\.nested_progress.*'hidden', 'minimal', 'full'",
  ) as raised:
    RunConfig(nested_progress='verbose')
  assert 'tool visibility' not in str(raised.value)


def test_nested_progress_is_checked_when_assigned():
  config = RunConfig()

  with pytest.raises(ValidationError, match=r'RunConfig\.nested_progress'):
    config.nested_progress = 'bogus'

  assert config.nested_progress == 'hidden'
  config.nested_progress = 'full'
  assert config.nested_progress == 'full'
  # Upstream's own fields keep upstream's behaviour: set as given.
  config.max_llm_calls = 7
  assert config.max_llm_calls == 7


def fact_check(claim: str) -> dict[str, str]:
  """Checks a claim."""
  return {'verdict': 'true', 'claim': claim}


@pytest.mark.asyncio
async def test_an_agent_tool_inside_an_agent_tool_is_its_nested_run():
  checker = LlmAgent(
      name='checker',
      model=_ScriptedLlm(
          script=[_call('fact_check', claim='quokkas'), types.Part(text='ok')]
      ),
      tools=[fact_check],
  )
  researcher = LlmAgent(
      name='researcher',
      model=_ScriptedLlm(
          script=[_call('checker', request='quokkas?'), types.Part(text=_FOUND)]
      ),
      tools=[AgentTool(checker)],
  )
  assistant = LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('researcher', request='quokkas?'),
              types.Part(text=_ANSWER),
          ]
      ),
      tools=[AgentTool(researcher)],
  )
  live, stored = await _ask(
      InMemoryRunner(agent=assistant, app_name='app'),
      'Where do quokkas live?',
      run_config=RunConfig(nested_progress='minimal'),
  )

  progress = _progress(live)
  outer = progress[0]['run']
  inner = [p for p in progress if p['agent'] == 'checker']
  assert inner and {p['parent_run'] for p in inner} == {outer}
  assert {p['run'] for p in inner} != {outer}
  assert [p['step']['name'] for p in inner if p['status'] == 'step'] == [
      'fact_check',
      'fact_check',
  ]
  run = user_messages(stored)[1].parts[0].agent
  assert [(s.name, s.status) for s in run.steps] == [('checker', 'done')]
  assert [(r.agent, r.status) for r in run.runs] == [('checker', 'finished')]
  assert [(s.name, s.status) for s in run.runs[0].steps] == [
      ('fact_check', 'done')
  ]


async def _run_until_it_raises(
    root: Any, run_config: RunConfig, **kwargs: Any
) -> tuple[list[Event], list[Event]]:
  """Runs a turn whose researcher fails; returns the live and stored events."""
  runner = InMemoryRunner(agent=root, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='u'
  )
  live = []
  with pytest.raises(RuntimeError, match='search backend unavailable'):
    async for event in runner.run_async(
        user_id='u',
        session_id=session.id,
        new_message=types.UserContent('Where do quokkas live?'),
        run_config=run_config,
        **kwargs,
    ):
      live.append(event)
  stored = await runner.session_service.get_session(
      app_name='app', user_id='u', session_id=session.id
  )
  assert stored is not None
  return live, stored.events


class _FailingLlm(BaseLlm):
  model: str = 'failing'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    raise RuntimeError('search backend unavailable')
    yield  # pylint: disable=unreachable


@pytest.mark.asyncio
async def test_a_failing_agent_tool_ends_its_progress_with_the_error():
  researcher = LlmAgent(name='researcher', model=_FailingLlm())
  assistant = LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('researcher', request='quokkas?'),
              types.Part(text='Sorry.'),
          ]
      ),
      tools=[AgentTool(researcher)],
  )
  live, _ = await _run_until_it_raises(
      assistant, RunConfig(nested_progress='minimal')
  )

  # The run ends in error; the exception's text, which may quote what the
  # agent worked on, stays in the server's log.
  last = _progress(live)[-1]
  assert (last['status'], last['error']) == ('error', ERROR_EVENT_MESSAGE)
  assert 'search backend' not in str(_progress(live))


@pytest.mark.asyncio
async def test_a_workflow_used_as_a_tool_is_drawn_as_its_work():
  from google.adk.workflow import START
  from google.adk.workflow import Workflow

  research = Workflow(
      name='research',
      edges=[(
          START,
          LlmAgent(
              name='researcher',
              model=_ScriptedLlm(
                  script=[
                      _call('search', query='quokkas'),
                      types.Part(text=_FOUND),
                  ]
              ),
              tools=[search],
          ),
      )],
      input_schema=str,
  )
  assistant = LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('research', request='quokkas?'),
              types.Part(text=_ANSWER),
          ]
      ),
      tools=[research],
  )
  live, stored = await _ask(
      InMemoryRunner(agent=assistant, app_name='app'),
      'Where do quokkas live?',
      run_config=RunConfig(visibility_mode='filter'),
      yield_user_message=True,
  )

  messages = user_messages(stored)
  assert _shape(messages) == [
      ('user', [('text', 'Where do quokkas live?')]),
      (
          'assistant',
          [
              ('agent', 'research', 'finished', [('search', 'done')]),
              ('text', _ANSWER),
          ],
      ),
  ]
  assert _FOUND not in str([m.model_dump() for m in messages])
  assert user_messages(live) == messages


@pytest.mark.asyncio
async def test_a_transfer_is_no_tool_card_the_agent_that_answers_is_the_message():
  helper = LlmAgent(
      name='helper',
      description='Answers questions.',
      model=_ScriptedLlm(script=[types.Part(text=_ANSWER)]),
  )
  root = LlmAgent(
      name='root',
      model=_ScriptedLlm(
          script=[_call('transfer_to_agent', agent_name='helper')]
      ),
      sub_agents=[helper],
  )
  _, stored = await _ask(
      InMemoryRunner(agent=root, app_name='app'), 'Where do quokkas live?'
  )

  assert _shape(user_messages(stored)) == [
      ('user', [('text', 'Where do quokkas live?')]),
      ('assistant', [('text', _ANSWER)]),
  ]


@pytest.mark.asyncio
async def test_an_empty_resume_message_continues_the_turn():
  _, stored = await _run_turn(_assistant(), RunConfig())
  resume = Event(
      author='user',
      invocation_id=stored[-1].invocation_id,
      content=types.UserContent(parts=[types.Part(text='')]),
  )

  assert user_messages([*stored, resume]) == user_messages(stored)


@pytest.mark.asyncio
async def test_an_internal_agents_tools_are_its_work_not_the_turns_cards():
  from google.adk.workflow import START
  from google.adk.workflow import Workflow

  classifier = LlmAgent(
      name='classifier',
      model=_ScriptedLlm(
          script=[
              _call('lookup_account', user='u1'),
              types.Part(text='tier-label-5521'),
          ]
      ),
      tools=[lookup_account],
      output_key='tier',
  )
  answerer = LlmAgent(
      name='answerer', model=_ScriptedLlm(script=[types.Part(text=_ANSWER)])
  )
  _, stored = await _ask(
      InMemoryRunner(
          node=Workflow(name='flow', edges=[(START, classifier, answerer)]),
          app_name='app',
      ),
      'Where do quokkas live?',
      'And wombats?',
  )

  messages = user_messages(stored)

  assert [shape for _, shape in _shape(messages)[1::2]] == [[
      ('agent', 'classifier', 'finished', [('lookup_account', 'done')]),
      ('text', _ANSWER),
  ]] * 2
  runs = [m.parts[0].agent.run for m in messages[1::2]]
  assert len(set(runs)) == 2  # one run per turn
  dumped = str([m.model_dump() for m in messages])
  assert 'tier-label-5521' not in dumped
  assert 'gold-7731' not in dumped


def _researching_assistant(researcher_model: BaseLlm | None = None) -> LlmAgent:
  """An assistant that asks its researcher (an agent tool), then answers."""
  researcher = LlmAgent(
      name='researcher',
      model=researcher_model
      or _ScriptedLlm(
          script=[
              _call('search', query='quokka habitat'),
              types.Part(text=_FOUND),
          ]
      ),
      tools=[search],
  )
  return LlmAgent(
      name='assistant',
      model=_ScriptedLlm(
          script=[
              _call('researcher', request='Where do quokkas live?'),
              types.Part(text=_ANSWER),
          ]
      ),
      tools=[AgentTool(researcher)],
  )


def _legacy_parent(kind: str, agent: LlmAgent) -> Any:
  from google.adk.agents.loop_agent import LoopAgent
  from google.adk.agents.parallel_agent import ParallelAgent
  from google.adk.agents.sequential_agent import SequentialAgent

  if kind == 'sequential':
    return SequentialAgent(name='team', sub_agents=[agent])
  if kind == 'loop':
    return LoopAgent(name='team', sub_agents=[agent], max_iterations=1)
  return ParallelAgent(name='team', sub_agents=[agent])


@pytest.mark.asyncio
@pytest.mark.filterwarnings('ignore::DeprecationWarning')
@pytest.mark.parametrize('parent', ['sequential', 'loop', 'parallel'])
async def test_an_agent_tool_under_a_legacy_parent_streams_and_records(parent):
  live, stored = await _ask(
      InMemoryRunner(
          agent=_legacy_parent(parent, _researching_assistant()),
          app_name='app',
      ),
      'Where do quokkas live?',
      run_config=RunConfig(visibility_mode='filter', nested_progress='minimal'),
      yield_user_message=True,
  )

  # Live: all of the run's progress arrives before the call's response.
  researcher_call, progress = _researcher_progress(live)
  assert [(p['status'], p.get('step', {}).get('status')) for p in progress] == [
      ('started', None),
      ('step', 'running'),
      ('step', 'done'),
      ('finished', None),
  ]
  assert {p['run'] for p in progress} == {researcher_call.id}
  assert not _progress(stored)
  # Reload: the run as the client saw it.
  messages = user_messages(stored)
  assert _shape(messages) == [
      ('user', [('text', 'Where do quokkas live?')]),
      (
          'assistant',
          [
              ('agent', 'researcher', 'finished', [('search', 'done')]),
              ('text', _ANSWER),
          ],
      ),
  ]
  # A legacy root yields no user event; the reply is the same.
  assert user_messages(live)[-1] == messages[-1]


@pytest.mark.asyncio
@pytest.mark.filterwarnings('ignore::DeprecationWarning')
async def test_a_failure_under_a_legacy_parent_still_raises():
  live, _ = await _run_until_it_raises(
      _legacy_parent(
          'sequential', _researching_assistant(researcher_model=_FailingLlm())
      ),
      RunConfig(nested_progress='minimal'),
  )

  assert [p['status'] for p in _progress(live)] == ['started', 'error']
  assert 'search backend' not in str(_progress(live))


@pytest.mark.asyncio
@pytest.mark.parametrize('nested_progress', ['hidden', 'minimal'])
async def test_a_raising_agent_tool_is_drawn_as_ended_in_error(nested_progress):
  live, stored = await _run_until_it_raises(
      _researching_assistant(researcher_model=_FailingLlm()),
      RunConfig(visibility_mode='filter', nested_progress=nested_progress),
      yield_user_message=True,
  )

  messages = user_messages(stored)

  reply = messages[1].parts
  assert [part.type for part in reply] == ['agent', 'error']
  run = reply[0].agent
  assert (run.agent, run.status) == ('researcher', 'error')
  if nested_progress != 'hidden':
    # As the live progress ended it: a generic sentence, not the exception.
    assert run.error == ERROR_EVENT_MESSAGE
  assert user_messages(live) == messages


@pytest.mark.asyncio
@pytest.mark.filterwarnings('ignore::DeprecationWarning')
@pytest.mark.parametrize('parent', ['sequential', 'loop', 'parallel'])
async def test_a_raising_agent_tool_under_a_legacy_parent_is_stored_as_ended(
    parent,
):
  live, stored = await _run_until_it_raises(
      _legacy_parent(
          parent, _researching_assistant(researcher_model=_FailingLlm())
      ),
      RunConfig(visibility_mode='filter', nested_progress='minimal'),
  )

  # The legacy parent raises with no error event of its own; the run's
  # record is stored with the one its relay adds, so a reload draws the run
  # as it ended, as the live stream did.
  reply = user_messages(stored)[1].parts
  assert [part.type for part in reply] == ['agent', 'error']
  run = reply[0].agent
  assert (run.agent, run.status, run.error) == (
      'researcher',
      'error',
      ERROR_EVENT_MESSAGE,
  )
  assert user_messages(live)[-1] == user_messages(stored)[-1]
  assert 'search backend' not in str([e.model_dump() for e in stored])
