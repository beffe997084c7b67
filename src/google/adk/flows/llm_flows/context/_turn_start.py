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

"""Where the current turn starts for ``include_contents='none'`` and ``'current'``.

``include_contents='none'`` gives the model the current turn only, which
starts at the latest message the user typed or the latest reply of another
agent, whichever is newer. Two settings move that boundary:

* ``include_contents='current'`` starts the turn at the latest message the
  user typed, so an agent late in a pipeline still sees what the user asked
  for in this invocation and every reply since.
* With ``include_sources``, the boundary is searched among the sources the
  agent may see first. Otherwise ``include_contents='none',
  include_sources=['user']`` would start the turn at a peer's reply that the
  filter then drops, and the model would receive an empty request.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....agents._include_sources import source_authors
from ....agents._include_sources import USER_SOURCE
from ....events.event import Event
from ....workflow._node_input_source import is_node_input
from ....workflow._node_input_source import node_input_source


class TurnStartSearch:
  """Picks where the current turn starts for ``include_contents`` modes.

  The caller walks the history from newest to oldest and offers each event
  that could start a turn: a message the user typed, or another agent's reply.
  Candidates are ranked, and the search stops at the first of the best rank:

  * ``'none'``: a message from an allowed source, else (rank 1) the newest
    candidate regardless of source. With ``['user']`` this is the latest user
    message, not a later reply from a peer the agent cannot see, so the
    request is never empty for lack of a boundary.
  * ``'current'``: the latest user message if ``'user'`` is allowed, else
    (rank 1) the latest user message anyway: the current invocation starts
    there whatever the agent may see of it. Only when no user message is
    visible at all (an isolated task agent's scope holds none) does it fall
    back (rank 2) to the newest reply from another agent, as ``'none'`` would.

  A workflow node's input counts as a message from the source that produced it
  (the user, or the predecessor node), so with ``['user']`` a booker's turn
  starts at what the user typed, not at the classifier's label the workflow
  handed it. Without a source filter ``'none'`` stops at the first candidate.
  The caller only offers events a turn can start at without cutting a tool
  call off from its posted-back result. Branches and transfers need nothing
  special: only events visible on the agent's branch are offered, and a
  transfer is never a candidate, so after a transfer the turn still starts at
  the user's message and the transfer is kept as context (subject to the
  filter, like any other message from the agent that made it).
  """

  def __init__(
      self,
      agent_name: str,
      source_filter: Sequence[str] | None,
      *,
      from_latest_user_message: bool,
  ):
    self._allowed = (
        None
        if source_filter is None
        else source_authors(source_filter, agent_name)
    )
    self._from_latest_user_message = from_latest_user_message
    self._best_rank: int | None = None
    self.index: int | None = None
    """Index of the event the turn starts at, or None if none was offered."""

  def _rank(self, event: Event) -> int:
    source = _source_of(event)
    is_allowed = self._allowed is None or source in self._allowed
    if not self._from_latest_user_message:
      return 0 if is_allowed else 1
    if source != USER_SOURCE:
      return 2
    return 0 if is_allowed else 1

  def offer(self, index: int, event: Event) -> bool:
    """Considers a candidate turn start.

    Args:
      index: The candidate's index in the history being searched.
      event: The candidate event.

    Returns:
      True when the search is over and the turn starts at ``index``.
    """
    rank = self._rank(event)
    if self._best_rank is None or rank < self._best_rank:
      self._best_rank = rank
      self.index = index
    return rank == 0


def _source_of(event: Event) -> str:
  """The author of a candidate, or for a node input, who produced it."""
  if is_node_input(event):
    recorded = node_input_source(event)
    if recorded is not None:
      return recorded.source
  return event.author
