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

"""The checks behind ``check_agent_tree``; each returns ``Diagnostic``s.

Every check reads the tree only: it builds nothing, calls no model and changes
no agent. The codes and what each means are documented in
docs/diagnostics.md.
"""

from __future__ import annotations

import difflib
from typing import Any
from typing import Iterator

from . import _diagnostic as d
from ..agents import _visibility
from ..agents._include_sources import find_unknown_include_sources
from ..workflow._base_node import BaseNode
from ._diagnostic import Diagnostic
from ._diagnostic import Severity
from ._state_flow import follow
from ._state_flow import opaque_writers
from ._state_flow import produced_keys
from ._state_flow import StateRead
from ._state_flow import Topology

_PERSISTED_PREFIXES = ('app:', 'user:')


def run_checks(root: BaseNode) -> list[Diagnostic]:
  """Runs every check on the tree under ``root``.

  Args:
    root: The root agent or workflow.

  Returns:
    The findings: errors first, then warnings, then infos, each group in tree
    order.
  """
  topology = follow(root)
  findings = [
      *_state_read_findings(root, topology),
      *_internal_reply_findings(root, topology),
      *_duplicate_channel_findings(topology),
      *_unknown_source_findings(root),
      *_no_user_facing_findings(root),
  ]
  unique = list(dict.fromkeys(findings))
  return sorted(unique, key=lambda finding: finding.severity.rank)


def _names(names: list[str]) -> str:
  quoted = [repr(name) for name in names]
  if len(quoted) <= 1:
    return ''.join(quoted)
  return ', '.join(quoted[:-1]) + ' and ' + quoted[-1]


# Checks 1 and 6: state keys read before anything produces them.


def _state_read_findings(
    root: BaseNode, topology: Topology
) -> Iterator[Diagnostic]:
  producers = produced_keys(root)
  writers = opaque_writers(root)
  for read in topology.reads.values():
    if read.optional or read.key in read.flow.certain:
      continue
    yield _missing_key(read, producers, writers)


def _missing_key(
    read: StateRead, producers: dict[str, list[str]], writers: list[str]
) -> Diagnostic:
  key = read.key
  reader = read.reader.name
  if read.by_function_node:
    code = d.MISSING_ROUTE_STATE
    what = (
        f'Workflow node {reader!r}'
        + (' (which chooses the route)' if read.routes else '')
        + f' takes its parameter {key!r} from session state'
    )
    failure = (
        'the node fails with WorkflowDataError ("Missing value for parameter")'
    )
    optional_fix = f'give the parameter a default ({key}=None)'
  else:
    code = d.MISSING_STATE_KEY
    what = f'Agent {reader!r} reads {{{key}}} in its instruction'
    failure = 'its model call fails with KeyError'
    optional_fix = f'write {{{key}?}} if it may be missing'
  seed = f'seed it with create_session(state={{{key!r}: ...}})'

  earlier = read.flow.producers_of(key)
  if earlier:
    return Diagnostic(
        Severity.INFO,
        code,
        reader,
        f'{what}; {_names(earlier)} stores it (output_key), but not on every'
        f' path before {reader!r} runs (a loop iteration, a route, a parallel'
        ' branch or a transfer decides that at run time). On a run where it'
        f' has not, {failure}.',
        f'Run {_names(earlier)} before {reader!r} on every path, or'
        f' {optional_fix}.',
    )
  if read.flow.opaque:
    return Diagnostic(
        Severity.INFO,
        code,
        reader,
        f'{what}; no agent before it stores {key!r} through output_key, but'
        f' {_names(sorted(read.flow.opaque))} may write it from a callback,'
        ' tool or function the check cannot read. If none does, '
        + failure
        + '.',
        f'Make sure one of them sets {key!r}, or {optional_fix}.',
    )
  if key.startswith(_PERSISTED_PREFIXES):
    return Diagnostic(
        Severity.INFO,
        code,
        reader,
        f'{what}; nothing in the tree stores {key!r}, which is kept across'
        ' sessions, so it must have been set in an earlier session or by the'
        f' application. If it has not, {failure}.',
        f'Set it before the run ({seed}), or {optional_fix}.',
    )
  elsewhere = producers.get(key)
  if elsewhere:
    return Diagnostic(
        Severity.WARNING,
        code,
        reader,
        f'{what}, but {_names(elsewhere)} stores it only after {reader!r}'
        f' runs, or in a parallel branch: on the first run {failure} unless'
        ' the application sets it beforehand.',
        f'Move {_names(elsewhere)} before {reader!r}, {seed}, or'
        f' {optional_fix}.',
    )
  writers = [writer for writer in writers if writer != reader]
  if writers:
    return Diagnostic(
        Severity.WARNING,
        code,
        reader,
        f'{what}, but no agent stores {key!r} through output_key, and'
        f' {_names(writers)}, which could write it from code, may run only'
        f' after it: {failure} unless the application sets it beforehand.',
        f'Set output_key={key!r} on the agent that produces it, {seed}, or'
        f' {optional_fix}.',
    )
  return Diagnostic(
      Severity.ERROR,
      code,
      reader,
      f'{what}, but nothing in the tree produces {key!r}: {failure} unless'
      ' the application puts it into session state before the run.',
      _did_you_mean(key, sorted(producers))
      + f'Set output_key={key!r} on the agent that produces it, {seed}, or'
      f' {optional_fix}.',
  )


def _did_you_mean(key: str, known: list[str]) -> str:
  matches = difflib.get_close_matches(key, known, n=1)
  return f'Did you mean {{{matches[0]}}}? ' if matches else ''


# Check 2: an internal agent whose reply nobody gets through state.


def _internal_reply_findings(
    root: BaseNode, topology: Topology
) -> Iterator[Diagnostic]:
  from ..agents.llm_agent import LlmAgent

  index = _visibility.visibility_index(root)
  agents = [node for node in _walk(root) if isinstance(node, LlmAgent)]
  for agent in agents:
    if (
        agent.output_key
        or id(agent) in topology.run_as_tool
        or id(agent) in topology.feeds_next_node
        or index.visibility_of_node(agent) != _visibility.INTERNAL
    ):
      continue
    readers = [
        other.name
        for other in agents
        if other is not agent
        and agent.name in _ran_before(other, topology)
        and _sees_history_of(other, agent.name)
    ]
    filter_mode = (
        'In filter mode (RunConfig(visibility_mode="filter")) the user never'
        ' sees it'
    )
    if readers:
      yield Diagnostic(
          Severity.INFO,
          d.INTERNAL_REPLY_UNUSED,
          agent.name,
          f'Agent {agent.name!r} is internal and has no output_key: its reply'
          f' reaches {_names(readers)} only as a message in their history.'
          f' {filter_mode}, and no agent can read it from state.',
          f'Set output_key on {agent.name!r} to hand its reply on through'
          " state, or visibility='user' if the user should see it.",
      )
    else:
      yield Diagnostic(
          Severity.WARNING,
          d.INTERNAL_REPLY_UNUSED,
          agent.name,
          f'Agent {agent.name!r} is internal and has no output_key, and no'
          ' agent that runs after it receives its reply in its history'
          ' (include_sources, include_contents): the reply lives only in the'
          f' session. {filter_mode}, and no later agent gets it.',
          f'Set output_key on {agent.name!r} and read it with {{key}} where it'
          f" is needed, add {agent.name!r} to a later agent's"
          " include_sources, or set visibility='user' if the user should see"
          ' it.',
      )


def _ran_before(agent: Any, topology: Topology) -> frozenset[str]:
  start = topology.starts.get(id(agent))
  return start.ran if start is not None else frozenset()


def _sees_history_of(agent: Any, source: str) -> bool:
  """Whether ``agent``'s model receives ``source``'s replies as history."""
  include_sources = getattr(agent, 'include_sources', None)
  if getattr(agent, 'include_contents', 'default') == 'none':
    return False
  return include_sources is None or source in include_sources


# Check 3: the same data through state and through history.


def _duplicate_channel_findings(topology: Topology) -> Iterator[Diagnostic]:
  for read in topology.reads.values():
    if read.by_function_node:
      continue
    reader = read.reader
    for producer in read.flow.producers_of(read.key):
      if producer == reader.name or not _sees_history_of(reader, producer):
        continue
      sources = getattr(reader, 'include_sources', None)
      if sources is None:
        fix = "include_sources=['user', 'self']"
      else:
        fix = f'include_sources={[s for s in sources if s != producer]!r}'
      yield Diagnostic(
          Severity.INFO,
          d.SAME_DATA_TWICE,
          reader.name,
          f'Agent {reader.name!r} receives the reply of {producer!r} twice:'
          f' through {{{read.key}}} in its instruction (state) and as a'
          ' message in its conversation history.',
          f'Keep one channel: set {fix} on {reader.name!r} to drop'
          f' the messages of {producer!r} from its history, or remove'
          f' {{{read.key}}} from its instruction.',
      )


# Check 4: include_sources names that match nothing.


def _unknown_source_findings(root: BaseNode) -> Iterator[Diagnostic]:
  for entry in find_unknown_include_sources(root):
    yield Diagnostic(
        Severity.WARNING,
        d.UNKNOWN_INCLUDE_SOURCE,
        entry.agent_name,
        entry.describe(root.name)
        + f' Its model never sees messages from {entry.name!r}.',
        f'{entry.suggestion} Fix the name or remove the entry.',
    )


# Check 5: nobody talks to the user.


def _no_user_facing_findings(root: BaseNode) -> Iterator[Diagnostic]:
  index = _visibility.visibility_index(root)
  speakers = [node for node in _walk(root) if _speaks(node)]
  if not speakers:
    return
  if any(
      index.visibility_of_node(node) == _visibility.USER for node in speakers
  ):
    return
  yield Diagnostic(
      Severity.WARNING,
      d.NO_USER_FACING_AGENT,
      root.name,
      f'No agent in the tree rooted at {root.name!r} is user-facing: every'
      ' reply is internal (event.is_user_facing is False). In filter mode the'
      ' user receives no text at all.',
      'Add an agent that presents the result after the loop or pipeline (for'
      ' example SequentialAgent(sub_agents=[loop, presenter])), or set'
      " visibility='user' on the agent the user should hear.",
  )


def _speaks(node: BaseNode) -> bool:
  """Whether the node produces replies itself, rather than only arranging
  other agents."""
  from ..agents.loop_agent import LoopAgent
  from ..agents.parallel_agent import ParallelAgent
  from ..agents.sequential_agent import SequentialAgent
  from ..workflow._join_node import JoinNode
  from ..workflow._workflow import Workflow

  return not isinstance(
      node, (SequentialAgent, ParallelAgent, LoopAgent, Workflow, JoinNode)
  )


def _walk(root: BaseNode) -> Iterator[BaseNode]:
  from ..workflow._base_node import _walk_static_nodes

  yield from _walk_static_nodes(root)
