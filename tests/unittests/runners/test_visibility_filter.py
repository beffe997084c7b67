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

"""``RunConfig.visibility_mode='filter'`` through a real Runner.

Internal agents in these tests speak words that no user-facing agent uses, so
a check that those words are absent from what the caller received is only
meaningful next to the check that the user-facing words are present.
"""

from __future__ import annotations

import contextlib
from typing import Any
from typing import AsyncGenerator

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.run_config import StreamingMode
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events._client_errors import ERROR_EVENT_MESSAGE
from google.adk.events._state_view import state_for_client
from google.adk.events.event import Event
from google.adk.events.user_view import user_view
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.sessions.session import Session
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.tools.tool_context import ToolContext
from google.adk.workflow import FunctionNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
from pydantic import ValidationError
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_USER_ID = 'filter_user'
_SECRET = 'zebra-ledger-7731'
"""Spoken only by internal agents."""
_PUBLIC = 'your trip is booked'
"""Spoken only by the user-facing agent."""


class ScriptedLlm(BaseLlm):
  """Replies from a script, streaming text word by word when asked to.

  A reply is text, a ``types.FunctionCall``, or a complete ``LlmResponse``.
  The last reply repeats once the script is exhausted.
  """

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request)
    reply = self.script[min(len(self.requests), len(self.script)) - 1]
    if isinstance(reply, LlmResponse):
      yield reply
      return
    if isinstance(reply, types.FunctionCall):
      yield LlmResponse(
          content=types.ModelContent(parts=[types.Part(function_call=reply)])
      )
      return
    if stream:
      for word in reply.split(' '):
        yield LlmResponse(
            content=types.ModelContent(parts=[types.Part(text=word + ' ')]),
            partial=True,
        )
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=reply)])
    )


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  return LlmAgent(name=name, model=ScriptedLlm(script=list(script)), **kwargs)


def _pipeline() -> SequentialAgent:
  return SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('classifier', f'route booking {_SECRET}'),
          _agent('booker', _PUBLIC),
      ],
  )


async def _run(
    root: Any, run_config: RunConfig | None = None
) -> tuple[list[Event], Session, InMemoryRunner]:
  if isinstance(root, BaseAgent):
    runner = InMemoryRunner(agent=root, app_name='filter_app')
  else:
    runner = InMemoryRunner(node=root, app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='book a trip')]),
          run_config=run_config,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored, runner


def _received_text(events: list[Event]) -> str:
  """Everything the caller could render, serialized."""
  return '\n'.join(event.model_dump_json(exclude_none=True) for event in events)


def _final_texts(events: list[Event]) -> list[str]:
  """What a client following ADK's documented loop shows as answers."""
  return [
      event.content.parts[0].text
      for event in events
      if event.is_final_response()
  ]


def _search_flights(city: str) -> dict[str, str]:
  """Finds flights to a city."""
  return {'flights': f'{city} at 9:00 {_SECRET}'}


@pytest.mark.asyncio
async def test_internal_agents_arrive_as_progress_never_as_answers():
  events, session, _ = await _run(
      _pipeline(), RunConfig(visibility_mode='filter')
  )

  assert _SECRET not in _received_text(events)
  assert _final_texts(events) == [_PUBLIC]
  assert _SECRET in _received_text(session.events)
  classifier_events = [e for e in events if e.author == 'classifier']
  assert len(classifier_events) == 1
  progress = classifier_events[0]
  assert progress.content is None
  assert progress.partial
  assert not progress.is_final_response()
  assert not progress.is_user_facing


@pytest.mark.asyncio
async def test_progress_events_keep_ids_author_and_actions():
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('classifier', 'route: booking', output_key='route'),
          _agent('booker', _PUBLIC),
      ],
  )

  events, session, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  stored_by_id = {e.id: e for e in session.events}
  assert [e.id for e in events] == [
      e.id for e in session.events if e.author != 'user'
  ]
  for event in events:
    stored = stored_by_id[event.id]
    assert event.author == stored.author
    assert event.invocation_id == stored.invocation_id
    assert event.branch == stored.branch
    assert event.actions.model_dump(
        exclude={'state_delta'}
    ) == stored.actions.model_dump(exclude={'state_delta'})
  # The output_key write is the internal agent's output too: the session keeps
  # it, the caller does not receive it (RunConfig.client_state_keys).
  classifier = next(e for e in events if e.author == 'classifier')
  assert classifier.actions.state_delta == {}
  assert session.state['route'] == 'route: booking'


@pytest.mark.asyncio
async def test_sse_streaming_drops_internal_chunks_and_never_shows_empty():
  events, session, _ = await _run(
      _pipeline(),
      RunConfig(visibility_mode='filter', streaming_mode=StreamingMode.SSE),
  )

  assert _SECRET not in _received_text(events)
  assert _final_texts(events) == [_PUBLIC]
  classifier_events = [e for e in events if e.author == 'classifier']
  assert [e.content for e in classifier_events] == [None]
  booker_partials = [e for e in events if e.author == 'booker' and e.partial]
  assert len(booker_partials) == len(_PUBLIC.split(' '))
  assert _SECRET in _received_text(session.events)


@pytest.mark.asyncio
async def test_single_turn_sub_agent_shows_its_tool_calls_by_name_only():
  researcher = _agent(
      'researcher',
      types.FunctionCall(name='_search_flights', args={'city': 'Oslo'}),
      f'findings {_SECRET}',
      mode='single_turn',
      description='Researches flights.',
      tools=[_search_flights],
  )
  root = _agent(
      'front_desk',
      types.FunctionCall(name='researcher', args={'request': 'Oslo flights'}),
      _PUBLIC,
      sub_agents=[researcher],
  )

  events, session, _ = await _run(root, RunConfig(visibility_mode='filter'))

  assert _SECRET not in _received_text(events)
  assert 'Oslo' not in _received_text(events)
  assert _final_texts(events) == [_PUBLIC]
  calls = [
      (e.author, c.name, c.args) for e in events for c in e.get_function_calls()
  ]
  assert calls == [
      ('front_desk', 'researcher', None),
      ('researcher', '_search_flights', None),
  ]
  answered = [
      (e.author, r.name, r.response)
      for e in events
      for r in e.get_function_responses()
  ]
  assert answered == [
      ('researcher', '_search_flights', None),
      ('front_desk', 'researcher', None),
  ]
  # The researcher's findings still reach the model that asked for them.
  assert _SECRET in str(root.model.requests[1].contents)
  assert _SECRET in _received_text(session.events)


@pytest.mark.asyncio
async def test_reloaded_conversation_matches_what_was_streamed():
  events, session, _ = await _run(
      _pipeline(),
      RunConfig(visibility_mode='filter', streaming_mode=StreamingMode.SSE),
  )

  reloaded = user_view(session.events)

  live = [e for e in events if not e.partial or e.author == 'classifier']
  assert [e.model_dump() for e in reloaded[1:]] == [
      e.model_dump() for e in live
  ]
  assert reloaded[0].author == 'user'


@pytest.mark.asyncio
async def test_annotate_mode_yields_everything_as_stored():
  events, session, _ = await _run(_pipeline())
  annotated, _, _ = await _run(
      _pipeline(), RunConfig(visibility_mode='annotate')
  )

  assert _SECRET in _received_text(events)
  assert _PUBLIC in _received_text(events)
  stored = [e for e in session.events if e.author != 'user']
  assert [e.model_dump() for e in events] == [e.model_dump() for e in stored]
  assert [e.is_user_facing for e in events] == [False, True]
  assert [e.content for e in annotated] == [e.content for e in events]


@pytest.mark.asyncio
async def test_errors_of_internal_agents_reach_the_client():
  failure = LlmResponse(
      error_code='SAFETY',
      error_message='blocked by policy',
      content=types.ModelContent(parts=[types.Part(text=_SECRET)]),
  )
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[_agent('screener', failure), _agent('booker', _PUBLIC)],
  )

  events, _, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  # The code tells the error apart; the internal agent's message, which may
  # quote what it worked on, is a generic sentence.
  errors = [e for e in events if e.error_code]
  assert [(e.author, e.error_code, e.error_message) for e in errors] == [
      ('screener', 'SAFETY', ERROR_EVENT_MESSAGE)
  ]
  assert not errors[0].is_user_facing
  assert _SECRET not in _received_text(events)
  assert _PUBLIC in _received_text(events)


@pytest.mark.asyncio
async def test_filter_on_workflow_graph():
  def extract(node_input: Any) -> str:
    del node_input
    return f'fields {_SECRET}'

  workflow = Workflow(
      name='booking_flow',
      edges=[(
          START,
          extract,
          _agent('classifier', f'classified {_SECRET}'),
          _agent('booker', _PUBLIC),
      )],
  )

  events, session, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  assert _SECRET not in _received_text(events)
  assert _final_texts(events) == [_PUBLIC]
  assert {e.author for e in events if not e.is_user_facing} >= {'classifier'}
  assert _SECRET in _received_text(session.events)


@pytest.mark.asyncio
async def test_agent_tool_answers_its_caller_in_full_and_the_client_by_name():
  worker = _agent('worker', f'worker found {_SECRET}')
  caller = _agent(
      'caller',
      types.FunctionCall(name='research', args={'request': 'look up'}),
      _PUBLIC,
      tools=[
          AgentTool(
              agent=LoopAgent(
                  name='research', max_iterations=1, sub_agents=[worker]
              )
          )
      ],
  )

  events, _, _ = await _run(caller, RunConfig(visibility_mode='filter'))

  responses = [r for e in events for r in e.get_function_responses()]
  assert [(r.name, r.response) for r in responses] == [('research', None)]
  assert _SECRET not in _received_text(events)
  assert _SECRET in str(caller.model.requests[1].contents)


def test_invalid_visibility_mode_lists_allowed_values():
  with pytest.raises(ValidationError) as error:
    RunConfig(visibility_mode='hide')

  message = str(error.value)
  assert "'hide'" in message
  assert "'annotate'" in message and "'filter'" in message
  assert RunConfig(visibility_mode='filter').visibility_mode == 'filter'
  assert RunConfig().visibility_mode == 'annotate'


@pytest.mark.asyncio
async def test_a_run_without_a_user_facing_answer_shows_its_last_one():
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent(
              'classifier', f'route booking {_SECRET}', visibility='internal'
          ),
          _agent('booker', _PUBLIC, visibility='internal'),
      ],
  )

  events, session, _ = await _run(pipeline, RunConfig(visibility_mode='filter'))

  # Every agent is internal by choice, so nothing the user can read would
  # arrive; the last internal answer is shown after all, once, at the end.
  assert _final_texts(events) == [_PUBLIC]
  assert events[-1].is_user_facing
  assert _SECRET not in _received_text(events)
  stored_booker = [e for e in session.events if e.author == 'booker']
  assert [e.is_user_facing for e in stored_booker] == [False]
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.asyncio
async def test_a_silent_refiner_answers_with_the_draft_not_the_verdict():
  exit_call = types.FunctionCall(name='exit_loop', args={})
  refinement = SequentialAgent(
      name='writing',
      sub_agents=[
          _agent('drafter', _PUBLIC, output_key='document'),
          LoopAgent(
              name='refine',
              max_iterations=3,
              sub_agents=[
                  _agent('critic', f'approved {_SECRET}', output_key='review'),
                  _agent(
                      'refiner',
                      exit_call,
                      'done',
                      tools=[exit_loop],
                      output_key='document',
                  ),
              ],
          ),
      ],
  )

  events, session, _ = await _run(
      refinement, RunConfig(visibility_mode='filter')
  )

  # The critic approved the first draft and the refiner only ended the loop:
  # the draft, which the refiner's output_key names, is the answer.
  assert _final_texts(events)[-1] == _PUBLIC
  assert _SECRET not in _received_text(events)
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.asyncio
async def test_a_text_node_output_is_the_answer_not_the_verdict():
  generator = _agent('generator', _PUBLIC)
  grader = _agent('grader', f'{{"grade": "{_SECRET}"}}')

  async def orchestrate(ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
    draft = await ctx.run_node(generator, node_input=node_input)
    await ctx.run_node(grader, node_input=draft)
    yield draft

  workflow = Workflow(
      name='headline',
      edges=[(START, FunctionNode(func=orchestrate, rerun_on_resume=True))],
  )

  events, session, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  # The workflow's output is the generator's text, which no agent said to the
  # user: it is the answer, in words, and the grader's reply, a value the
  # function consumed, never follows it.
  assert _final_texts(events) == [_PUBLIC]
  assert events[-1].output == _PUBLIC
  assert _SECRET not in _received_text(events)
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.asyncio
async def test_a_route_at_the_end_is_no_empty_answer():
  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='done')

  workflow = Workflow(
      name='headline',
      edges=[(START, _agent('writer', _PUBLIC), route)],
  )

  events, _, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  # The route's event carries only its route: it arrives, but as progress,
  # so the documented loop reads exactly the writer's answer.
  assert [e for e in events if e.actions.route]
  assert _final_texts(events) == [_PUBLIC]


class _FailingLlm(BaseLlm):
  """A model whose call fails, as a lost connection to it does."""

  model: str = 'failing-llm'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    raise ConnectionError(f'model unreachable {_SECRET}')
    yield  # pylint: disable=unreachable


def _replies(events: list[Event]) -> list[Event]:
  return [e for e in events if e.author != 'user']


def _turn_records(events: list[Event]) -> list[Event]:
  return [
      e
      for e in events
      if (e.custom_metadata or {})
      .get('__adk_internal_visibility', {})
      .get('turn')
  ]


@pytest.mark.asyncio
async def test_a_turn_that_failed_shows_no_internal_answer():
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('classifier', f'route booking {_SECRET}'),
          LlmAgent(name='booker', model=_FailingLlm()),
      ],
  )
  runner = InMemoryRunner(agent=pipeline, app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name='filter_app', user_id=_USER_ID
  )
  received: list[Event] = []

  with pytest.raises(ConnectionError):
    async for event in runner.run_async(
        user_id=_USER_ID,
        session_id=session.id,
        new_message=types.UserContent(parts=[types.Part(text='book a trip')]),
        run_config=RunConfig(visibility_mode='filter'),
    ):
      received.append(event)

  # The classifier's label is not the turn's answer, live or reloaded: the
  # turn never ended, so the Runner recorded no end and nothing stands in.
  stored = await runner.session_service.get_session(
      app_name='filter_app', user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  assert _SECRET in _received_text(stored.events)
  assert not _turn_records(stored.events)
  assert _final_texts(received) == []
  assert _SECRET not in _received_text(received)
  assert _final_texts(_replies(user_view(stored.events))) == []


@pytest.mark.asyncio
async def test_a_turn_the_caller_left_shows_no_internal_answer():
  runner = InMemoryRunner(agent=_pipeline(), app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name='filter_app', user_id=_USER_ID
  )

  # The client goes away after the classifier's event, as a closed SSE
  # stream does: the booker never answers.
  async with contextlib.aclosing(
      runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='book a trip')]),
          run_config=RunConfig(visibility_mode='filter'),
      )
  ) as events:
    async for event in events:
      if event.author == 'classifier':
        break

  stored = await runner.session_service.get_session(
      app_name='filter_app', user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  assert [e.author for e in stored.events] == ['user', 'classifier']
  assert _final_texts(_replies(user_view(stored.events))) == []
  assert _SECRET not in _received_text(user_view(stored.events))


@pytest.mark.asyncio
async def test_a_root_internal_agent_answers_without_its_state():
  root = _agent(
      'classifier', _PUBLIC, visibility='internal', output_key='intent'
  )

  events, session, _ = await _run(root, RunConfig(visibility_mode='filter'))

  # Only explicit values silence a run; the answer shown then is words only,
  # never the state the internal agent wrote.
  assert _final_texts(events) == [_PUBLIC]
  assert all(not e.actions.state_delta for e in events)
  assert session.state['intent'] == _PUBLIC
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]
  assert len(_turn_records(session.events)) == 1


@pytest.mark.asyncio
async def test_annotate_mode_is_not_sent_the_record_of_a_turns_end():
  root = _agent('classifier', _PUBLIC, visibility='internal')

  events, session, _ = await _run(root)

  assert [(e.author, e.is_user_facing) for e in events] == [
      ('classifier', False)
  ]
  assert len(_turn_records(session.events)) == 1


@pytest.mark.asyncio
async def test_a_turn_with_an_answer_stores_no_record_of_its_end():
  _, annotated, _ = await _run(_pipeline())
  _, filtered, _ = await _run(_pipeline(), RunConfig(visibility_mode='filter'))

  assert [e.author for e in annotated.events] == [
      'user',
      'classifier',
      'booker',
  ]
  assert [e.author for e in filtered.events] == [
      'user',
      'classifier',
      'booker',
  ]


@pytest.mark.parametrize(
    'progress', [{}, {'run': 'x', 'status': 'step', 'step': {'id': 'c1'}}]
)
@pytest.mark.asyncio
async def test_progress_metadata_a_caller_sends_does_not_switch_the_filter_off(
    progress: dict[str, Any],
):
  booker = _agent(
      'booker',
      types.FunctionCall(name='_search_flights', args={'city': 'Oslo'}),
      _PUBLIC,
      tools=[_search_flights],
      tool_visibility={'_search_flights': 'hidden'},
  )
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[_agent('classifier', f'route {_SECRET}'), booker],
  )
  run_config = RunConfig(
      visibility_mode='filter', custom_metadata={'adk_progress': progress}
  )

  events, session, _ = await _run(pipeline, run_config)

  assert _final_texts(events) == [_PUBLIC]
  for shown in (events, user_view(session.events)):
    assert _SECRET not in _received_text(shown)
    assert '_search_flights' not in _received_text(shown)
    assert all('adk_progress' not in (e.custom_metadata or {}) for e in shown)


def _note_privately(tool_context: ToolContext) -> dict[str, str]:
  """Keeps a private note."""
  tool_context.state['private_note'] = _SECRET
  return {'noted': _SECRET}


@pytest.mark.asyncio
async def test_a_hidden_tool_sends_nothing_not_even_its_state():
  booker = _agent(
      'booker',
      types.FunctionCall(name='_note_privately', args={}),
      _PUBLIC,
      tools=[_note_privately],
      tool_visibility={'_note_privately': 'hidden'},
  )

  events, session, _ = await _run(booker, RunConfig(visibility_mode='filter'))

  assert _final_texts(events) == [_PUBLIC]
  assert _SECRET not in _received_text(events)
  assert _SECRET not in _received_text(user_view(session.events))
  assert session.state['private_note'] == _SECRET
  assert 'private_note' not in state_for_client(session.state, session.events)


@pytest.mark.asyncio
async def test_the_record_of_a_turns_end_reaches_no_model_request():
  model = ScriptedLlm(script=[_PUBLIC])
  root = LlmAgent(name='classifier', model=model, visibility='internal')
  runner = InMemoryRunner(agent=root, app_name='filter_app')
  session = await runner.session_service.create_session(
      app_name='filter_app', user_id=_USER_ID
  )
  for text in ('first', 'second'):
    async for _ in runner.run_async(
        user_id=_USER_ID,
        session_id=session.id,
        new_message=types.UserContent(parts=[types.Part(text=text)]),
    ):
      pass

  assert [
      (content.role, [part.text for part in content.parts])
      for content in model.requests[-1].contents
  ] == [('user', ['first']), ('model', [_PUBLIC]), ('user', ['second'])]


def _double(node_input: Any) -> int:
  del node_input
  return 42


def _summary(node_input: Any) -> dict[str, Any]:
  del node_input
  return {'rooms': 2, 'city': 'Oslo'}


@pytest.mark.parametrize(
    'func, words, output',
    [
        (_double, '42', 42),
        (
            _summary,
            '{"rooms": 2, "city": "Oslo"}',
            {'rooms': 2, 'city': 'Oslo'},
        ),
    ],
)
@pytest.mark.asyncio
async def test_a_workflow_that_ends_on_data_answers_with_it(
    func: Any, words: str, output: Any
):
  workflow = Workflow(
      name='calculator', edges=[(START, FunctionNode(func=func))]
  )

  annotated, _, _ = await _run(workflow)
  events, session, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  # Nothing else speaks, so the run's result is the answer in both modes:
  # annotate sends upstream's final event with the output, filter mode shows
  # it in words and keeps the output beside them.
  assert [e.output for e in annotated if e.is_final_response()] == [output]
  assert _final_texts(events) == [words]
  assert events[-1].output == output
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.asyncio
async def test_a_result_node_set_internal_still_answers():
  def headline(node_input: Any) -> str:
    del node_input
    return _PUBLIC

  workflow = Workflow(
      name='headline',
      edges=[(START, FunctionNode(func=headline, visibility='internal'))],
  )

  events, session, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  assert _final_texts(events) == [_PUBLIC]
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]


@pytest.mark.parametrize('visibility', [None, 'internal'])
@pytest.mark.asyncio
async def test_last_words_beside_exit_loop_are_the_answer(
    visibility: str | None,
):
  words_and_exit = LlmResponse(
      content=types.ModelContent(
          parts=[
              types.Part(text=_PUBLIC),
              types.Part(
                  function_call=types.FunctionCall(name='exit_loop', args={})
              ),
          ]
      )
  )
  loop = LoopAgent(
      name='polish',
      sub_agents=[
          _agent('polisher', words_and_exit, 'done', tools=[exit_loop]),
      ],
      max_iterations=3,
      visibility=visibility,
  )

  events, session, _ = await _run(loop, RunConfig(visibility_mode='filter'))

  # Text beside a call is no final response; the words that ended the loop
  # are the answer, whether the polisher speaks to the user or not.
  assert _final_texts(events) == [_PUBLIC]
  reloaded = [e for e in user_view(session.events) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [e.model_dump() for e in events]
