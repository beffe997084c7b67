"""Every finding of check_agent_tree over a matrix of topologies.

The PR tests check one code at a time; these check the whole list of findings
for each tree, so a check that starts firing where it should not is caught.
For workflow node inputs, each hint is applied and both trees are run, to
show that the fix changes the model request; `adk check` reports them too.
"""

from __future__ import annotations

import pathlib
from typing import Any
import warnings

import _pr_tests
from click.testing import CliRunner
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.cli.cli_tools_click import main
from google.adk.diagnostics import check_agent_tree
from google.adk.events.event import Event
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
import pytest

history = _pr_tests._load('diagnostics/test_history_diagnostics.py')


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


def _flow(*edges: Any) -> Workflow:
  return Workflow(name='flow', edges=list(edges))


def _join(**merge_kwargs: Any) -> Workflow:
  left, right = _a('left', output_key='l'), _a('right', output_key='r')
  join = JoinNode(name='join')
  merge = _a('merge', '{l} {r}', **merge_kwargs)
  return _flow(
      (START, left), (START, right), (left, join), (right, join), (join, merge)
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
    'workflow: the README booker gets its input and {intent}': (
        lambda: _flow((
            START,
            _a('classifier', output_key='intent'),
            _a('booker', 'About {intent}.'),
        )),
        [('info', 'ADK-D103', 'booker')],
    ),
    'workflow: the README booker with include_sources': (
        lambda: _flow((
            START,
            _a('classifier', output_key='intent'),
            _a('booker', 'About {intent}.', include_sources=['user', 'self']),
        )),
        [],
    ),
    'workflow: a route function hands on no input': (
        lambda: _flow(
            (START, _a('classifier', output_key='intent'), _route),
            (_route, {'a': _a('booker', 'About {intent}.')}),
        ),
        [],
    ),
    'workflow: a route function, the producer named': (
        lambda: _flow(
            (START, _a('classifier', output_key='intent'), _route),
            (
                _route,
                {
                    'a': _a(
                        'booker',
                        'About {intent}.',
                        include_sources=['user', 'classifier'],
                    )
                },
            ),
        ),
        [('info', 'ADK-D103', 'booker')],
    ),
    'workflow: a reader two nodes on sees only its input': (
        lambda: _flow((
            START,
            _a('researcher', output_key='notes'),
            _a('writer'),
            _a('editor', 'Check {notes}.'),
        )),
        [],
    ),
    'workflow: a reader two nodes on that names the producer': (
        lambda: _flow((
            START,
            _a('researcher', output_key='notes'),
            _a('writer'),
            _a('editor', 'Check {notes}.', include_sources=['researcher']),
        )),
        # The writer's reply, the editor's input, is dropped too.
        [('warning', 'ADK-D102', 'writer'), ('info', 'ADK-D103', 'editor')],
    ),
    'workflow: a join hands on both replies': (
        lambda: _join(),
        [('info', 'ADK-D103', 'merge'), ('info', 'ADK-D103', 'merge')],
    ),
    'workflow: a nested workflow hands its input on': (
        lambda: _flow((
            START,
            _a('p', output_key='k'),
            Workflow(name='inner', edges=[(START, _a('n', 'Use {k}.'))]),
        )),
        [('info', 'ADK-D103', 'n')],
    ),
    "workflow: a nested workflow's output is a node input": (
        lambda: _flow((
            START,
            Workflow(name='inner', edges=[(START, _a('p', output_key='k'))]),
            _a('n', 'Use {k}.'),
        )),
        [('info', 'ADK-D103', 'n')],
    ),
    'workflow: a task node always keeps its input': (
        lambda: _flow((
            START,
            _a('p', output_key='k'),
            _a('n', 'Use {k}.', mode='task', include_sources=['user']),
        )),
        [('info', 'ADK-D103', 'n')],
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


def _nested_start(**kwargs: Any) -> tuple[Workflow, LlmAgent, str]:
  reader = history._agent('n', 'Use {k}.', **kwargs)
  inner = Workflow(name='inner', edges=[(START, reader)])
  producer = history._agent('p', output_key='k')
  return _flow((START, producer, inner)), reader, 'p'


def _nested_output(**kwargs: Any) -> tuple[Workflow, LlmAgent, str]:
  inner = Workflow(
      name='inner', edges=[(START, history._agent('p', output_key='k'))]
  )
  reader = history._agent('n', 'Use {k}.', **kwargs)
  return _flow((START, inner, reader)), reader, 'p'


def _joined_with_replies(**kwargs: Any) -> tuple[Workflow, LlmAgent, str]:
  left = history._agent('left', output_key='l')
  join = JoinNode(name='join')
  reader = history._agent('merge', 'Use {l}.', **kwargs)
  return _flow((START, left, join, reader)), reader, 'left'


@pytest.mark.parametrize(
    'build, carrier',
    [
        (_joined_with_replies, 'join'),
        (_nested_start, 'p'),
        (_nested_output, 'inner'),
        (
            lambda **kwargs: _joined_with_replies(
                **{'include_sources': ['user', 'join'], **kwargs}
            ),
            'join',
        ),
    ],
)
async def test_the_hint_drops_a_node_input_handed_on(build, carrier):
  root, reader, producer = build()
  [found] = [d for d in check_agent_tree(root) if d.code == 'ADK-D103']
  fixed, fixed_reader, _ = build(include_sources=history._hinted_sources(found))

  before = await history._request_of(root, reader)
  after = await history._request_of(fixed, fixed_reader)

  assert f'node input from {carrier!r}' in found.message
  assert [d for d in check_agent_tree(fixed) if d.code == 'ADK-D103'] == []
  assert f'reply of {producer}' in history._history(before)
  assert f'reply of {producer}' not in history._history(after)


async def test_a_task_node_is_told_to_drop_the_key():
  def flow(instruction: str) -> tuple[Workflow, LlmAgent]:
    reader = history._agent('n', instruction, mode='task')
    producer = history._agent('p', output_key='k')
    return _flow((START, producer, reader)), reader

  root, reader = flow('Use {k}.')
  [found] = [d for d in check_agent_tree(root) if d.code == 'ADK-D103']
  fixed, fixed_reader = flow('Do the task.')  # The hint, applied.

  before = await history._request_of(root, reader)
  after = await history._request_of(fixed, fixed_reader)

  assert found.hint.startswith("Remove {k} from the instruction of 'n'")
  assert check_agent_tree(fixed) == []
  assert 'reply of p' in before.config.system_instruction
  assert 'reply of p' not in after.config.system_instruction
  assert 'reply of p' in history._history(after)


async def test_an_unknown_source_fixed_lets_the_node_input_through():
  def router(source: str) -> tuple[Workflow, LlmAgent]:
    booker = history._agent('booker', include_sources=['user', source])
    classifier = history._agent('classifier', output_key='intent')
    return _flow((START, classifier, booker)), booker

  root, booker = router('clasifier')
  [found] = check_agent_tree(root)
  fixed, fixed_booker = router('classifier')  # The hint, applied.

  before = await history._request_of(root, booker)
  after = await history._request_of(fixed, fixed_booker)

  assert (found.code, found.agent) == ('ADK-D104', 'booker')
  assert 'no agent or workflow node named' in found.message
  assert found.hint.startswith("Did you mean 'classifier'?")
  assert check_agent_tree(fixed) == []
  assert 'reply of classifier' not in history._history(before)
  assert 'reply of classifier' in history._history(after)


async def test_a_source_on_a_parallel_branch_is_reported_and_the_join_fixes_it():
  def fan_out(*, joined_first: bool) -> tuple[Workflow, LlmAgent]:
    scout = history._agent('scout')
    reader = history._agent('reader', include_sources=['user', 'scout'])
    join = JoinNode(name='join')
    if joined_first:  # The hint, applied: the reader after the join.
      edges = [(START, scout, join), (START, history._agent('critic'), join)]
      return _flow(*edges, (join, reader)), reader
    return _flow((START, scout, join), (START, reader, join)), reader

  root, reader = fan_out(joined_first=False)
  [found] = [d for d in check_agent_tree(root) if d.code == 'ADK-D104']
  fixed, fixed_reader = fan_out(joined_first=True)

  before = await history._request_of(root, reader)
  after = await history._request_of(fixed, fixed_reader)

  assert found.agent == 'reader'
  assert "'scout' runs in parallel with it" in found.message
  assert found.hint.startswith('Join the branches first')
  assert [d for d in check_agent_tree(fixed) if d.code == 'ADK-D104'] == []
  assert 'reply of scout' not in history._history(before)
  assert 'reply of scout' in history._history(after)


def test_routed_alternatives_are_not_parallel():
  booker = history._agent('booker', include_sources=['user', 'info'])
  root = _flow(
      (START, history._agent('classifier'), _route),
      (_route, {'booking': booker, 'info': history._agent('info')}),
  )

  assert [d for d in check_agent_tree(root) if d.code == 'ADK-D104'] == []


_ROUTER_FOLDER = """\
from google.adk.agents import LlmAgent
from google.adk.workflow import START, Workflow
classifier = LlmAgent(name='classifier', model='gemini-2.5-flash',
                      instruction='Answer booking or info.', output_key='intent')
booker = LlmAgent(name='booker', model='gemini-2.5-flash',
                  instruction='The request is about {intent}. Help the user.'
                  BOOKER_KWARGS)
root_agent = Workflow(name='router', edges=[(START, classifier, booker)])
"""


@pytest.mark.parametrize(
    'booker_kwargs, expected',
    [
        ('', 'router: 0 errors, 0 warnings, 1 info.'),
        (", include_sources=['user', 'self']", 'router: no problems found.'),
    ],
)
def test_adk_check_reports_the_node_input_twice(
    tmp_path: pathlib.Path, booker_kwargs: str, expected: str
):
  # Agent modules are imported by folder name: one name per variant.
  folder = tmp_path / ('fixed_router' if booker_kwargs else 'router')
  folder.mkdir()
  (folder / '__init__.py').write_text('from . import agent\n')
  source = _ROUTER_FOLDER.replace('BOOKER_KWARGS', booker_kwargs)
  (folder / 'agent.py').write_text(source)

  result = CliRunner().invoke(main, ['check', str(folder)])

  assert result.exit_code == 0, result.output
  assert result.stdout.splitlines()[-1] == expected
  assert ('info     ADK-D103  booker' in result.stdout) == (not booker_kwargs)
