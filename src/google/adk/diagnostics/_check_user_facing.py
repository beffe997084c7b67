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

"""ADK-D105: no agent in the tree is user-facing.

Only explicit ``visibility='internal'`` values cause this (inference always
leaves an agent that speaks). Clients that show user-facing final responses
then show nothing; filter mode shows the run's last internal answer.
"""

from __future__ import annotations

from typing import Iterator

from ..agents import _visibility
from ..agents.visibility import node_visibility
from ..workflow._base_node import BaseNode
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

NO_USER_FACING_AGENT = 'ADK-D105'
CODES = (NO_USER_FACING_AGENT,)


def check(root: BaseNode) -> Iterator[Diagnostic]:
  """Reports the root when none of the agents that reply is user-facing."""
  speakers = [node for node in walk(root) if _visibility.is_speaker(node)]
  if not speakers:
    return
  index = _visibility.visibility_index(root)
  if any(node_visibility(index, n) == _visibility.USER for n in speakers):
    return
  from ..workflow._workflow import Workflow

  # A Workflow is no agent: it cannot be a SequentialAgent's sub-agent.
  if isinstance(root, Workflow):
    example = 'an edge from its last node to a presenter node'
  else:
    example = 'SequentialAgent(sub_agents=[loop, presenter])'
  yield Diagnostic(
      Severity.WARNING,
      NO_USER_FACING_AGENT,
      root.name,
      f'No agent in the tree rooted at {root.name!r} is user-facing: every'
      ' reply is internal (event.is_user_facing is False). Clients that show'
      ' user-facing final responses show nothing; in filter mode the user'
      " gets the run's last internal answer as a fallback.",
      'Add an agent that presents the result after the loop or pipeline (for'
      f" example {example}), or set visibility='user' on the agent the user"
      ' should hear.',
  )
