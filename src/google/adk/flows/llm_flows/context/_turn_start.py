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

"""Where the current turn starts for ``include_contents='none'``.

``include_contents='none'`` gives the model the current turn only, which
starts at the latest message the user typed or the latest reply of another
agent, whichever is newer. With ``include_sources``, the boundary is searched
among the sources the agent may see first. Otherwise
``include_contents='none', include_sources=['user']`` would start the turn at
a peer's reply that the filter then drops, and the model would receive an
empty request.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....agents._include_sources import source_authors
from ....events.event import Event
from ....workflow._node_input_record import is_node_input
from ....workflow._node_input_record import node_input_source


class TurnStartSearch:
  """Picks where the current turn starts for ``include_contents='none'``.

  The caller walks the history from newest to oldest and offers each event
  that could start a turn: a message the user typed, or another agent's reply.
  Candidates are ranked, and the search stops at the first of the best rank:
  a message from an allowed source, else (rank 1) the newest candidate
  regardless of source. With ``['user']`` this is the latest user message,
  not a later reply from a peer the agent cannot see, so the request is never
  empty for lack of a boundary.

  A workflow node's input counts as a message from the source that produced it
  (the user, or the predecessor node), so with ``['user']`` a booker's turn
  starts at what the user typed, not at the classifier's label the workflow
  handed it. Without a source filter the search stops at the first candidate.
  The caller only offers events a turn can start at without cutting a tool
  call off from its posted-back result. Branches and transfers need nothing
  special: only events visible on the agent's branch are offered, and a
  transfer is never a candidate.
  """

  def __init__(self, agent_name: str, source_filter: Sequence[str] | None):
    self._allowed = (
        None
        if source_filter is None
        else source_authors(source_filter, agent_name)
    )
    self._best_rank: int | None = None
    self.index: int | None = None
    """Index of the event the turn starts at, or None if none was offered."""

  def _rank(self, event: Event) -> int:
    """0 for a candidate from an allowed source; higher ranks come later."""
    return 0 if self._is_allowed(event) else 1

  def _is_allowed(self, event: Event) -> bool:
    return self._allowed is None or source_of(event) in self._allowed

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


def source_of(event: Event) -> str:
  """The author of a candidate, or for a node input, who produced it."""
  if is_node_input(event):
    recorded = node_input_source(event)
    if recorded is not None:
      return recorded.source
  return event.author
