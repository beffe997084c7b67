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

"""Where the current turn starts for ``include_contents='current'``.

``include_contents='current'`` starts the turn at the latest message the user
typed, so an agent late in a pipeline still sees what the user asked for in
this invocation and every reply since. The search for ``'none'`` is
``_turn_start.TurnStartSearch``; this module ranks candidates for
``'current'`` on top of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _turn_start
from ....agents._include_sources import USER_SOURCE
from ....events.event import Event


class TurnStartSearch(_turn_start.TurnStartSearch):
  """``_turn_start.TurnStartSearch`` that also serves ``'current'``.

  For ``'current'`` the search stops at the latest user message if ``'user'``
  is allowed, else (rank 1) at the latest user message anyway: the current
  invocation starts there whatever the agent may see of it. Only when no user
  message is visible at all (an isolated task agent's scope holds none) does
  it fall back (rank 2) to the newest reply from another agent, as ``'none'``
  would. After a transfer the turn still starts at the user's message, and
  the transfer is kept as context (subject to the filter, like any other
  message from the agent that made it).
  """

  def __init__(
      self,
      agent_name: str,
      source_filter: Sequence[str] | None,
      *,
      from_latest_user_message: bool,
  ):
    super().__init__(agent_name, source_filter)
    self._from_latest_user_message = from_latest_user_message

  def _rank(self, event: Event) -> int:
    if not self._from_latest_user_message:
      return super()._rank(event)
    if _turn_start.source_of(event) != USER_SOURCE:
      return 2
    return 0 if self._is_allowed(event) else 1
