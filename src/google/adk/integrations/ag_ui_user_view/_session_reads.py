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

"""The user's view of a session, for the reads a client makes.

ag-ui-adk answers ``/agents/state`` from what its session service returns,
and the same service serves the Runner, which must read every event. So the
service returns the user's view only inside ``_client_reads()``, which the
endpoint (``_endpoint``) opens around that route; everywhere else it is
ag-ui-adk's own.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import contextvars
from typing import Any
from typing import cast
from typing import Optional
from typing import Protocol

from ...events._state_view import state_for_client
from ...events.user_view import user_view
from ...sessions.base_session_service import GetSessionConfig
from ...sessions.session import Session
from ._ag_ui_adk import RequestStateSessionService


class _ReadingAgent(Protocol):
  """The agent a client reads for (a ``UserViewADKAgent``), as a read uses it.

  A protocol, not the class: the agent's module imports this one (it wraps
  its session service in ``_UserViewSessionReads``), and naming the class
  here would make the two import each other.
  """

  client_state_keys: tuple[str, ...]

  def _history(self, session: Session) -> list[Any]:
    ...

  def _remember_sent(self, session: Session, messages: list[Any]) -> None:
    ...


class _ClientRead:
  """What one client read of a session needs and found."""

  def __init__(self, agent: _ReadingAgent) -> None:
    self.agent = agent
    self.client_state_keys = agent.client_state_keys
    self.session: Optional[Session] = None
    """The stored session the read returned the user's view of."""


_reading_for_client: contextvars.ContextVar[Optional[_ClientRead]] = (
    contextvars.ContextVar('google_adk_ag_ui_reading_for_client', default=None)
)
"""While a client reads: the state keys it may see although internal agents
write them, and the session read."""


@contextlib.contextmanager
def _client_reads(agent: _ReadingAgent) -> Iterator[_ClientRead]:
  """Session reads in this block return the user's view of the session."""
  read = _ClientRead(agent)
  token = _reading_for_client.set(read)
  try:
    yield read
  finally:
    _reading_for_client.reset(token)


# ag-ui-adk has no types where it is not installed (as in upstream checks).
class _UserViewSessionReads(RequestStateSessionService):  # type: ignore[misc]
  """ag-ui-adk's session wrapper, returning the user's view to client reads.

  Outside ``_client_reads()`` (the Runner, ag-ui-adk's tool and resume
  bookkeeping) it is ag-ui-adk's ``RequestStateSessionService`` unchanged.
  Inside, ``get_session`` returns a copy of the session whose events are
  ``user_view(session.events)`` and whose state leaves out the keys only
  internal agents wrote; the stored session is not touched.
  """

  async def get_session(
      self,
      *,
      app_name: str,
      user_id: str,
      session_id: str,
      config: Optional[GetSessionConfig] = None,
  ) -> Optional[Session]:
    session = cast(
        Optional[Session],
        await super().get_session(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            config=config,
        ),
    )
    read = _reading_for_client.get()
    if session is None or read is None:
      return session
    read.session = session
    client_state_keys = read.client_state_keys
    return session.model_copy(
        update={
            'events': user_view(
                session.events, client_state_keys=client_state_keys
            ),
            'state': state_for_client(
                session.state, session.events, client_state_keys
            ),
        }
    )
