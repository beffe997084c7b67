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


"""The two transforms docs/migrating.md replaces, shown through a real Runner.

1. "Capture the user's message into state" exists so that an agent can act on
   exactly the current user message: ``include_contents='none',
   include_sources=['user']`` gives its model just that.
2. The nested-run progress a flow engine wants (which agent or node is working,
   which tool it calls) is what filter mode yields for single-turn sub-agents
   and workflow nodes: progress events, never their text.
"""

from __future__ import annotations

from typing import Any

from _pr_tests import visibility_filter
from _scripted import run_turns
from google.adk.agents.run_config import RunConfig
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.events.event import Event
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
import pytest

pytestmark = visibility_filter.pytestmark
_agent = visibility_filter._agent
_run = visibility_filter._run
_received_text = visibility_filter._received_text
_final_texts = visibility_filter._final_texts
_SECRET = visibility_filter._SECRET
_PUBLIC = visibility_filter._PUBLIC


def _request_texts(request: Any) -> list[tuple[str, str]]:
  return [
      (content.role, ''.join(part.text or '' for part in content.parts))
      for content in request.contents
  ]


@pytest.mark.asyncio
async def test_none_with_user_source_gives_exactly_the_current_message():
  extractor = _agent(
      'extractor',
      f'extracted {_SECRET}',
      include_contents='none',
      include_sources=['user'],
  )
  pipeline = SequentialAgent(
      name='pipeline',
      sub_agents=[
          _agent('greeter', f'greeting {_SECRET}'),
          extractor,
          _agent('booker', _PUBLIC),
      ],
  )
  runner = InMemoryRunner(agent=pipeline, app_name='transforms')

  await run_turns(
      runner, 'a table for two', 'make it three at 8pm', user_id='u'
  )

  # Turn 2: not turn 1, not the greeter's reply earlier in this invocation,
  # not the extractor's own earlier answer; the current message only.
  assert [_request_texts(r) for r in extractor.model.requests] == [
      [('user', 'a table for two')],
      [('user', 'make it three at 8pm')],
  ]


def _progress(events: list[Event]) -> list[tuple[str, str]]:
  """(author, what a UI shows) for each progress event."""
  shown = []
  for event in events:
    if event.is_user_facing:
      continue
    calls = [c.name for c in event.get_function_calls()]
    answers = [r.name for r in event.get_function_responses()]
    if calls:
      shown.append((event.author, f'calling {calls[0]}'))
    elif answers:
      shown.append((event.author, f'{answers[0]} answered'))
    else:
      shown.append((event.author, 'working'))
  return shown


@pytest.mark.asyncio
async def test_single_turn_sub_agent_reports_progress():
  researcher = _agent(
      'researcher',
      types.FunctionCall(name='_search_flights', args={'city': 'Oslo'}),
      f'findings {_SECRET}',
      mode='single_turn',
      description='Researches flights.',
      tools=[visibility_filter._search_flights],
  )
  root = _agent(
      'front_desk',
      types.FunctionCall(name='researcher', args={'request': 'Oslo'}),
      _PUBLIC,
      sub_agents=[researcher],
  )

  for streaming in (None, 'sse'):
    events, _, _ = await _run(
        root, RunConfig(visibility_mode='filter', streaming_mode=streaming)
    )

    assert _progress(events) == [
        ('researcher', 'calling _search_flights'),
        ('researcher', '_search_flights answered'),
        ('researcher', 'working'),
    ]
    assert all(not e.is_final_response() for e in events[:-1])
    assert _final_texts(events) == [_PUBLIC]
    assert _SECRET not in _received_text(events)
    researcher.model.requests.clear()
    root.model.requests.clear()


def _static_path(event: Event) -> str:
  return '/'.join(
      segment.split('@')[0] for segment in event.node_info.path.split('/')
  )


@pytest.mark.asyncio
async def test_workflow_nodes_report_progress_with_their_path():
  def normalize(node_input: Any) -> str:
    del node_input
    return f'normalized {_SECRET}'

  workflow = Workflow(
      name='trip',
      edges=[(
          START,
          normalize,
          _agent('planner', f'plan {_SECRET}'),
          _agent('writer', _PUBLIC),
      )],
  )

  events, session, _ = await _run(workflow, RunConfig(visibility_mode='filter'))

  progress = [e for e in events if not e.is_user_facing]
  # Plain function nodes are authored by their workflow; the node's path
  # names them.
  assert [(e.author, _static_path(e)) for e in progress] == [
      ('trip', 'trip/normalize'),
      ('planner', 'trip/planner'),
  ]
  assert all(not e.is_final_response() for e in progress)
  assert _final_texts(events) == [_PUBLIC]
  assert _SECRET not in _received_text(events)
  assert _SECRET in _received_text(session.events)
