"""Every finding of check_agent_tree over a matrix of topologies.

The PR tests check one code at a time; these check the whole list of findings
for each tree, so a check that starts firing where it should not is caught.
"""

from __future__ import annotations

from typing import Any
import warnings

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import check_agent_tree
from google.adk.events.event import Event
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
import pytest


def _a(name: str, instruction: str = 'Go.', **kwargs: Any) -> LlmAgent:
  return LlmAgent(
      name=name, model='gemini-2.5-flash', instruction=instruction, **kwargs
  )


def _c(kind: type, name: str, *subs: Any, **kwargs: Any) -> Any:
  with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    return kind(name=name, sub_agents=list(subs), **kwargs)


class _Custom(BaseAgent):

  async def _run_async_impl(self, ctx):
    yield Event(author=self.name)


def _route(node_input: Any):
  return Event(route='a')


def _needs_topic(topic: str):
  return Event(route=topic)


def _joined() -> Workflow:
  left, right = _a('left', output_key='l'), _a('right', output_key='r')
  join = JoinNode(name='join')
  merge = _a('merge', '{l} {r}', include_sources=['user'])
  return Workflow(
      name='flow',
      edges=[
          (START, left),
          (START, right),
          (left, join),
          (right, join),
          (join, merge),
      ],
  )


CASES = {
    'clean pipeline': (
        lambda: _c(
            SequentialAgent,
            'p',
            _a('classifier', output_key='intent'),
            _a('booker', 'About {intent}.', include_sources=['user', 'self']),
        ),
        [],
    ),
    'default history duplicates the template value': (
        lambda: _c(
            SequentialAgent,
            'p',
            _a('classifier', output_key='intent'),
            _a('booker', 'About {intent}.'),
        ),
        [('info', 'ADK-D103', 'booker')],
    ),
    'nested sequences keep their order': (
        lambda: _c(
            SequentialAgent,
            'p',
            _c(SequentialAgent, 'inner', _a('x', output_key='k')),
            _a('y', 'Use {k}.', include_sources=['user']),
        ),
        [],
    ),
    'parallel branches then a reader': (
        lambda: _c(
            SequentialAgent,
            'p',
            _c(
                ParallelAgent,
                'both',
                _a('left', output_key='l'),
                _a('right', output_key='r'),
            ),
            _a('merge', '{l} {r}', include_sources=['user']),
        ),
        [],
    ),
    'a reader in a parallel branch': (
        lambda: _c(
            SequentialAgent,
            'p',
            _c(
                ParallelAgent,
                'both',
                _a('left', output_key='l'),
                _a('right', 'Use {l}.', output_key='r'),
            ),
            _a('merge', '{r}', include_sources=['user']),
        ),
        [('warning', 'ADK-D101', 'right')],
    ),
    'loop with a presenter': (
        lambda: _c(
            SequentialAgent,
            'app',
            _c(
                LoopAgent,
                'loop',
                _a('drafter', 'Revise {feedback?}.', output_key='draft'),
                _a('critic', 'Judge {draft}.', output_key='feedback'),
                max_iterations=2,
            ),
            _a('presenter', 'Show {draft}.', include_sources=['user']),
        ),
        # From the second iteration each also hears the other's reply.
        [('info', 'ADK-D103', 'drafter'), ('info', 'ADK-D103', 'critic')],
    ),
    'loop at the root with a typo': (
        lambda: _c(
            LoopAgent,
            'loop',
            _a('drafter', 'Revise {feedbak}.', output_key='draft'),
            _a('critic', 'Judge {draft}.', output_key='feedback'),
            max_iterations=2,
        ),
        [
            ('error', 'ADK-D101', 'drafter'),
            ('warning', 'ADK-D105', 'loop'),
            ('info', 'ADK-D103', 'critic'),
        ],
    ),
    'an agent tool reads the caller key only possibly': (
        lambda: _a(
            'coordinator',
            output_key='summary',
            tools=[AgentTool(agent=_a('helper', 'Use {summary}.'))],
        ),
        [('info', 'ADK-D101', 'helper')],
    ),
    'a custom agent may write state': (
        lambda: _c(
            SequentialAgent,
            'p',
            _Custom(name='custom'),
            _a('reader', 'Use {k}.', include_sources=['user']),
        ),
        [('info', 'ADK-D101', 'reader')],
    ),
    'contents none with an excluded speaker in between': (
        lambda: _c(
            SequentialAgent,
            'p',
            _a('a1'),
            _a('a2', include_sources=['user'], output_key='two'),
            _a(
                'a3',
                include_contents='none',
                include_sources=['user', 'a1'],
            ),
        ),
        [('info', 'ADK-D102', 'a1')],
    ),
    'contents current sees the whole invocation': (
        lambda: _c(
            SequentialAgent,
            'p',
            _a('a1'),
            _a('a2', include_sources=['user'], output_key='two'),
            _a('a3', include_contents='current'),
        ),
        [('info', 'ADK-D102', 'a1')],
    ),
    'workflow join waits for both branches': (
        lambda: _joined(),
        [],
    ),
    'workflow route on a produced key': (
        lambda: Workflow(
            name='flow',
            edges=[(
                START,
                _a('classifier', output_key='topic'),
                _needs_topic,
                {'a': _a('x'), 'b': _a('y')},
            )],
        ),
        [],
    ),
    'workflow route before the producer': (
        lambda: Workflow(
            name='flow',
            edges=[
                (START, _needs_topic, {'a': _a('x', output_key='topic')}),
            ],
        ),
        [('warning', 'ADK-D106', '_needs_topic')],
    ),
    'workflow with a routed branch': (
        lambda: Workflow(
            name='flow',
            edges=[(START, _route, {'a': _a('x'), 'b': _a('y')})],
        ),
        [],
    ),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_findings(name):
  build, expected = CASES[name]

  found = [
      (d.severity.value, d.code, d.agent) for d in check_agent_tree(build())
  ]

  assert found == expected
