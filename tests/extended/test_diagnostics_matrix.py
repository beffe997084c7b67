"""Every finding of check_agent_tree over a matrix of topologies.

The PR tests check one code at a time; these check the whole list of findings
for each tree, so a check that starts firing where it should not is caught.
Each code's hint is applied too, in every form the checks write it: the
finding goes away, and both trees are run through a Runner to show that the
run changes as the hint says (the model request, a KeyError or a
WorkflowDataError gone, a reply the user hears); `adk check` reports the
workflow node inputs too.
"""

from __future__ import annotations

import pathlib
from typing import Any
import warnings

import _pr_tests
from _scripted import run_turns
from click.testing import CliRunner
from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.loop_agent import LoopAgent
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.cli.cli_tools_click import main
from google.adk.diagnostics import check_agent_tree
from google.adk.diagnostics import Diagnostic
from google.adk.events.event import Event
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.workflow import JoinNode
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.adk.workflow._errors import WorkflowDataError
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
            ('info', 'ADK-D103', 'critic'),
            ('info', 'ADK-D107', 'critic'),
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
    'workflow: a booker after a classifier gets its input and {intent}': (
        lambda: _flow((
            START,
            _a('classifier', output_key='intent'),
            _a('booker', 'About {intent}.'),
        )),
        [('info', 'ADK-D103', 'booker')],
    ),
    'workflow: a booker after a classifier, with include_sources': (
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


# Each code's hint, applied: the finding goes away and the run changes as the
# hint says. The trees run on history's recording model, so each agent's
# requests can be read after the run.


async def _run(root: Any, state: dict[str, Any] | None = None) -> list[Event]:
  """Runs the tree on one user message, with ``state`` seeded."""
  return await run_turns(
      InMemoryRunner(node=root, app_name='app'), 'hello', state=state
  )


def _only(root: Any, code: str) -> Diagnostic:
  [found] = [d for d in check_agent_tree(root) if d.code == code]
  return found


def _coded(root: Any, code: str) -> list[Diagnostic]:
  return [d for d in check_agent_tree(root) if d.code == code]


def _says(
    name: str, reply: str, instruction: str = 'Help.', **kwargs: Any
) -> LlmAgent:
  """An agent whose model always replies ``reply``."""
  model = history._RecordingModel(reply=reply)
  return history._agent(name, instruction, model=model, **kwargs)


def _loop(*sub_agents: Any, iterations: int = 1) -> LoopAgent:
  return _c(LoopAgent, 'loop', *sub_agents, max_iterations=iterations)


def _user_facing_replies(events: list[Event]) -> list[str]:
  return [
      event.content.parts[0].text
      for event in events
      if event.is_final_response()
      and event.is_user_facing
      and event.content
      and event.content.parts
      and event.content.parts[0].text
  ]


def _d101_typo(fixed: str | None) -> tuple[Any, LlmAgent]:
  classifier = history._agent(
      'classifier',
      output_key='intnet' if fixed == 'output_key' else 'intent',
  )
  instruction = {
      None: 'About {intnet}.',
      'output_key': 'About {intnet}.',
      'did you mean': 'About {intent}.',
      'optional': 'About {intnet?}.',
  }[fixed]
  booker = history._agent('booker', instruction)
  return history._sequence(classifier, booker), booker


def _d101_producer_after(fixed: str | None) -> tuple[Any, LlmAgent]:
  classifier = history._agent('classifier', output_key='intent')
  booker = history._agent('booker', 'About {intent}.')
  if fixed:  # 'classifier' moved before 'booker'.
    return history._sequence(classifier, booker), booker
  return history._sequence(booker, classifier), booker


def _d101_workflow_producer_after(fixed: str | None) -> tuple[Any, LlmAgent]:
  classifier = history._agent('classifier', output_key='intent')
  booker = history._agent('booker', 'About {intent}.')
  if fixed:  # An edge from 'classifier' to 'booker' instead.
    return _flow((START, classifier, booker)), booker
  return _flow((START, booker, classifier)), booker


def _d101_code_after(fixed: str | None) -> tuple[Any, LlmAgent]:
  classifier = history._agent(
      'classifier', output_key='intent' if fixed else None
  )
  booker = history._agent('booker', 'About {intent}.')
  return history._sequence(classifier, booker, _Custom(name='custom')), booker


def _d101_loop_sibling(fixed: str | None) -> tuple[Any, LlmAgent]:
  drafter = history._agent('drafter', 'Revise {feedback}.')
  critic = history._agent('critic', 'Judge.', output_key='feedback')
  if fixed:  # 'critic' runs before 'drafter' in every iteration.
    return _loop(critic, drafter), drafter
  return _loop(drafter, critic), drafter


def _d101_callback(fixed: str | None) -> tuple[Any, LlmAgent]:
  def may_set_intent(callback_context):
    del callback_context  # It does not set 'intent' on this run.

  setter = history._agent('setter', before_agent_callback=may_set_intent)
  instruction = 'About {intent?}.' if fixed else 'About {intent}.'
  booker = history._agent('booker', instruction)
  return history._sequence(setter, booker), booker


def _d101_persisted(fixed: str | None) -> tuple[Any, LlmAgent]:
  instruction = 'Greet {user:name?}.' if fixed else 'Greet {user:name}.'
  greeter = history._agent('greeter', instruction)
  return history._sequence(greeter), greeter


# name: (build, the fix build applies, what the hint says, the state the fixed
# tree's run is seeded with, what the reader's instruction then holds)
_D101_HINTS = {
    'a typo: the key it suggests': (
        _d101_typo,
        'did you mean',
        'Did you mean {intent}?',
        None,
        'About reply of classifier.',
    ),
    'a typo: output_key on the producer': (
        _d101_typo,
        'output_key',
        "Set output_key='intnet' on the agent that produces it",
        None,
        'About reply of classifier.',
    ),
    'a typo: the key made optional': (
        _d101_typo,
        'optional',
        'or write {intnet?} if it may be missing',
        None,
        'About .',
    ),
    'a typo: the key seeded and made optional': (
        _d101_typo,
        'optional',
        (
            'write {intnet?} if it may be missing or the application seeds it'
            " (create_session(state={'intnet': ...}))"
        ),
        {'intnet': 'booking'},
        'About booking.',
    ),
    'a producer after the reader': (
        _d101_producer_after,
        'moved',
        "Move 'classifier' before 'booker'",
        None,
        'About reply of classifier.',
    ),
    'a producer after the reader in a workflow': (
        _d101_workflow_producer_after,
        'moved',
        "Move 'classifier' before 'booker'",
        None,
        'About reply of classifier.',
    ),
    'code after the reader may write it': (
        _d101_code_after,
        'output_key',
        "Set output_key='intent' on the agent that produces it",
        None,
        'About reply of classifier.',
    ),
    'a later loop sibling': (
        _d101_loop_sibling,
        'moved',
        "Run 'critic' before 'drafter' on every path",
        None,
        'Revise reply of critic.',
    ),
    'a callback may write it': (
        _d101_callback,
        'optional',
        (
            "If code in 'setter' sets 'intent', or it may be missing, write"
            ' {intent?}'
        ),
        None,
        'About .',
    ),
    'a key kept across sessions': (
        _d101_persisted,
        'optional',
        (
            'Write {user:name?} if it may be missing or is set before the run'
            ' (in an earlier session, or with'
            " create_session(state={'user:name': ...}))"
        ),
        {'user:name': 'Ada'},
        'Greet Ada.',
    ),
}


@pytest.mark.parametrize('name', sorted(_D101_HINTS))
async def test_the_d101_hint_applied_gets_rid_of_the_key_error(name):
  build, fix, hinted, seeded, rendered = _D101_HINTS[name]
  root, reader = build(None)
  found = _only(root, 'ADK-D101')
  fixed, fixed_reader = build(fix)  # The hint, applied.

  with pytest.raises(KeyError, match='Context variable not found'):
    await _run(root)
  await _run(fixed, seeded)

  assert found.agent == reader.name and hinted in found.hint
  assert _coded(fixed, 'ADK-D101') == []
  assert reader.model.requests == []
  [request] = fixed_reader.model.requests
  assert rendered in request.config.system_instruction


def _routed_on(route: Any, classifier: LlmAgent) -> tuple[Workflow, LlmAgent]:
  booker = history._agent('booker')
  branches = {'booking': booker, 'info': history._agent('informer')}
  return _flow((START, classifier, route, branches)), booker


def _d106_no_producer(fixed: str | None) -> tuple[Workflow, LlmAgent]:
  def route_on_mood(mood: str):
    return Event(route=mood)

  def route_with_default(mood: str | None = None):
    return Event(route=mood)

  route = route_with_default if fixed == 'default' else route_on_mood
  output_key = 'mood' if fixed == 'output_key' else 'intent'
  classifier = _says('classifier', 'booking', output_key=output_key)
  return _routed_on(route, classifier)


def _d106_typo(fixed: str | None) -> tuple[Workflow, LlmAgent]:
  def route_on_intnt(intnt: str):
    return Event(route=intnt)

  def route_on_intent(intent: str):
    return Event(route=intent)

  route = route_on_intent if fixed else route_on_intnt
  classifier = _says('classifier', 'booking', output_key='intent')
  return _routed_on(route, classifier)


def _d106_producer_after(fixed: str | None) -> tuple[Workflow, LlmAgent]:
  def route_on_topic(topic: str):
    return Event(route=topic)

  classifier = _says('classifier', 'booking', output_key='topic')
  booker = history._agent('booker')
  if fixed:  # 'classifier' moved before 'route_on_topic'.
    return _flow((START, classifier, route_on_topic, {'booking': booker})), (
        booker
    )
  return (
      _flow((START, route_on_topic, {'booking': booker}), (booker, classifier)),
      booker,
  )


def _d106_loop_exit(fixed: str | None) -> tuple[Workflow, LlmAgent]:
  def should_stop(verdict: str):
    return Event(route='done' if verdict == 'good' else 'again')

  drafter = history._agent('drafter', output_key='draft')
  critic = _says('critic', 'good', 'Judge {draft}.', output_key='verdict')
  presenter = history._agent('presenter')
  branches = {'again': drafter, 'done': presenter}
  if fixed:  # 'critic' runs before 'should_stop' on every path.
    return (
        _flow((START, drafter, critic, should_stop), (should_stop, branches)),
        presenter,
    )
  return (
      _flow(
          (START, should_stop),
          (should_stop, branches),
          (drafter, critic, should_stop),
      ),
      presenter,
  )


def _d106_code_before(fixed: str | None) -> tuple[Workflow, LlmAgent]:
  def prepare(node_input: Any):
    return node_input  # It does not set 'mood' on this run.

  def route_on_mood(mood: str):
    return Event(route=mood)

  def route_with_default(mood: str | None = None):
    return Event(route=mood)

  route = route_with_default if fixed else route_on_mood
  booker = history._agent('booker')
  return _flow((START, prepare, route, {'booking': booker})), booker


# name: (build, the fix build applies, what the hint says, the state the fixed
# tree's run is seeded with, whether the agent after the node then runs)
_D106_HINTS = {
    'no producer: output_key on it': (
        _d106_no_producer,
        'output_key',
        "Set output_key='mood' on the agent that produces it",
        None,
        True,
    ),
    'no producer: a default': (
        _d106_no_producer,
        'default',
        'or give the parameter a default (mood=None) if it may be missing',
        None,
        False,
    ),
    'no producer: seeded, with a default': (
        _d106_no_producer,
        'default',
        (
            'give the parameter a default (mood=None) if it may be missing or'
            " the application seeds it (create_session(state={'mood': ...}))"
        ),
        {'mood': 'booking'},
        True,
    ),
    'a typo: the key it suggests': (
        _d106_typo,
        'did you mean',
        "Did you mean 'intent'?",
        None,
        True,
    ),
    'a producer after the route': (
        _d106_producer_after,
        'moved',
        "Move 'classifier' before 'route_on_topic'",
        None,
        True,
    ),
    'a loop exit before the producer': (
        _d106_loop_exit,
        'moved',
        "Run 'critic' before 'should_stop' on every path",
        None,
        True,
    ),
    'a function node before it may write it': (
        _d106_code_before,
        'default',
        (
            "If code in 'prepare' sets 'mood', or it may be missing, give the"
            ' parameter a default (mood=None)'
        ),
        None,
        False,
    ),
}


@pytest.mark.parametrize('name', sorted(_D106_HINTS))
async def test_the_d106_hint_applied_lets_the_function_node_run(name):
  build, fix, hinted, seeded, next_runs = _D106_HINTS[name]
  root, _ = build(None)
  found = _only(root, 'ADK-D106')
  fixed, after_route = build(fix)  # The hint, applied.

  with pytest.raises(WorkflowDataError, match='Missing value for parameter'):
    await _run(root)
  events = await _run(fixed, seeded)

  assert hinted in found.hint
  assert _coded(fixed, 'ADK-D106') == []
  assert [e.error_code for e in events if e.error_code] == []
  assert len(after_route.model.requests) == int(next_runs)


def _silent_loop(fixed: str | None) -> Any:
  # Only explicit values silence a tree: inference always leaves an answer.
  critic = history._agent(
      'critic', visibility='user' if fixed == 'visibility' else 'internal'
  )
  drafter = history._agent('drafter', output_key='draft', visibility='internal')
  loop = _loop(drafter, critic)
  if fixed == 'presenter':
    return _c(SequentialAgent, 'app', loop, history._agent('presenter'))
  return loop


def _silent_workflow(fixed: str | None) -> Any:
  join = JoinNode(name='join')
  critic = history._agent(
      'critic', visibility='user' if fixed == 'visibility' else 'internal'
  )
  drafter = history._agent('drafter', visibility='internal')
  edges = [(START, drafter, join), (START, critic, join)]
  if fixed == 'presenter':
    edges.append((join, history._agent('presenter')))
  return _flow(*edges)


def _silent_pipeline(fixed: str | None) -> Any:
  return history._sequence(
      history._agent('classifier', output_key='intent', visibility='internal'),
      history._agent(
          'booker',
          'About {intent}.',
          visibility='user' if fixed else 'internal',
      ),
  )


@pytest.mark.parametrize(
    'build, fix, hinted, heard',
    [
        (
            _silent_loop,
            'presenter',
            'SequentialAgent(sub_agents=[loop, presenter])',
            'reply of presenter',
        ),
        (
            _silent_loop,
            'visibility',
            "set visibility='user'",
            'reply of critic',
        ),
        (
            _silent_workflow,
            'presenter',
            'an edge from its last node to a presenter node',
            'reply of presenter',
        ),
        (
            _silent_workflow,
            'visibility',
            "set visibility='user'",
            'reply of critic',
        ),
        (
            _silent_pipeline,
            'visibility',
            "set visibility='user'",
            'reply of booker',
        ),
    ],
)
async def test_the_d105_hint_applied_gives_the_user_a_reply(
    build, fix, hinted, heard
):
  root = build(None)
  found = _only(root, 'ADK-D105')
  fixed = build(fix)  # The hint, applied.

  before = _user_facing_replies(await _run(root))
  after = _user_facing_replies(await _run(fixed))

  assert found.agent == root.name and hinted in found.hint
  assert _coded(fixed, 'ADK-D105') == []
  assert before == []
  assert after == [heard]


def _unused_research(
    fixed: str | None, workflow: bool
) -> tuple[Any, LlmAgent, LlmAgent]:
  researcher = history._agent(
      'researcher',
      output_key='notes' if fixed == 'output_key' else None,
      visibility='user' if fixed == 'visibility' else None,
  )
  instruction = 'Write from {notes}.' if fixed == 'output_key' else 'Write.'
  writer = history._agent(
      'writer', instruction, include_sources=['user', 'self']
  )
  if workflow:  # The writer's include_sources drops its node input.
    return _flow((START, researcher, writer)), researcher, writer
  return history._sequence(researcher, writer), researcher, writer


@pytest.mark.parametrize('workflow', [False, True])
@pytest.mark.parametrize(
    'fix, hinted',
    [
        ('output_key', "Set output_key on 'researcher' and read it with {key}"),
        ('visibility', "or set visibility='user' if the user should see it"),
    ],
)
async def test_the_d102_warning_hint_applied_hands_the_reply_on(
    fix, hinted, workflow
):
  root, _, writer = _unused_research(None, workflow)
  found = _only(root, 'ADK-D102')
  # The hint, applied.
  fixed, researcher, fixed_writer = _unused_research(fix, workflow)

  await _run(root)
  after = _user_facing_replies(await _run(fixed))

  assert (found.severity.value, found.agent) == ('warning', 'researcher')
  assert hinted in found.hint
  # Named in the writer's include_sources, the reply would reach it through
  # history only: still an ADK-D102, as an info. In a workflow, named by the
  # node after it, it is a node input (test_history_diagnostics).
  assert ('include_sources of the node after it' in found.hint) == workflow
  assert _coded(fixed, 'ADK-D102') == []
  [before_request] = writer.model.requests
  [after_request] = fixed_writer.model.requests
  assert 'reply of researcher' not in history._history(before_request)
  assert 'reply of researcher' not in before_request.config.system_instruction
  if fix == 'output_key':
    assert 'reply of researcher' in after_request.config.system_instruction
  else:
    assert researcher.visibility == 'user'
    assert 'reply of researcher' in after


@pytest.mark.parametrize(
    'fix, hinted',
    [
        ('output_key', "Set output_key on 'drafter' to hand its reply on"),
        ('visibility', "or visibility='user' if the user should see it"),
    ],
)
async def test_the_d102_info_hint_applied_hands_the_reply_on(fix, hinted):
  def pipeline(fixed: str | None) -> Any:
    drafter = history._agent(
        'drafter',
        output_key='draft' if fixed == 'output_key' else None,
        visibility='user' if fixed == 'visibility' else None,
    )
    return history._sequence(
        drafter, history._agent('editor', include_contents='none')
    )

  root = pipeline(None)
  found = _only(root, 'ADK-D102')
  fixed = pipeline(fix)  # The hint, applied.

  before = await _run(root)
  after = await _run(fixed)

  def stored(events: list[Event]) -> list[Any]:
    return [
        e.actions.state_delta['draft']
        for e in events
        if e.actions and 'draft' in e.actions.state_delta
    ]

  assert (found.severity.value, found.agent) == ('info', 'drafter')
  assert hinted in found.hint
  assert _coded(fixed, 'ADK-D102') == []
  assert stored(before) == [] and _user_facing_replies(before) == [
      'reply of editor'
  ]
  if fix == 'output_key':
    assert stored(after) == ['reply of drafter']
  else:
    assert _user_facing_replies(after) == [
        'reply of drafter',
        'reply of editor',
    ]


def _booker_after_classifier(
    instruction: str = 'About {intent}.', **booker_kwargs: Any
) -> tuple[Any, LlmAgent, str]:
  classifier = history._agent('classifier', output_key='intent')
  booker = history._agent('booker', instruction, **booker_kwargs)
  return history._sequence(classifier, booker), booker, 'classifier'


def _loop_reader(reader: str) -> Any:
  def build(**kwargs: Any) -> tuple[Any, LlmAgent, str]:
    drafter = history._agent(
        'drafter',
        'Revise {feedback?}.',
        output_key='draft',
        **(kwargs if reader == 'drafter' else {}),
    )
    critic = history._agent(
        'critic',
        'Judge {draft}.',
        output_key='feedback',
        **(kwargs if reader == 'critic' else {}),
    )
    agents = {'drafter': drafter, 'critic': critic}
    producer = 'critic' if reader == 'drafter' else 'drafter'
    return _loop(drafter, critic, iterations=2), agents[reader], producer

  return build


@pytest.mark.parametrize(
    'build, kwargs',
    [
        (_booker_after_classifier, {}),
        (_booker_after_classifier, {'include_contents': 'none'}),
        (_booker_after_classifier, {'include_sources': ['classifier']}),
        (_booker_after_classifier, {'include_sources': ['user', 'classifier']}),
        (_loop_reader('critic'), {}),
        (_loop_reader('drafter'), {}),
    ],
)
async def test_the_d103_hint_applied_drops_the_history_copy(build, kwargs):
  root, reader, producer = build(**kwargs)
  [found] = [d for d in _coded(root, 'ADK-D103') if d.agent == reader.name]
  hinted = history._hinted_sources(found)
  fixed_kwargs = {**kwargs, 'include_sources': hinted}
  fixed, fixed_reader, _ = build(**fixed_kwargs)  # The hint, applied.

  await _run(root)
  await _run(fixed)
  before, after = reader.model.requests[-1], fixed_reader.model.requests[-1]

  assert found.agent == reader.name
  assert 'as a message in its conversation history' in found.message
  assert [d.agent for d in _coded(fixed, 'ADK-D103')] == [
      d.agent for d in _coded(root, 'ADK-D103') if d.agent != reader.name
  ]
  assert f'reply of {producer}' in history._history(before)
  assert f'reply of {producer}' not in history._history(after)
  assert f'reply of {producer}' in after.config.system_instruction


async def test_the_d103_hint_in_a_sequence_removing_the_key_is_the_other_fix():
  root, booker, _ = _booker_after_classifier()
  found = _only(root, 'ADK-D103')
  fixed, fixed_booker, _ = _booker_after_classifier('Help the user.')

  before = await history._request_of(root, booker)
  after = await history._request_of(fixed, fixed_booker)

  assert 'or remove {intent} from its instruction' in found.hint
  assert _coded(fixed, 'ADK-D103') == []
  assert 'reply of classifier' in before.config.system_instruction
  assert 'reply of classifier' not in after.config.system_instruction
  assert 'reply of classifier' in history._history(after)


async def test_the_d104_hint_in_a_sequence_fixes_the_name():
  root, booker, _ = _booker_after_classifier(
      'Help.', include_sources=['user', 'clasifier']
  )
  found = _only(root, 'ADK-D104')
  fixed, fixed_booker, _ = _booker_after_classifier(
      'Help.', include_sources=['user', 'classifier']
  )  # The hint, applied.

  before = await history._request_of(root, booker)
  after = await history._request_of(fixed, fixed_booker)

  assert found.hint.startswith("Did you mean 'classifier'?")
  assert check_agent_tree(fixed) == []
  assert 'reply of classifier' not in history._history(before)
  assert 'reply of classifier' in history._history(after)


async def test_the_d104_hint_removing_an_entry_that_matches_nothing():
  root, booker, _ = _booker_after_classifier(
      'Help.', include_sources=['user', 'nobody']
  )
  found = _only(root, 'ADK-D104')
  fixed, fixed_booker, _ = _booker_after_classifier(
      'Help.', include_sources=['user']
  )  # The hint, applied.

  before = await history._request_of(root, booker)
  after = await history._request_of(fixed, fixed_booker)

  assert found.hint.startswith('Known names: ')
  assert found.hint.endswith('Fix the name or remove the entry.')
  assert check_agent_tree(fixed) == []
  # The entry never matched: its model saw what it sees without it.
  assert history._history(before) == history._history(after) == 'hello'


async def test_the_d104_parallel_hint_removing_the_entry():
  def fan_out(*sources: str) -> tuple[Workflow, LlmAgent]:
    reader = history._agent('reader', include_sources=['user', *sources])
    join = JoinNode(name='join')
    edges = [(START, history._agent('scout'), join), (START, reader, join)]
    return _flow(*edges), reader

  root, reader = fan_out('scout')
  found = _only(root, 'ADK-D104')
  fixed, fixed_reader = fan_out()  # The hint, applied.

  before = await history._request_of(root, reader)
  after = await history._request_of(fixed, fixed_reader)

  assert found.hint.endswith('or remove the entry.')
  assert 'through state' not in found.hint
  assert _coded(fixed, 'ADK-D104') == []
  assert history._history(before) == history._history(after)
  assert 'reply of scout' not in history._history(after)


def test_passing_a_parallel_output_through_state_is_no_fix():
  # What the ADK-D104 parallel hint no longer suggests: the reader may run
  # before the named node has stored its output.
  scout = history._agent('scout', output_key='scouted')
  reader = history._agent('reader', 'Use {scouted}.', include_sources=['user'])
  join = JoinNode(name='join')
  root = _flow((START, scout, join), (START, reader, join))

  found = _only(root, 'ADK-D101')

  assert (found.severity.value, found.agent) == ('warning', 'reader')
  assert 'in a parallel branch' in found.message
