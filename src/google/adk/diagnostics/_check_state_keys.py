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

"""ADK-D101: an instruction reads ``{key}`` that nothing before it produces.

The agent's model call then raises ``KeyError``. The severity says how sure
the check is, from the run order: see ``missing_key``.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

from ..utils._did_you_mean import did_you_mean
from ..workflow._base_node import BaseNode
from ._checks import quote_names
from ._diagnostic import Diagnostic
from ._diagnostic import Severity
from ._state_flow import Flow
from ._state_flow import follow
from ._state_flow import opaque_writers
from ._state_flow import produced_keys
from ._state_flow import template_keys

MISSING_STATE_KEY = 'ADK-D101'
CODES = (MISSING_STATE_KEY,)

_PERSISTED_PREFIXES = ('app:', 'user:')


@dataclasses.dataclass(frozen=True)
class StateRead:
  """A read of a state key that fails when the key is missing."""

  code: str
  reader: str
  key: str
  flow: Flow
  """What is known when the reader reads the key."""
  what: str
  """Who reads the key and how, as the start of a sentence."""
  failure: str
  optional_fix: str
  """What makes the read optional, as the start of a clause."""


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports each instruction key not certainly produced before its agent."""
  from ..agents.llm_agent import LlmAgent

  topology = follow(root)
  producers = produced_keys(root)
  writers = opaque_writers(root)
  for agent, flow in topology.starts.values():
    if not isinstance(agent, LlmAgent) or not isinstance(
        agent.instruction, str
    ):
      continue
    if agent.before_agent_callback:
      # It runs before the instruction is rendered and may set the key.
      flow = flow.with_opaque(agent.name)
    for template_key in template_keys(agent.instruction):
      key = template_key.key
      if template_key.optional or key in flow.certain:
        continue
      yield missing_key(
          StateRead(
              code=MISSING_STATE_KEY,
              reader=agent.name,
              key=key,
              flow=flow,
              what=f'Agent {agent.name!r} reads {{{key}}} in its instruction',
              failure='its model call fails with KeyError',
              optional_fix=f'write {{{key}?}}',
          ),
          producers,
          writers,
      )


def missing_key(
    read: StateRead, producers: dict[str, list[str]], writers: list[str]
) -> Diagnostic:
  """Describes a read of a key that may be missing, at the right severity.

  An error when nothing in the tree produces the key; a warning when its
  producer, or code that may write it, runs only later or in a parallel
  branch; an info when it may or may not have run (a loop, a route, a
  transfer), code before the reader may write it, or it is kept across
  sessions.

  Args:
    read: The read.
    producers: Every ``output_key`` in the tree and the agents that set it.
    writers: The agents and nodes that may write keys the check cannot read.

  Returns:
    The finding.
  """
  key, reader, what, failure = read.key, read.reader, read.what, read.failure
  # Seeding the key fixes the run, but the check cannot see it: the read
  # must be made optional too for the finding to go away.
  seed = f'create_session(state={{{key!r}: ...}})'
  optional = read.optional_fix
  unseen = (
      f'{optional} if it may be missing or the application seeds it ({seed})'
  )
  earlier = read.flow.producers_of(key)
  if earlier:
    return Diagnostic(
        Severity.INFO,
        read.code,
        reader,
        f'{what}; {quote_names(earlier)} stores it (output_key), but not on'
        f' every path before {reader!r} runs (a loop iteration, a route, a'
        ' parallel branch or a transfer decides that at run time). On a run'
        f' where it has not, {failure}.',
        f'Run {quote_names(earlier)} before {reader!r} on every path, or'
        f' {optional} if it may be missing.',
    )
  if read.flow.opaque:
    return Diagnostic(
        Severity.INFO,
        read.code,
        reader,
        f'{what}; no agent before it stores {key!r} through output_key, but'
        f' {quote_names(sorted(read.flow.opaque))} may write it from a'
        ' callback, tool or function the check cannot read. If none does, '
        + failure
        + '.',
        f'If code in {quote_names(sorted(read.flow.opaque))} sets {key!r},'
        f' or it may be missing, {optional}: the check cannot read that'
        ' code.',
    )
  if key.startswith(_PERSISTED_PREFIXES):
    return Diagnostic(
        Severity.INFO,
        read.code,
        reader,
        f'{what}; nothing in the tree stores {key!r}, which is kept across'
        ' sessions, so it must have been set in an earlier session or by the'
        f' application. If it has not, {failure}.',
        f'{optional[0].upper()}{optional[1:]} if it may be missing or is'
        f' set before the run (in an earlier session, or with {seed}).',
    )
  elsewhere = producers.get(key)
  if elsewhere:
    return Diagnostic(
        Severity.WARNING,
        read.code,
        reader,
        f'{what}, but {quote_names(elsewhere)} stores it only after'
        f' {reader!r} runs, or in a parallel branch: on the first run'
        f' {failure} unless the application sets it beforehand.',
        f'Move {quote_names(elsewhere)} before {reader!r}, or {unseen}.',
    )
  writers = [writer for writer in writers if writer != reader]
  if writers:
    return Diagnostic(
        Severity.WARNING,
        read.code,
        reader,
        f'{what}, but no agent stores {key!r} through output_key, and'
        f' {quote_names(writers)}, which could write it from code, may run'
        f' only after it: {failure} unless the application sets it'
        ' beforehand.',
        f'Set output_key={key!r} on the agent that produces it, or {unseen}.',
    )
  # An instruction reads {key}; a function node, a parameter named key.
  guess = did_you_mean(
      key,
      sorted(producers),
      shown=_as_placeholder if read.code == MISSING_STATE_KEY else repr,
  )
  return Diagnostic(
      Severity.ERROR,
      read.code,
      reader,
      f'{what}, but nothing in the tree produces {key!r}: {failure} unless'
      ' the application puts it into session state before the run.',
      f'{guess}Set output_key={key!r} on the agent that produces it,'
      f' or {unseen}.',
  )


def _as_placeholder(key: str) -> str:
  """A state key as an instruction reads it: ``{key}``."""
  return f'{{{key}}}'
