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

"""Source windows and exclusions that cannot do what they say.

* ADK-D104 (an error here): a ``SourceWindow`` or ``exclude_sources`` names
  nothing in the tree. For a plain entry the same code is a warning (see
  ``_check_include_sources``); for the new forms a typo silently changes what
  is admitted (``exclude_sources=['reseacher']`` admits the researcher), so a
  ``Runner`` built for the tree refuses it, with the other settings it
  refuses (``_configuration_errors.raise_on_configuration_errors``, which
  reads ``unknown_names_if_any``; ``raise_on_unknown_names`` refuses these
  names alone).
* ADK-D108: a window on a source that never speaks before the agent: the
  window has nothing to count.
* ADK-D109: a window of 0 items: ``last=0`` (or ``first=0``) admits nothing
  from that end, which ``exclude_sources`` says plainly.
* ADK-D110: ``final_answers_only`` on a source that gives no final answers:
  an ``LlmAgent`` whose ``generate_content_config`` forces function calling
  (mode ``ANY``) only calls tools, and a node that is not an agent (a
  function node, a join) produces no messages, so the window admits nothing.
"""

from __future__ import annotations

import logging
from typing import Any
from typing import Iterator

from ..agents._include_sources import RESERVED_SOURCE_NAMES
from ..agents._include_sources import SELF_SOURCE
from ..agents._include_sources import USER_SOURCE
from ..agents._source_window import window_entries
from ..workflow._base_node import BaseNode
from ._check_include_sources import UNKNOWN_INCLUDE_SOURCE
from ._check_include_sources import unknown_name_hint
from ._checks import walk
from ._diagnostic import AgentConfigurationError
from ._diagnostic import Diagnostic
from ._diagnostic import Severity
from ._state_flow import follow

WINDOW_ON_SILENT_SOURCE = 'ADK-D108'
EMPTY_WINDOW = 'ADK-D109'
FINAL_ANSWERS_OF_TOOL_CALLER = 'ADK-D110'
# ADK-D104 belongs to _check_include_sources, which lists it.
CODES = (WINDOW_ON_SILENT_SOURCE, EMPTY_WINDOW, FINAL_ANSWERS_OF_TOOL_CALLER)

logger = logging.getLogger('google_adk.' + __name__)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports windows and exclusions that cannot do what they say."""
  nodes = {node.name: node for node in walk(root)}
  yield from unknown_names(root)
  for node in nodes.values():
    for window in window_entries(node):
      source = nodes.get(window.source)
      yield from _empty_window(node, window)
      if source is not None:
        yield from _final_answers_of_tool_caller(node, window, source)
  yield from _silent_sources(root, nodes)


def unknown_names(root: BaseNode) -> Iterator[Diagnostic]:
  """ADK-D104 errors: window sources and exclusions that name nothing."""
  nodes = list(walk(root))
  node_names = {node.name for node in nodes}
  known = sorted(node_names | RESERVED_SOURCE_NAMES)
  for node in nodes:
    named = [(w.source, 'a SourceWindow') for w in window_entries(node)]
    named += [
        (name, 'exclude_sources')
        for name in getattr(node, 'exclude_sources', None) or ()
    ]
    for name, where in dict.fromkeys(named):
      if name in RESERVED_SOURCE_NAMES or name in node_names:
        continue
      effect = (
          'the window admits nothing'
          if where != 'exclude_sources'
          else (
              'the exclusion leaves out nothing, so every source stays admitted'
          )
      )
      yield Diagnostic(
          Severity.ERROR,
          UNKNOWN_INCLUDE_SOURCE,
          node.name,
          f'Agent {node.name!r} names {name!r} in {where}, but nothing named'
          f' {name!r} runs in the tree rooted at {root.name!r}: {effect}.',
          unknown_name_hint(name, known),
      )


def raise_on_unknown_names(root: Any) -> None:
  """Raises for a window or exclusion that names nothing in the tree.

  Called when a ``Runner`` is built, the first moment the tree is known.
  Plain ``include_sources`` entries keep their warning.

  Raises:
    AgentConfigurationError: A ``ValueError`` naming the agent, the name and
      the closest known name.
  """
  errors = unknown_names_if_any(root)
  if errors:
    raise AgentConfigurationError(errors)


def unknown_names_if_any(root: Any) -> list[Diagnostic]:
  """The ADK-D104 errors of a tree that has windows or exclusions, else []."""
  try:
    if root is None or not any(
        window_entries(node) or getattr(node, 'exclude_sources', None)
        for node in walk(root)
    ):
      return []
    return list(unknown_names(root))
  except Exception:  # pylint: disable=broad-except
    # A root that is not a node tree (a duck-typed agent) has no names to
    # check, and a bug here must never break building a runner.
    logger.debug('Source name check failed for %r.', root, exc_info=True)
    return []


def _empty_window(node: Any, window: Any) -> Iterator[Diagnostic]:
  zero = [field for field in ('last', 'first') if getattr(window, field) == 0]
  if not zero:
    return
  admits_nothing = not window.last and not window.first
  if admits_nothing:
    effect = f'admits no message of {window.source!r} at all'
    hint = (
        f"Use exclude_sources=[{window.source!r}] (with '*' in"
        ' include_sources, or alone) to leave the source out, or set a'
        ' count of 1 or more.'
    )
  else:
    effect = f'{zero[0]}=0 adds nothing to the other count'
    hint = f'Remove {zero[0]}=0 from the window.'
  yield Diagnostic(
      Severity.WARNING,
      EMPTY_WINDOW,
      node.name,
      f'Agent {node.name!r} has a window of 0 items on {window.source!r}:'
      f' {window!r} {effect}.',
      hint,
  )


def _final_answers_of_tool_caller(
    node: Any, window: Any, source: Any
) -> Iterator[Diagnostic]:
  if not window.final_answers_only or source is node:
    return
  from ..agents.base_agent import BaseAgent
  from ..agents.llm_agent import LlmAgent

  if isinstance(source, LlmAgent):
    if not _forces_function_calls(source):
      return
    why = (
        f'{source.name!r} forces function calling (its'
        ' generate_content_config sets function_calling_config mode ANY), so'
        ' every reply is a tool call and none is a final answer'
    )
    hint = (
        'Drop final_answers_only to see its calls and their results, or let'
        f' {source.name!r} answer in text (mode AUTO).'
    )
  elif not isinstance(source, BaseAgent):
    why = (
        f'{source.name!r} is a workflow node that is not an agent: it sends'
        ' no messages to the conversation, so it has no final answers'
    )
    hint = (
        f'Use {source.name!r} (the plain entry) to see its output when it is'
        f' the node input of {node.name!r}, or read it from session state.'
    )
  else:
    return
  yield Diagnostic(
      Severity.WARNING,
      FINAL_ANSWERS_OF_TOOL_CALLER,
      node.name,
      f'Agent {node.name!r} takes only the final answers of'
      f' {source.name!r}, but {why}: the window admits nothing.',
      hint,
  )


def _forces_function_calls(agent: Any) -> bool:
  config = agent.generate_content_config
  tool_config = config.tool_config if config else None
  calling = tool_config.function_calling_config if tool_config else None
  mode = calling.mode if calling else None
  return mode is not None and str(getattr(mode, 'value', mode)) == 'ANY'


def _silent_sources(root: Any, nodes: dict[str, Any]) -> Iterator[Diagnostic]:
  """ADK-D108: windows whose source never runs before the reader."""
  if not any(window_entries(node) for node in nodes.values()):
    return
  topology = follow(root)
  for reader, start in topology.starts.values():
    for window in window_entries(reader):
      name = window.source
      if name in (USER_SOURCE, SELF_SOURCE) or name == reader.name:
        continue
      if name not in nodes or name in start.ran:
        continue
      yield Diagnostic(
          Severity.WARNING,
          WINDOW_ON_SILENT_SOURCE,
          reader.name,
          f'Agent {reader.name!r} has a window on {name!r}, but {name!r}'
          f' never runs before {reader.name!r} in the tree rooted at'
          f' {root.name!r}: the window has no messages to count.',
          f'Remove the window, or run {name!r} before {reader.name!r}.',
      )
