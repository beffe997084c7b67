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

"""How visibility inference reads a custom agent: from its code.

A custom agent is a ``BaseAgent`` subclass that names no rule of its own and
implements ``_run_async_impl``. The base rule would count it as speaking
whenever it runs, which is wrong for the common orchestrators and checkers:

* one that only escalates or writes state (a loop's checker) says nothing,
  so the agent before it still answers;
* one whose code runs its sub-agents speaks through them;
* one whose code compares the value of an agent's ``output_key`` in state
  (``if state.get('tone') == 'negative'``) and then runs an agent or speaks
  reads that reply as a label, as a route function does: the writer is
  internal. A presence test (``'story' in state``) reads no label;
* one whose code escalates can end the loops around it.

Its code is read by ``_code_reading`` once per code object. Code with no
source (compiled, or built with ``exec``) falls back to the base rule, and
``adk check`` names it (ADK-D114).
"""

from __future__ import annotations

from typing import Any
from typing import Final

from . import _code_reading
from . import _visibility


class CustomAgentRule(_visibility.NodeRule):
  """The rule of a ``BaseAgent`` subclass that names none of its own."""

  def speaks(self, inference: _visibility.Inference, node: Any) -> bool:
    reading = agent_code(node)
    if reading is None or reading.says_itself:
      return True
    return reading.runs_agents and any(
        inference.speaks(child) for child in _visibility.sub_agents(node)
    )

  def is_speaker(self, node: Any) -> bool:
    reading = agent_code(node)
    return reading is None or reading.says_itself

  def ends_loops(self, node: Any) -> bool:
    reading = agent_code(node)
    return reading is not None and reading.escalates

  def reads_reply(self, node: Any, agent: Any) -> bool:
    key = getattr(agent, 'output_key', None)
    reading = agent_code(node)
    if reading is None or not isinstance(key, str):
      return False
    line = reading.compared_keys.get(key)
    return line is not None and reading.speaks_after(line)


# Typed as the base rule: ``BaseAgent`` names it, and the agents upstream
# ships name their own rules in its place.
CUSTOM_AGENT: Final[_visibility.NodeRule] = CustomAgentRule()


def agent_code(agent: Any) -> _code_reading.CodeReading | None:
  """The reading of a custom agent's own ``_run_async_impl``; None for an
  agent that does not implement it and for code with no source."""
  impl = _own_run_impl(agent)
  return None if impl is None else _code_reading.read_function(impl)


def unreadable_agent(agent: Any) -> bool:
  """Whether a custom agent's code has no source, so that inference falls
  back to counting it as speaking whenever it runs."""
  impl = _own_run_impl(agent)
  return impl is not None and _code_reading.read_function(impl) is None


def _own_run_impl(agent: Any) -> Any:
  from .base_agent import BaseAgent

  if _visibility.rule_of(agent) is not CUSTOM_AGENT:
    return None
  impl = getattr(agent.__class__, '_run_async_impl', None)
  return None if impl is BaseAgent._run_async_impl else impl
