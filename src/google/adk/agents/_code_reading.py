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

"""What visibility inference reads from a custom agent's code.

A custom agent's ``_run_async_impl`` is read from its source once per code
object (the index is built per invocation), with the function nodes'
reading of what builds a message (``workflow/_workflow_visibility.py``):

* **Messages**: a call that builds something said to the user rather than
  returned, as a function node's message is recognized.
* **What it yields**: an ``Event(...)`` built in place without a message
  says nothing (it only escalates, routes or writes state); an event of an
  agent it runs (``async for event in agent.run_async(ctx)``) is that
  agent's; anything else is an event built out of sight, which may speak.
* **Escalation**: ``escalate=True`` (``EventActions(escalate=True)``) or an
  assignment to ``.escalate``.
* **Labels**: the state keys whose value the code compares, as a route
  reads a label: ``state['key'] == 'negative'``, ``state.get('key') in
  (...)``, ``state['key'].startswith('neg')``, ``int(state['score']) > 7``,
  a ``match`` on it, or the same through a name bound to the value
  (``tone = state.get('key')``, then ``tone.lower() == 'negative'``). A presence or
  truthiness test (``'key' in state``, ``if not state['key']``) reads no
  label. Each comes with the source line of its first comparison, and the
  lines where the code runs an agent or builds a message, so a reader can
  tell what the code does after it read a label.

Code without source (a compiled or dynamically built function) has no
reading, and the rules fall back to what they assume without one.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from typing import Any
from typing import Final

from ..workflow import _workflow_visibility

_RUN_METHODS: Final = frozenset({'run_async', 'run_live'})
_COMPARISONS: Final = (
    ast.Eq,
    ast.NotEq,
    ast.In,
    ast.NotIn,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
)
# Conversions that keep a value what it was: ``int(state['score']) > 7``.
_CONVERSIONS: Final = frozenset({'int', 'float', 'str', 'bool'})


@dataclasses.dataclass(frozen=True)
class CodeReading:
  """What one function's code says, builds and reads."""

  builds_messages: bool
  """It builds a message for the user (see the module docstring)."""
  yields_unknown: bool
  """It yields an event it does not build in place nor get from an agent."""
  runs_agents: bool
  """It runs an agent (``.run_async(...)`` or ``.run_live(...)``)."""
  escalates: bool
  """It sets ``escalate``: the event ends the loops around it."""
  compared_keys: dict[str, int]
  """Each state key whose value it compares, with the line it first does."""
  speech_lines: tuple[int, ...]
  """Lines where it runs an agent, builds a message or yields out of sight."""

  @property
  def says_itself(self) -> bool:
    """Whether the code, not an agent it runs, may say something."""
    return self.builds_messages or self.yields_unknown

  def speaks_after(self, line: int) -> bool:
    """Whether the code may run an agent or say something after ``line``."""
    return any(speech > line for speech in self.speech_lines)


def read_function(func: Any) -> CodeReading | None:
  """Returns the reading of a function or method, None without source."""
  code = getattr(getattr(func, '__func__', func), '__code__', None)
  return None if code is None else read_code(code)


@functools.lru_cache(maxsize=256)
def read_code(code: Any) -> CodeReading | None:
  """Returns the reading of a code object, None when it has no source."""
  tree = _workflow_visibility.source_tree(code)
  return None if tree is None else _Reader(tree).reading()


def _is_state(node: ast.AST) -> bool:
  """Whether an expression is a session state (``<...>.state``, ``state``)."""
  return (isinstance(node, ast.Attribute) and node.attr == 'state') or (
      isinstance(node, ast.Name) and node.id == 'state'
  )


def _constant_key(node: ast.AST) -> str | None:
  if isinstance(node, ast.Constant) and isinstance(node.value, str):
    return node.value
  return None


class _Reader:
  """Walks one function's syntax tree once."""

  def __init__(self, tree: ast.AST) -> None:
    self._tree = tree
    # Names bound to an agent's run (``agen`` in ``async with
    # Aclosing(agent.run_async(ctx)) as agen``, ``event`` in ``async for
    # event in agen``) and to events built in place.
    self._agent_streams: set[str] = set()
    self._silent_events: set[str] = set()
    # Names bound to a state value (``tone`` in ``tone = state.get('tone')``).
    self._state_values: dict[str, str] = {}

  def reading(self) -> CodeReading:
    builds_messages = runs_agents = escalates = False
    speech_lines: list[int] = []
    compared_keys: dict[str, int] = {}
    nodes = list(ast.walk(self._tree))
    nodes.sort(key=lambda n: getattr(n, 'lineno', 0))
    for node in nodes:
      self._bind(node)
    yields_unknown = False
    for node in nodes:
      line = getattr(node, 'lineno', 0)
      if isinstance(node, ast.Call):
        if _workflow_visibility.builds_message(node):
          builds_messages = True
          speech_lines.append(line)
        if _workflow_visibility.call_name(node) in _RUN_METHODS:
          runs_agents = True
          speech_lines.append(line)
        if any(
            k.arg == 'escalate'
            and not (isinstance(k.value, ast.Constant) and not k.value.value)
            for k in node.keywords
        ):
          escalates = True
      elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target]
        )
        if any(
            isinstance(t, ast.Attribute) and t.attr == 'escalate'
            for t in targets
        ):
          escalates = True
      elif isinstance(node, (ast.Yield, ast.YieldFrom)):
        if not self._yields_known(node.value):
          yields_unknown = True
          speech_lines.append(line)
      for key in self._compared_keys(node):
        compared_keys.setdefault(key, line)
    return CodeReading(
        builds_messages=builds_messages,
        yields_unknown=yields_unknown,
        runs_agents=runs_agents,
        escalates=escalates,
        compared_keys=compared_keys,
        speech_lines=tuple(speech_lines),
    )

  def _runs_agent(self, node: ast.AST | None) -> bool:
    if node is None:
      return False
    for inner in ast.walk(node):
      if (
          isinstance(inner, ast.Call)
          and _workflow_visibility.call_name(inner) in _RUN_METHODS
      ):
        return True
      if isinstance(inner, ast.Name) and inner.id in self._agent_streams:
        return True
    return False

  def _bind(self, node: ast.AST) -> None:
    if isinstance(node, (ast.For, ast.AsyncFor)):
      if isinstance(node.target, ast.Name) and self._runs_agent(node.iter):
        self._agent_streams.add(node.target.id)
    elif isinstance(node, (ast.With, ast.AsyncWith)):
      for item in node.items:
        variable = item.optional_vars
        if isinstance(variable, ast.Name) and self._runs_agent(
            item.context_expr
        ):
          self._agent_streams.add(variable.id)
    elif isinstance(node, ast.Assign) and len(node.targets) == 1:
      target = node.targets[0]
      if not isinstance(target, ast.Name):
        return
      value = node.value
      state_key = _state_value_key(value)
      if state_key is not None:
        self._state_values[target.id] = state_key
      if self._runs_agent(value):
        self._agent_streams.add(target.id)
      elif (
          isinstance(value, ast.Call)
          and _workflow_visibility.call_name(value) == 'Event'
          and not _workflow_visibility.builds_message(value)
      ):
        self._silent_events.add(target.id)

  def _yields_known(self, value: ast.AST | None) -> bool:
    """Whether a yielded value is nothing, a silent event or an agent's."""
    if value is None or (
        isinstance(value, ast.Constant) and value.value is None
    ):
      return True
    if (
        isinstance(value, ast.Call)
        and _workflow_visibility.call_name(value) == 'Event'
    ):
      # One with a message is counted as a message where it is built.
      return True
    if isinstance(value, ast.Name):
      return value.id in self._agent_streams | self._silent_events
    return self._runs_agent(value)

  def _compared_keys(self, node: ast.AST) -> list[str]:
    """The state keys whose value ``node`` compares or reads into."""
    if isinstance(node, ast.Compare) and all(
        isinstance(op, _COMPARISONS) for op in node.ops
    ):
      operands = [node.left, *node.comparators]
    elif isinstance(node, ast.Match):
      operands = [node.subject]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
      # A method of the value: ``tone.startswith('neg')``, ``tone.lower()``.
      operands = [node.func.value]
    else:
      return []
    keys = [self._state_value(operand) for operand in operands]
    return [key for key in keys if key is not None]

  def _state_value(self, node: ast.AST) -> str | None:
    """The state key whose value an expression is, if it is one; a method
    of the value (``state['tone'].lower()``) is still that value."""
    while isinstance(node, ast.Call) and _state_value_key(node) is None:
      if isinstance(node.func, ast.Attribute):
        node = node.func.value
      elif (
          isinstance(node.func, ast.Name)
          and node.func.id in _CONVERSIONS
          and len(node.args) == 1
      ):
        node = node.args[0]
      else:
        break
    if isinstance(node, ast.Name):
      return self._state_values.get(node.id)
    return _state_value_key(node)


def _state_value_key(node: ast.AST) -> str | None:
  """The key of ``<...>.state['key']`` or ``<...>.state.get('key', ...)``."""
  if (
      isinstance(node, ast.Subscript)
      and isinstance(node.ctx, ast.Load)
      and _is_state(node.value)
  ):
    return _constant_key(node.slice)
  if (
      isinstance(node, ast.Call)
      and isinstance(node.func, ast.Attribute)
      and node.func.attr == 'get'
      and _is_state(node.func.value)
      and node.args
  ):
    return _constant_key(node.args[0])
  return None
