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

"""ADK-D114: a custom agent whose code visibility inference cannot read.

Inference reads a custom agent's ``_run_async_impl``
(``agents/_custom_agent_visibility.py``): whether it says something itself,
whether it escalates, which ``output_key`` value it compares. Without
source (a compiled or dynamically built method) it falls back to the
documented rule: the agent counts as speaking whenever it runs, never ends a
loop, and reads no agent's reply as data.
"""

from __future__ import annotations

from typing import Iterator

from ..agents import _custom_agent_visibility
from ..workflow._base_node import BaseNode
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

UNREAD_CUSTOM_AGENT = 'ADK-D114'
CODES = (UNREAD_CUSTOM_AGENT,)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports each custom agent whose code cannot be read and that sets no
  ``visibility`` of its own."""
  for node in walk(root):
    if getattr(node, 'visibility', None) is not None:
      continue
    if not _custom_agent_visibility.unreadable_agent(node):
      continue
    yield Diagnostic(
        Severity.INFO,
        UNREAD_CUSTOM_AGENT,
        node.name,
        f'The code of custom agent {node.name!r}'
        f' ({type(node).__name__}._run_async_impl) has no source to read,'
        ' so visibility inference counts it as speaking to the user whenever'
        ' it runs: an agent right before it is internal, it never ends a'
        " loop, and no agent's output_key it compares is taken for a label.",
        "Set visibility='user' or 'internal' on it, or on the agents around"
        ' it, where the inferred value is not the one you want.',
    )
