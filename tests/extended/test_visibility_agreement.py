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

"""What ``effective_visibility`` promises is what the Runner does.

The drawn graph, ``adk check`` and ``effective_visibility`` read the static
inference; the Runner marks events while they happen. For every sample and
for shapes that are in no sample (loops at the end of a run, a workflow
review loop, routes, explicit overrides), each agent's events carry the flag
``effective_visibility`` gives that agent, in every turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
import warnings

from _pr_tests import inference
from _pr_tests import workflow_visibility
from _scripted import run_turns
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.visibility import effective_visibility
from google.adk.cli.utils.agent_loader import AgentLoader
from google.adk.events.event import Event
from google.adk.runners import InMemoryRunner
from google.adk.tools.exit_loop_tool import exit_loop
from google.adk.workflow import START
from google.adk.workflow import Workflow
import pytest

pytestmark = inference.pytestmark
_agent = inference._agent
_call = inference._call
_sequence = inference._sequence

_SAMPLES = Path(__file__).resolve().parents[2] / 'contributing' / 'samples'
_TURNS = ('Hi! Could I get a table for two tomorrow at 7pm?', 'Thanks!')


def _review_loop() -> Workflow:
  passes: list[Any] = []

  def route(node_input: Any) -> Event:
    passes.append(node_input)
    return Event(route='revise' if len(passes) % 2 else 'done')

  writer = _agent('writer')
  return Workflow(
      name='review',
      edges=[
          (START, writer, _agent('reviewer'), route),
          (route, {'revise': writer}),
      ],
  )


def _routed() -> Workflow:
  def route(node_input: Any) -> Event:
    del node_input
    return Event(route='booking')

  return Workflow(
      name='router',
      edges=[
          (START, _agent('classifier'), route),
          (route, {'booking': _agent('booker'), 'info': _agent('info')}),
      ],
  )


_SHAPES = {
    'grade_loop': lambda: workflow_visibility._grade_loop([]),
    'support_desk': workflow_visibility._support_desk,
    'fan_out': lambda: Workflow(
        name='topics',
        edges=[(
            START,
            _agent('planner', '["tulips", "roses"]'),
            _agent('explainer', parallel_worker=True),
        )],
    ),
    'task_agent_node': lambda: Workflow(
        name='booking',
        edges=[(START, _agent('intake', mode='task'), _agent('summary'))],
    ),
    'root_loop': lambda: LoopAgent(
        name='refine',
        max_iterations=2,
        sub_agents=[_agent('drafter'), _agent('critic')],
    ),
    'refinement_pattern': lambda: _sequence(
        'document',
        _agent('initial_writer'),
        LoopAgent(
            name='refine',
            max_iterations=2,
            sub_agents=[
                _agent('critic'),
                _agent('refiner', 'refined', tools=[exit_loop]),
            ],
        ),
    ),
    'critic_internal_by_choice': lambda: LoopAgent(
        name='refine',
        max_iterations=2,
        sub_agents=[
            _agent('drafter'),
            _agent('critic', visibility='internal'),
        ],
    ),
    'review_loop': _review_loop,
    'routed_workflow': _routed,
    'parallel_then_writer': lambda: _sequence(
        'trip',
        ParallelAgent(
            name='research', sub_agents=[_agent('flights'), _agent('hotels')]
        ),
        _agent('planner'),
    ),
    'nested_workflow_marked_user': lambda: Workflow(
        name='flow',
        edges=[(
            START,
            Workflow(
                name='drafting',
                edges=[(START, _agent('outline'), _agent('draft'))],
                visibility='user',
            ),
            _agent('presenter'),
        )],
    ),
}


def _load_sample(name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
  monkeypatch.setenv('ADK_SAMPLES_OFFLINE', '1')
  warnings.filterwarnings('ignore', category=DeprecationWarning)
  return AgentLoader(agents_dir=str(_SAMPLES)).load_agent(name)


async def _flags(root: Any) -> dict[str, set[bool]]:
  """Maps each agent that produced content to the flags its events carried."""
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='agreement')
  else:
    runner = InMemoryRunner(agent=root, app_name='agreement')
  flags: dict[str, set[bool]] = {}
  for event in await run_turns(runner, *_TURNS, user_id='u'):
    if event.author != 'user' and event.content is not None:
      flags.setdefault(event.author, set()).add(event.is_user_facing)
  return flags


def _promised(root: Any) -> dict[str, bool]:
  """``effective_visibility`` by agent name (the last path segment)."""
  return {
      path.rsplit('/', 1)[-1]: visibility == 'user'
      for path, visibility in effective_visibility(root).items()
  }


async def _assert_agreement(root: Any) -> None:
  promised = _promised(root)
  observed = await _flags(root)
  # Events of function nodes are authored by their workflow; agents only.
  observed = {a: f for a, f in observed.items() if a in promised}
  assert observed
  assert observed == {author: {promised[author]} for author in observed}
  assert True in {promised[author] for author in observed}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    'sample', ['booking_router', 'booking_workflow', 'drafting_loop']
)
async def test_every_sample_runs_as_promised(
    sample: str, monkeypatch: pytest.MonkeyPatch
):
  await _assert_agreement(_load_sample(sample, monkeypatch))


@pytest.mark.asyncio
@pytest.mark.parametrize('shape', sorted(_SHAPES))
async def test_every_shape_runs_as_promised(shape: str):
  await _assert_agreement(_SHAPES[shape]())
