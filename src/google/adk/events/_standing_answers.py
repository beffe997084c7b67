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

"""Which internal replies stand for the answer of a user-facing agent.

In the refinement pattern (``SequentialAgent([drafter, LoopAgent([critic,
refiner])])``, the drafter and the refiner writing the document under one
``output_key``) the refiner speaks to the user, but when the critic approves
the first draft the refiner only calls ``exit_loop`` and says nothing. The
user's answer is then the document as it stands: the drafter's reply, which
wrote the refiner's ``output_key``, not the critic's verdict, which was the
last thing said.

So an internal reply that writes the ``output_key`` of a user-facing agent is
marked, when it is produced, as standing for that agent's answer (the
``'answer'`` record of ``events/_event_records.py``). When an invocation ends
without a user-facing answer, the Runner chooses the latest such reply before
any other internal one as the turn's answer (``events/_turn_end.py``).
"""

from __future__ import annotations

import logging
from typing import Any
from typing import Final
from typing import TYPE_CHECKING

from . import _event_records
from . import _visibility_metadata

if TYPE_CHECKING:
  from ..agents.invocation_context import InvocationContext
  from ..workflow._base_node import BaseNode
  from .event import Event

logger = logging.getLogger('google_adk.' + __name__)

_KEYS_METADATA_KEY: Final = '_adk_standing_answer_keys'


def bind_to_invocation(
    invocation_context: InvocationContext, root: BaseNode | None
) -> None:
  """Collects the ``output_key`` of every user-facing agent of the tree.

  Args:
    invocation_context: A new invocation context, its visibility index bound.
    root: The root agent or node the Runner runs.
  """
  from ..agents import _visibility

  index = _visibility.index_for_invocation(invocation_context)
  if root is None or index is None:
    return
  keys: set[str] = set()
  try:
    _collect(root, index, keys, visited=set())
  except Exception:  # pylint: disable=broad-except
    # A tree this cannot read runs as it would without the marks.
    logger.debug('No standing answers for %r.', root, exc_info=True)
    return
  if keys:
    invocation_context._private_metadata[_KEYS_METADATA_KEY] = frozenset(keys)


def mark_event(event: Event, invocation_context: InvocationContext) -> None:
  """Marks an internal reply that writes a user-facing agent's output key.

  Args:
    event: The event, after its visibility is set and before it is persisted.
    invocation_context: The invocation the event belongs to.
  """
  keys = invocation_context._private_metadata.get(_KEYS_METADATA_KEY)
  if (
      not keys
      or event.is_user_facing
      or event.partial
      or keys.isdisjoint(event.actions.state_delta)
  ):
    return
  event.custom_metadata = _visibility_metadata.with_entries(
      event.custom_metadata, **{_event_records.ANSWER: True}
  )


def _collect(node: Any, index: Any, keys: set[str], visited: set[int]) -> None:
  from ..agents import _visibility
  from ..agents.llm_agent import LlmAgent
  from ..agents.visibility import node_visibility
  from ..tools import _tool_visibility

  if id(node) in visited:
    return
  visited.add(id(node))
  if (
      isinstance(node, LlmAgent)
      and node.output_key
      and _visibility.is_speaker(node)
      and node_visibility(index, node) == _visibility.USER
  ):
    keys.add(node.output_key)
  for child in _tool_visibility.child_nodes(node):
    _collect(child, index, keys, visited)
