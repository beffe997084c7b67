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


"""ADK-D112: a keyword an agent or workflow node does not have.

Agents refuse an unknown keyword when they are built (pydantic's
``extra='forbid'``), and so does a ``FunctionNode`` (its ``__init__``), but a
``Workflow`` or ``JoinNode`` ignores it: ``Workflow(..., visibilty='internal')``
builds, and the setting the author meant never applies. The node remembers
such keywords when it is built (``workflow/_ignored_keywords.py``), so that
``adk check`` reports them with the same sentence that describes an agent's
refused keyword. A near miss of a keyword the node has (``visibilty``) is an
error, and a ``Runner`` refuses the tree; any other keyword is a warning,
since upstream ignores it too and an app written for upstream may pass it.
"""

from __future__ import annotations

from typing import Iterator

from ..workflow._base_node import BaseNode
from ..workflow._ignored_keywords import ignored_keywords
from ..workflow._ignored_keywords import is_near_miss
from ..workflow._ignored_keywords import known_keywords
from ..workflow._ignored_keywords import unknown_keyword_message
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

UNKNOWN_KEYWORD = 'ADK-D112'
CODES = (UNKNOWN_KEYWORD,)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports the keywords each node of the tree ignored when it was built."""
  for node in walk(root):
    for keyword in ignored_keywords(node):
      known = known_keywords(type(node))
      message, hint = unknown_keyword_message(
          type(node).__name__, node.name, keyword, known, ignored=True
      )
      # A near miss of a real keyword is a setting that silently does not
      # apply; any other keyword upstream ignores too, and an app built
      # for upstream may pass it, so it is reported but the run goes on.
      severity = (
          Severity.ERROR if is_near_miss(keyword, known) else Severity.WARNING
      )
      yield Diagnostic(severity, UNKNOWN_KEYWORD, node.name, message, hint)
