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

"""Custom agents (``BaseAgent`` subclasses) are read from their code.

The shapes come from public apps: a transfer team whose targets are loops
ending in a checker that only escalates, and an orchestrator that reads a
checker's label from state to decide whether to run an agent again. Each
case runs through a real Runner with scripted models, and checks the flag on
the live and the stored events, what a client that reads only the flag
shows, and what filter mode sends.
"""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import Severity
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_USER_ID = 'custom_agent_user'


class ScriptedLlm(BaseLlm):
  """Answers each request with the next scripted reply; the last repeats."""

  model: str = 'scripted-llm'
  script: list[Any] = Field(default_factory=list)
  calls: int = 0

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    self.calls += 1
    reply = self.script[min(self.calls, len(self.script)) - 1]
    if isinstance(reply, types.FunctionCall):
      part = types.Part(function_call=reply)
    else:
      part = types.Part(text=reply)
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _agent(name: str, *script: Any, **kwargs: Any) -> LlmAgent:
  return LlmAgent(
      name=name,
      model=ScriptedLlm(script=list(script) or [f'{name} speaks']),
      **kwargs,
  )


def _call(name: str, **args: Any) -> types.FunctionCall:
  return types.FunctionCall(name=name, args=args)


def _sequence(name: str, *sub_agents: BaseAgent) -> SequentialAgent:
  return SequentialAgent(name=name, sub_agents=list(sub_agents))


async def _run(
    root: BaseAgent, run_config: RunConfig | None = None
) -> tuple[list[Event], list[Event]]:
  """Runs one turn; returns the events yielded and the events stored."""
  runner = InMemoryRunner(agent=root, app_name='custom_agents')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id=_USER_ID
  )
  events = [
      event
      async for event in runner.run_async(
          user_id=_USER_ID,
          session_id=session.id,
          new_message=types.UserContent(parts=[types.Part(text='hello')]),
          run_config=run_config,
      )
  ]
  stored = await runner.session_service.get_session(
      app_name=runner.app_name, user_id=_USER_ID, session_id=session.id
  )
  assert stored is not None
  return events, stored.events


def _flags_by_author(events: list[Event]) -> dict[str, set[bool]]:
  """Maps each author of a content-carrying event to the flags it carried."""
  flags: dict[str, set[bool]] = {}
  for event in events:
    if event.content is not None and event.author != 'user':
      flags.setdefault(event.author, set()).add(event.is_user_facing)
  return flags


def _client_texts(events: list[Event], *, flag: bool = True) -> list[str]:
  """The answers a client shows: final responses, flagged user-facing when
  ``flag`` (a client that reads the flag), all of them otherwise."""
  return [
      part.text
      for event in events
      if event.is_final_response()
      and (event.is_user_facing or not flag)
      and event.content
      for part in event.content.parts or ()
      if part.text
  ]


class _Checker(BaseAgent):
  """Ends its loop once the draft is a post; says nothing itself."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    done = ctx.session.state.get('draft', '').startswith('Post')
    yield Event(
        author=self.name,
        invocation_id=ctx.invocation_id,
        actions=EventActions(escalate=done),
    )


class _Announcer(BaseAgent):
  """Says something of its own, built where the reader cannot see it."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    yield _announcement(self.name, ctx)


def _announcement(author: str, ctx: InvocationContext) -> Event:
  return Event(
      author=author,
      invocation_id=ctx.invocation_id,
      content=types.ModelContent(parts=[types.Part(text='All done.')]),
  )


class _StoryFlow(BaseAgent):
  """Writes a story, revises it, checks it and rewrites it when its tone is
  negative: its own code reads the tone checker's label from state."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    writer, revision, checks = self.sub_agents
    async for event in writer.run_async(ctx):
      yield event
    # A presence test: the story is not read as a label.
    if 'current_story' not in ctx.session.state:
      return
    async for event in revision.run_async(ctx):
      yield event
    async for event in checks.run_async(ctx):
      yield event
    tone = ctx.session.state.get('tone_check_result')
    if tone == 'negative':
      async for event in writer.run_async(ctx):
        yield event


class _ScoreGate(BaseAgent):
  """Has the writer answer only when the scorer's score is high enough."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    scorer, writer = self.sub_agents
    async for event in scorer.run_async(ctx):
      yield event
    if int(ctx.session.state.get('score', 0)) >= 7:
      async for event in writer.run_async(ctx):
        yield event


class _ToneGate(BaseAgent):
  """Has the writer answer unless the checker's label starts with 'neg'."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    checker, writer = self.sub_agents
    async for event in checker.run_async(ctx):
      yield event
    tone = ctx.session.state.get('score', '')
    if not tone.lower().startswith('neg'):
      async for event in writer.run_async(ctx):
        yield event


def _blog_team() -> Any:
  def team(name: str) -> LoopAgent:
    return LoopAgent(
        name=name,
        max_iterations=3,
        sub_agents=[
            _agent(
                f'{name}_drafter',
                'Outline: three points',
                'Post: the finished article',
                output_key='draft',
            ),
            _Checker(name=f'{name}_checker'),
        ],
    )

  return _agent(
      'front',
      _call('transfer_to_agent', agent_name='blog'),
      sub_agents=[team('blog'), team('newsletter')],
  )


def _story_flow(cls: type = _StoryFlow) -> BaseAgent:
  return cls(
      name='story_flow',
      sub_agents=[
          _agent(
              'story_generator',
              'A fox lost its den in the storm.',
              'A fox found a warm new den after the storm.',
              output_key='current_story',
          ),
          LoopAgent(
              name='revision',
              max_iterations=1,
              sub_agents=[
                  _agent('critic', 'Give the fox a name.', output_key='notes'),
                  _agent(
                      'reviser',
                      'Rusty the fox lost his den in the storm.',
                      output_key='current_story',
                  ),
              ],
          ),
          _sequence(
              'checks',
              _agent(
                  'grammar_check',
                  'Grammar is good!',
                  output_key='grammar_suggestions',
              ),
              _agent('tone_check', 'negative', output_key='tone_check_result'),
          ),
      ],
  )


def _unreadable(cls: type) -> type:
  """The same agent with a ``_run_async_impl`` that has no source."""
  namespace: dict[str, Any] = {}
  exec(  # pylint: disable=exec-used
      'async def _run_async_impl(self, ctx):\n'
      '  for agent in self.sub_agents:\n'
      '    async for event in agent.run_async(ctx):\n'
      '      yield event\n',
      namespace,
  )
  return type(
      'Dynamic' + cls.__name__,
      (cls,),
      {'_run_async_impl': namespace['_run_async_impl']},
  )


@pytest.mark.asyncio
async def test_a_checker_that_only_escalates_leaves_the_drafter_the_answer():
  events, stored = await _run(_blog_team())

  # The checker's events carry actions and no content: the drafter is the
  # last agent that speaks on each pass, so its flag alone is enough.
  expected = {'front': {True}, 'blog_drafter': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(stored) == expected
  assert _client_texts(events) == [
      'Outline: three points',
      'Post: the finished article',
  ]
  filtered, _ = await _run(_blog_team(), RunConfig(visibility_mode='filter'))
  assert _client_texts(filtered, flag=False) == _client_texts(events)


@pytest.mark.asyncio
async def test_a_label_a_custom_agent_reads_from_state_is_data():
  events, stored = await _run(_story_flow())

  # The orchestrator's code compares the tone checker's output_key and then
  # may rewrite the story: the label is data for that code, never a chat
  # message, and it does not cover the grammar checker before it. It only
  # tests that the story is there, which leaves the story the user's.
  expected = {
      'story_generator': {True},
      'critic': {False},
      'reviser': {True},
      'grammar_check': {True},
      'tone_check': {False},
  }
  assert _flags_by_author(events) == expected
  assert _flags_by_author(stored) == expected
  texts = _client_texts(events)
  assert 'negative' not in texts
  assert texts[-1] == 'A fox found a warm new den after the storm.'
  filtered, _ = await _run(_story_flow(), RunConfig(visibility_mode='filter'))
  assert _client_texts(filtered, flag=False) == texts


@pytest.mark.asyncio
async def test_a_custom_agent_that_says_something_covers_the_agent_before():
  events, stored = await _run(
      _sequence('pipeline', _agent('writer'), _Announcer(name='announcer'))
  )

  expected = {'writer': {False}, 'announcer': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(stored) == expected
  assert _client_texts(events) == ['All done.']


@pytest.mark.asyncio
async def test_a_custom_agent_whose_code_cannot_be_read_speaks_when_it_runs():
  unreadable = _unreadable(_Checker)

  readable_events, _ = await _run(
      _sequence('pipeline', _agent('writer'), _Checker(name='check'))
  )
  fallback_events, _ = await _run(
      _sequence('pipeline', _agent('writer'), unreadable(name='check'))
  )

  # Read, the checker says nothing, so the writer answers; unread, it counts
  # as speaking (the documented rule), so the writer is internal.
  assert _flags_by_author(readable_events) == {'writer': {True}}
  assert _flags_by_author(fallback_events) == {'writer': {False}}


@pytest.mark.asyncio
async def test_an_unreadable_orchestrator_reads_no_reply_as_data():
  events, _ = await _run(_story_flow(_unreadable(_StoryFlow)))

  # Without its code, no label is known to be read: the tone checker
  # speaks last, as the documented rule has it.
  assert _flags_by_author(events)['tone_check'] == {True}


def test_adk_check_names_a_custom_agent_whose_code_cannot_be_read():
  def pipeline(checker: BaseAgent) -> BaseAgent:
    return _sequence('pipeline', _agent('writer'), checker)

  unread = check_agent_tree(pipeline(_unreadable(_Checker)(name='check')))
  read = check_agent_tree(pipeline(_Checker(name='check')))
  chosen = check_agent_tree(
      pipeline(_unreadable(_Checker)(name='check', visibility='internal'))
  )

  [found] = [d for d in unread if d.code == 'ADK-D114']
  assert (found.severity, found.agent) == (Severity.INFO, 'check')
  assert 'Dynamic_Checker._run_async_impl' in found.message
  assert 'no source' in found.message
  assert "visibility='user' or 'internal'" in found.hint
  assert not [d for d in read if d.code == 'ADK-D114']
  assert not [d for d in chosen if d.code == 'ADK-D114']


@pytest.mark.asyncio
@pytest.mark.parametrize(
    'gate, label', [(_ScoreGate, '8'), (_ToneGate, 'positive')]
)
async def test_a_value_the_code_converts_or_calls_a_method_on_is_a_label(
    gate, label
):
  root = gate(
      name='gate',
      sub_agents=[
          _agent('scorer', label, output_key='score'),
          _agent('writer', 'Here is the post.'),
      ],
  )

  events, stored = await _run(root)

  expected = {'scorer': {False}, 'writer': {True}}
  assert _flags_by_author(events) == expected
  assert _flags_by_author(stored) == expected
  assert _client_texts(events) == ['Here is the post.']
