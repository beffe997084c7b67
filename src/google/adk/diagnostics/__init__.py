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

"""Diagnostics that say, before the first model call, what each agent will see
and say.

Agents in a pipeline talk over channels configured separately: conversation
history (``include_contents``, ``include_sources``), session state
(``output_key``) and instruction templates (``{key}``), and an agent is
user-facing or internal (``visibility``). A mistake in one of them shows up
late, as a ``KeyError`` halfway through a run or as a reply nobody sees.
``check_agent_tree`` reads the tree and reports such mistakes as
``Diagnostic``s, each with a stable code::

  from google.adk.diagnostics import check_agent_tree

  for diagnostic in check_agent_tree(root_agent):
    print(diagnostic.severity.value, diagnostic.code, diagnostic.message)
"""

from __future__ import annotations

from typing import Any

from ..features import experimental
from ..features import FeatureName
from ._checks import all_codes
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

__all__ = [
    'CODES',
    'Diagnostic',
    'Severity',
    'check_agent_tree',
]

CODES: tuple[str, ...] = all_codes()
"""Every code a check can report, such as ``'ADK-D104'``."""


@experimental(FeatureName.AGENT_DIAGNOSTICS)
def check_agent_tree(root: Any) -> list[Diagnostic]:
  """Checks an agent tree, a ``Workflow`` or an ``App`` for wiring mistakes.

  Nothing is run and nothing is changed.

  Args:
    root: The root agent (any ``BaseAgent``), a ``Workflow`` or other node, or
      an ``App``, whose root agent is checked.

  Returns:
    The findings: errors first, then warnings, then infos.

  Raises:
    TypeError: If ``root`` is none of these.
  """
  from ..apps.app import App
  from ..workflow._base_node import BaseNode
  from ._checks import run_checks

  if isinstance(root, App):
    root = root.root_agent
  if not isinstance(root, BaseNode):
    raise TypeError(
        'check_agent_tree() takes the root of an agent tree: an agent, a'
        f' Workflow or an App; got {type(root).__name__}. Pass the object'
        ' you give to Runner(agent=...), such as root_agent.'
    )
  return run_checks(root)
