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

"""The main job: the booking sample as upstream runs it and as the fork does.

Runs ``booking_workflow`` (the router as a 2.13 ``Workflow``; ``--sample
booking_router`` runs the same agents in a ``SequentialAgent``) offline on its
scripted model for three user turns, four times:

* upstream: every agent as upstream runs it with no history setting (in a
  ``Workflow``, whose nodes then default to ``include_contents='none'``; in a
  ``SequentialAgent``, ``'default'``); what the user sees is every final
  response, as upstream's clients show them;
* upstream's other history setting on every agent: ``include_contents=
  'default'`` in a ``Workflow``, ``'none'`` in a ``SequentialAgent``;
* the fork as the sample ships it (``include_sources``), in annotate mode
  (events carry ``is_user_facing``) and in filter mode (the Runner keeps
  internal content out of the stream).

It prints what the user sees in each, what each agent's model received, the
lines of the booker's last request that differ between the three history
settings, and a table of the figures, in 80 columns. A last section runs the
``research_team`` sample (planner, researcher with a search tool, writer) for
10 turns and shows where source windows pay: the writer's request as
upstream builds it, with the plain list ``['user', 'planner',
'researcher']``, and with the sample's windows.

The two upstream configurations run on the fork with its features off, which
is upstream 2.13.0's behaviour: ``--record CONFIG`` prints such a run as JSON
under any interpreter, and tests/samples/test_upstream_parity.py checks that
pristine 2.13.0 and the fork record the same requests and replies. One
difference is an upstream bug the fork fixes (patch 0028): in the Workflow
with ``'default'``, the classifier, right after ``START``, receives the
user's message once, where 2.13.0 sends it twice.

  python contributing/samples/side_by_side.py [--sample booking_router]
  python contributing/samples/side_by_side.py --record upstream
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import json
import os
from pathlib import Path
import re
import sys
import textwrap
from typing import Any
from typing import Callable

# Run as a script, this folder is on sys.path.
import scripted_model

_SAMPLES = Path(__file__).resolve().parent
_WIDTH = 80
_TURNS = (
    'Hi! Could I get a table for two tomorrow at 7pm?',
    'Do you have vegetarian options?',
    'Great. Can we make it 8pm instead?',
)
_UPSTREAM = 'upstream'
# Upstream's other history setting, by the sample's composition.
_OTHER_SETTING = {'booking_workflow': 'default', 'booking_router': 'none'}
_FORK = 'fork'
_DEFAULT_SAMPLE = 'booking_workflow'
_TEAM_SAMPLE = 'research_team'
_TEAM_TURNS = (
    'Write a short guide to installing a heat pump in a 1930s brick house.',
    'Add what it costs, roughly, for a house of 120 square metres.',
    'Mention the grants we can apply for.',
    'What about noise? The neighbours are close.',
    'Compare air-to-water with ground-source heat pumps.',
    'Keep it under 600 words.',
    'Add a short section on insulating first.',
    'Can we keep the old radiators, or do we need underfloor heating?',
    'Make the tone a bit friendlier.',
    'Finish with a three-step checklist.',
)
_PLAIN_LIST = 'fork, plain list'
_WINDOWS = 'fork, windows'
_PLAN = re.compile(r'\bPlan \d+:')
_FINDING = re.compile(r'\bFinding \d+:')
_QUOTE_MARKER = re.compile(r'<<<(?:BEGIN|END)_QUOTED_AGENT_CONTENT>>>')


@dataclasses.dataclass
class _Shown:
  """One agent's final response, as each client mode would present it."""

  author: str
  text: str
  user_facing: bool
  state_keys: list[str]


@dataclasses.dataclass
class _Run:
  """What one configuration did over the turns."""

  # Per turn, the final responses the Runner yielded.
  shown: list[list[_Shown]] = dataclasses.field(default_factory=list)
  # Per agent, per turn, the requests its model received.
  requests: dict[str, list[list[Any]]] = dataclasses.field(default_factory=dict)
  # Per turn, the booker's answer, if it answered.
  booker_answers: list[str] = dataclasses.field(default_factory=list)


def _other(sample: str) -> str:
  """The label of upstream's other history setting for ``sample``."""
  return f"upstream '{_OTHER_SETTING[sample]}'"


def _load_sample(sample: str) -> Any:
  """A fresh copy of the sample's agent tree.

  Under pristine upstream (``--record``), LlmAgent has no ``include_sources``:
  it is told to ignore the field, which the upstream configurations clear
  anyway.
  """
  from google.adk.agents import LlmAgent

  if 'include_sources' not in LlmAgent.model_fields:
    LlmAgent.model_config['extra'] = 'ignore'
    LlmAgent.model_rebuild(force=True)
  spec = importlib.util.spec_from_file_location(
      f'{sample}_agent_{id(object())}',
      _SAMPLES / sample / 'agent.py',
  )
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def _llm_agents(agent: Any) -> list[Any]:
  """The LlmAgents of a tree: sub-agents, and a Workflow's graph nodes.

  A Workflow runs copies of the agents it was built from, so its graph's
  nodes are the agents to configure and whose models to read.
  """
  from google.adk.agents import LlmAgent

  found = [agent] if isinstance(agent, LlmAgent) else []
  children = list(getattr(agent, 'sub_agents', None) or [])
  graph = getattr(agent, 'graph', None)
  if graph is not None:
    children += [node for node in graph.nodes if node is not agent]
  for child in children:
    found.extend(_llm_agents(child))
  return found


def _configure(root: Any, config: str) -> None:
  """Turns the shipped sample into one of the upstream configurations.

  ``upstream`` is what upstream does with no history setting: a Workflow
  node's ``include_contents`` then defaults to ``'none'`` (set here on the
  node, where the Workflow would have set it), any other agent's to
  ``'default'``.
  """
  if config == _FORK:
    return
  in_workflow = getattr(root, 'graph', None) is not None
  for agent in _llm_agents(root):
    if 'include_sources' in type(agent).model_fields:
      agent.include_sources = None
    if config == _UPSTREAM:
      agent.include_contents = 'none' if in_workflow else 'default'
    else:
      agent.include_contents = config.split("'")[1]


async def _run(
    sample: str, config: str, visibility_mode: str | None = None
) -> _Run:
  from google.adk.agents.run_config import RunConfig
  from google.adk.runners import InMemoryRunner
  from google.genai import types

  module = _load_sample(sample)
  _configure(module.root_agent, config)
  agents = {agent.name: agent for agent in _llm_agents(module.root_agent)}
  runner = InMemoryRunner(agent=module.root_agent, app_name='demo')
  session = await runner.session_service.create_session(
      app_name='demo', user_id='guest'
  )
  run = _Run(requests={name: [] for name in agents})
  for text in _TURNS:
    seen = {name: len(agent.model.requests) for name, agent in agents.items()}
    shown = []
    async for event in runner.run_async(
        user_id='guest',
        session_id=session.id,
        new_message=types.Content(role='user', parts=[types.Part(text=text)]),
        run_config=RunConfig(
            **({'visibility_mode': visibility_mode} if visibility_mode else {})
        ),
    ):
      if not event.is_final_response():
        continue
      reply = ''.join(
          part.text or ''
          for part in (event.content and event.content.parts) or []
      )
      shown.append(
          _Shown(
              author=event.author,
              text=reply,
              # Pristine upstream has no flag: everything is for the user.
              user_facing=getattr(event, 'is_user_facing', True),
              state_keys=sorted(event.actions.state_delta),
          )
      )
      if event.author == 'booker':
        run.booker_answers.append(reply)
    run.shown.append(shown)
    for name, agent in agents.items():
      run.requests[name].append(agent.model.requests[seen[name] :])
  return run


def _part_lines(llm_request: Any) -> list[str]:
  """The request's lines, each on one line, quote markers shortened."""
  return [
      ' '.join(_QUOTE_MARKER.sub('"', line).split())
      for line in scripted_model.request_lines(llm_request)
  ]


def _token_counter() -> Callable[[Any], int] | None:
  """Gemini's local tokenizer, if it is installed; None otherwise."""
  try:
    from google.genai.local_tokenizer import LocalTokenizer
    import sentencepiece  # noqa: F401  (the local tokenizer needs it)

    tokenizer = LocalTokenizer(model_name='gemini-2.5-flash')
  except Exception:  # Not installed, or its model file is not at hand.
    return None

  def count(llm_request: Any) -> int:
    return tokenizer.count_tokens(llm_request.contents).total_tokens

  return count


def _rule(title: str) -> None:
  print(f'\n{title}\n' + '─' * _WIDTH)


def _table(rows: list[list[str]], widths: list[int]) -> None:
  """Prints rows with each cell wrapped to its column's width."""
  for row in rows:
    cells = [
        textwrap.wrap(cell, width) or [''] for cell, width in zip(row, widths)
    ]
    for line in range(max(len(cell) for cell in cells)):
      print(
          ' '.join(
              (cell[line] if line < len(cell) else '').ljust(width)
              for cell, width in zip(cells, widths)
          ).rstrip()
      )


def _what_the_user_sees(upstream: _Run, annotate: _Run, filtered: _Run) -> None:
  _rule('1. What the user sees (every final response of a turn)')
  print(
      'upstream: clients show every final response. annotate: each event'
      ' says\nwhether it is for the user. filter: the Runner strips'
      ' internal content.'
  )
  widths = [10, 21, 22, 22]
  for turn, text in enumerate(_TURNS):
    print(f'\nturn {turn + 1}, the user: {text}')
    rows = [['', 'upstream', 'fork, annotate', 'fork, filter']]
    # Every response of the turn gets a row; the filter column holds what
    # the client received for it, if anything.
    sent = list(filtered.shown[turn])
    for plain, flagged in zip(upstream.shown[turn], annotate.shown[turn]):
      if not plain.text and not flagged.text:
        # A route function's or a workflow's closing event: no message.
        continue
      flag = 'is_user_facing=' + str(flagged.user_facing)
      stripped = next((s for s in sent if s.author == plain.author), None)
      if stripped is None:
        filter_cell = '(not sent to the client)'
      elif stripped.text:
        sent.remove(stripped)
        filter_cell = stripped.text
      else:
        sent.remove(stripped)
        keys = ', '.join(stripped.state_keys) or 'none'
        filter_cell = f'(no content; state: {keys})'
      rows.append([
          plain.author,
          plain.text,
          f'{flagged.text} [{flag}]',
          filter_cell,
      ])
    _table(rows, widths)


def _what_models_received(
    runs: dict[str, _Run], count_tokens: Callable[[Any], int] | None
) -> None:
  _rule("2. What each agent's model received (characters, turns 1/2/3)")
  unit = 'characters / tokens' if count_tokens else 'characters'
  if not count_tokens:
    print(
        "No offline tokenizer is installed (google-genai's local tokenizer"
        ' needs\nsentencepiece), so sizes are in characters.'
    )
  rows = [['agent', *runs]]
  for agent in next(iter(runs.values())).requests:
    row = [agent]
    for run in runs.values():
      sizes = []
      for turn in run.requests[agent]:
        if not turn:
          sizes.append('-')
          continue
        size = f'{sum(scripted_model.conversation_chars(r) for r in turn):,}'
        if count_tokens:
          size += f'/{sum(count_tokens(r) for r in turn):,}'
        sizes.append(size)
      row.append(' / '.join(sizes))
    rows.append(row)
  _table(rows, [11, 21, 21, 22])
  print(f'({unit} of the conversation in the request; "-": not called)')


def _differing_lines(runs: dict[str, _Run]) -> None:
  _rule("3. The booker's request at turn 3: lines that differ")
  requests = {
      config: run.requests['booker'][-1][-1] for config, run in runs.items()
  }
  lines = {config: _part_lines(r) for config, r in requests.items()}
  union: list[str] = []
  for config_lines in lines.values():
    for line in config_lines:
      if line not in union:
        union.append(line)
  common = [line for line in union if all(line in l for l in lines.values())]
  marks = [10, 11, 5]
  print(
      'x: in that request. Quote markers shown as ". Lines in all three:'
      f' {len(common)}.'
  )
  header = f'{"":<50} ' + ' '.join(
      label.ljust(width)
      for label, width in zip(
          ('upstream', _quoted_setting(runs), 'fork'), marks
      )
  )
  print(header.rstrip())
  for line in union:
    if line in common:
      continue
    text = line if len(line) <= 50 else line[:49] + '…'
    print(
        f'{text:<50} '
        + ' '.join(
            ('x' if line in lines[config] else '.').center(width)
            for config, width in zip(lines, marks)
        ).rstrip()
    )
  print('\nThe booker answered:')
  for config, run in runs.items():
    answer = run.booker_answers[-1]
    print(textwrap.fill(f'{config}: {answer}', _WIDTH, subsequent_indent='  '))


def _quoted_setting(runs: dict[str, _Run]) -> str:
  """ "'none'" or "'default'": the second column's setting, for a header."""
  return list(runs)[1].removeprefix('upstream ')


def _user_words_seen(llm_request: Any) -> float:
  """Share of the user's messages so far that are in the request."""
  text = '\n'.join(_part_lines(llm_request))
  return sum(turn in text for turn in _TURNS) / len(_TURNS)


def _total_chars(run: _Run) -> int:
  return sum(
      scripted_model.conversation_chars(request)
      for turns in run.requests.values()
      for turn in turns
      for request in turn
  )


def _messages_shown(run: _Run, *, internal_only: bool = False) -> int:
  """Final responses with text that reached the client."""
  return sum(
      1
      for turn in run.shown
      for shown in turn
      if shown.text and not (internal_only and shown.user_facing)
  )


def _figures(runs: dict[str, _Run], filtered: _Run) -> None:
  _rule('4. Figures over the three turns')
  last_booker_request = {
      config: run.requests['booker'][-1][-1] for config, run in runs.items()
  }
  # A client shows upstream's every final response; the fork's column is its
  # filter-mode stream.
  clients = (*list(runs.values())[:2], filtered)
  rows = [
      ['', *runs],
      [
          'characters, all requests',
          *(f'{_total_chars(run):,}' for run in runs.values()),
      ],
      [
          "booker's request, turn 3",
          *(
              f'{scripted_model.conversation_chars(r):,}'
              for r in last_booker_request.values()
          ),
      ],
      [
          "user's messages in it",
          *(f'{_user_words_seen(r):.0%}' for r in last_booker_request.values()),
      ],
      [
          'booker kept the party size',
          *(
              'yes' if 'for two' in run.booker_answers[-1] else 'no'
              for run in runs.values()
          ),
      ],
      ['chat messages shown', *(str(_messages_shown(c)) for c in clients)],
      [
          '...from internal agents',
          *(str(_messages_shown(c, internal_only=True)) for c in clients),
      ],
  ]
  _table(rows, [26, 15, 15, 21])
  print(
      "fork: the sample's include_sources; its messages: the filter-mode"
      ' stream.'
  )


async def _writer_requests(config: str) -> list[Any]:
  """The research team's 10 turns: the writer's request in each turn.

  Args:
    config: ``upstream`` (the fork's features off), ``_PLAIN_LIST`` (the
      writer with ``['user', 'planner', 'researcher']``) or ``_WINDOWS``
      (the sample as shipped).
  """
  from google.adk.runners import InMemoryRunner
  from google.genai import types

  module = _load_sample(_TEAM_SAMPLE)
  _configure(module.root_agent, config if config == _UPSTREAM else _FORK)
  if config == _PLAIN_LIST:
    module.writer.include_sources = ['user', 'planner', 'researcher']
  runner = InMemoryRunner(agent=module.root_agent, app_name='demo')
  session = await runner.session_service.create_session(
      app_name='demo', user_id='guest'
  )
  for text in _TEAM_TURNS:
    async for _ in runner.run_async(
        user_id='guest',
        session_id=session.id,
        new_message=types.Content(role='user', parts=[types.Part(text=text)]),
    ):
      pass
  # The writer calls no tool: one request per turn.
  return list(module.writer.model.requests)


def _holds(llm_request: Any) -> dict[str, int]:
  """What a writer's request holds, counted by kind."""
  text = scripted_model.request_text(llm_request)
  calls = sum(
      1
      for content in llm_request.contents
      for part in content.parts or []
      if part.function_call
  )
  return {
      'user messages': len(scripted_model.user_texts(llm_request)),
      "planner's plans": len(_PLAN.findall(text)),
      "researcher's answers": len(_FINDING.findall(text)),
      # Another agent's calls reach the writer as text.
      'tool calls, with results': calls + text.count('called tool `search`'),
      'its own earlier drafts': len(scripted_model.own_replies(llm_request)),
  }


def _where_windows_pay(runs: dict[str, list[Any]]) -> None:
  turns = len(_TEAM_TURNS)
  _rule(f'5. Source windows: the research team, {turns} turns')
  print(
      f'The {_TEAM_SAMPLE} sample: planner, researcher (with a search tool),'
      ' writer.\nThe writer takes, in "fork, plain list",'
      " include_sources=['user', 'planner',\n'researcher'];"
      ' in "fork, windows", the sample\'s windows:\n'
      "  SourceWindow('user', first=1, last=1)      first and latest message\n"
      "  SourceWindow('planner', last=1)            the latest plan\n"
      "  SourceWindow('researcher', final_answers_only=True)  no tool traffic\n"
  )
  last = {config: requests[-1] for config, requests in runs.items()}
  upstream_chars = scripted_model.conversation_chars(last[_UPSTREAM])
  rows = [
      ["writer's request", *runs],
      [
          f'contents, turn {turns}',
          *(str(len(r.contents)) for r in last.values()),
      ],
      [
          f'characters, turn {turns}',
          *(
              f'{scripted_model.conversation_chars(r):,}'
              f' ({scripted_model.conversation_chars(r) / upstream_chars:.0%})'
              for r in last.values()
          ),
      ],
      [
          f'characters, turns 1-{turns}',
          *(
              f'{sum(map(scripted_model.conversation_chars, requests)):,}'
              for requests in runs.values()
          ),
      ],
  ]
  holds = {config: _holds(r) for config, r in last.items()}
  rows.append([f'in it at turn {turns}:', '', '', ''])
  for kind in holds[_UPSTREAM]:
    rows.append(
        [f'  {kind}', *(str(counts[kind]) for counts in holds.values())]
    )
  _table(rows, [26, 15, 17, 17])
  print(
      'Characters of the conversation, as in 2. With windows the writer sees'
      " the\nuser's first and latest messages, the latest plan and every"
      ' finding, and\nnothing of the search traffic.'
  )


async def _record(sample: str, config: str) -> None:
  """Prints one upstream configuration's run as JSON, for parity checks."""
  run = await _run(sample, config)
  print(
      json.dumps({
          'shown': [
              [[s.author, s.text, s.state_keys] for s in turn]
              for turn in run.shown
          ],
          'requests': {
              agent: [[_part_lines(r) for r in turn] for turn in turns]
              for agent, turns in run.requests.items()
          },
      })
  )


def _arguments() -> argparse.Namespace:
  parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  parser.add_argument(
      '--sample',
      choices=sorted(_OTHER_SETTING),
      default=_DEFAULT_SAMPLE,
      help='the Workflow form (default) or the SequentialAgent form',
  )
  parser.add_argument(
      '--record',
      metavar='CONFIG',
      help="print one upstream configuration's run as JSON and stop",
  )
  return parser.parse_args()


async def _main() -> None:
  arguments = _arguments()
  sample = arguments.sample
  os.environ['ADK_SAMPLES_OFFLINE'] = '1'
  sys.path.insert(0, str(_SAMPLES))
  if arguments.record:
    await _record(sample, arguments.record)
    return
  from google.adk import fork_info

  if not fork_info.is_fork():
    sys.exit('This demo needs the fork installed: run scripts/demo.')
  import warnings

  # 2.13 deprecates SequentialAgent in favour of Workflow; both work.
  warnings.filterwarnings('ignore', category=DeprecationWarning)
  print(
      f'google-adk {fork_info.__version__}: the {sample} sample, offline,'
      ' 3 turns.\n"upstream" is the same agents with the'
      " fork's features off, which is\nupstream 2.13.0's behaviour but"
      ' for one upstream bug the fork fixes (patch\n0020);'
      ' tests/samples/test_upstream_parity.py checks this against a\npristine'
      ' install.'
  )
  runs = {
      _UPSTREAM: await _run(sample, _UPSTREAM),
      _other(sample): await _run(sample, _other(sample)),
      _FORK: await _run(sample, _FORK),
  }
  filtered = await _run(sample, _FORK, visibility_mode='filter')
  _what_the_user_sees(runs[_UPSTREAM], runs[_FORK], filtered)
  _what_models_received(runs, _token_counter())
  _differing_lines(runs)
  _figures(runs, filtered)
  # SourceWindow is experimental; the demo says so in its own words.
  warnings.filterwarnings('ignore', message=r'\[EXPERIMENTAL\] feature')
  _where_windows_pay({
      config: await _writer_requests(config)
      for config in (_UPSTREAM, _PLAIN_LIST, _WINDOWS)
  })


if __name__ == '__main__':
  asyncio.run(_main())
