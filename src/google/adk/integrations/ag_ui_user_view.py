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

"""Serves an ADK app through ag-ui-adk, sending the client the user's view.

ag-ui-adk (the AG-UI middleware CopilotKit frontends talk to) never reads
``Event.is_user_facing``. Its ``run_config_factory`` can put a run in
``visibility_mode='filter'``, which keeps internal agents' text out of the live
stream, but the history it sends (the ``MESSAGES_SNAPSHOT`` at the end of a run
and ``POST /agents/state``) is built from the stored session events, which keep
everything: a classifier's label comes back as an assistant message.

Here all three send ``google.adk.events.user_view.user_view`` of the events,
and the state the client receives (``STATE_DELTA``, ``STATE_SNAPSHOT``,
``/agents/state``) leaves out what internal agents wrote (agents run as tools
included), except the keys named in ``client_state_keys``::

  agent = UserViewADKAgent(adk_agent=root_agent, app_name='demo', user_id='u1',
                           emit_messages_snapshot=True,
                           client_state_keys=['cart'])
  app = FastAPI()
  add_user_view_fastapi_endpoint(app, agent, '/')

* ``UserViewADKAgent`` is an ``ADKAgent`` whose runs are in filter mode (its
  ``run_config_factory``, or ag-ui-adk's default, still makes the RunConfig)
  and whose ``MESSAGES_SNAPSHOT`` is rebuilt from the user's view of the
  session.
* ``add_user_view_fastapi_endpoint`` is ``add_adk_fastapi_endpoint`` with
  ``/agents/state`` reading the user's view of the session.

The session keeps every event in full; only what is sent to the client
changes. ag-ui-adk 0.11.0 has no hook for the history it sends, so besides
subclassing ``ADKAgent`` the adapter relies on a few of its internals, named
where they are used. ``docs/ag-ui.md`` describes the change proposed to
ag-ui-adk that would make this module unnecessary.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
import contextlib
import contextvars
import functools
import logging
from typing import Any
from typing import cast
from typing import Optional

try:
  from ag_ui.core import BaseEvent
  from ag_ui.core import EventType
  from ag_ui.core import MessagesSnapshotEvent
  from ag_ui.core import RunAgentInput
  from ag_ui.core import StateSnapshotEvent
  from ag_ui_adk import add_adk_fastapi_endpoint
  from ag_ui_adk import adk_events_to_messages
  from ag_ui_adk import ADKAgent
  from ag_ui_adk.request_state_service import RequestStateSessionService
  from fastapi import APIRouter
  from fastapi import FastAPI
  from fastapi import Request
  from fastapi.routing import APIRoute
except ImportError as e:
  raise ImportError(
      'google.adk.integrations.ag_ui_user_view needs ag-ui-adk:'
      ' pip install ag-ui-adk==0.11.0'
  ) from e

from ..agents.run_config import RunConfig
from ..events._state_view import state_for_client
from ..events._state_view import validate_client_state_keys
from ..events.user_view import user_view
from ..sessions.base_session_service import GetSessionConfig
from ..sessions.session import Session

logger = logging.getLogger('google_adk.' + __name__)

_AGENTS_STATE_PATH = '/agents/state'
"""The history route ``add_adk_fastapi_endpoint`` adds, whatever its path."""

_reading_for_client: contextvars.ContextVar[Optional[tuple[str, ...]]] = (
    contextvars.ContextVar('google_adk_ag_ui_reading_for_client', default=None)
)
"""While a client reads: the state keys it may see although internal agents
write them."""


@contextlib.contextmanager
def _client_reads(client_state_keys: tuple[str, ...]) -> Iterator[None]:
  """Session reads in this block return the user's view of the session."""
  token = _reading_for_client.set(client_state_keys)
  try:
    yield
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
    client_state_keys = _reading_for_client.get()
    if session is None or client_state_keys is None:
      return session
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


def _in_filter_mode(
    run_config_factory: Callable[[RunAgentInput], RunConfig],
    client_state_keys: tuple[str, ...],
    input_data: RunAgentInput,
) -> RunConfig:
  run_config = run_config_factory(input_data)
  return run_config.model_copy(
      update={
          'visibility_mode': 'filter',
          'client_state_keys': [
              *run_config.client_state_keys,
              *client_state_keys,
          ],
      }
  )


class UserViewADKAgent(ADKAgent):  # type: ignore[misc]
  """An ``ADKAgent`` whose clients receive only what the user should see.

  Takes ``ADKAgent``'s arguments (and ``ADKAgent.from_app`` works as well),
  plus ``client_state_keys``: the state keys the client may see although
  internal agents write them (a list of str; none by default). It differs in
  four ways:

  * Every run is in ``visibility_mode='filter'``: the RunConfig comes from
    ``run_config_factory`` (or ag-ui-adk's default) with the mode and
    ``client_state_keys`` set, so internal agents' text and state never
    reach the live stream (``STATE_DELTA``).
  * The ``MESSAGES_SNAPSHOT`` a run ends with (``emit_messages_snapshot``) is
    built from ``user_view`` of the session's events, as the live stream was.
  * Its ``STATE_SNAPSHOT`` events leave out the keys only internal agents
    wrote.
  * Its session service answers ``/agents/state`` reads with the user's view
    (messages and state) when served by ``add_user_view_fastapi_endpoint``.
  """

  def __init__(
      self,
      *args: Any,
      client_state_keys: Iterable[str] = (),
      **kwargs: Any,
  ) -> None:
    super().__init__(*args, **kwargs)
    self.client_state_keys: tuple[str, ...] = tuple(
        validate_client_state_keys(list(client_state_keys))
    )
    # ag-ui-adk sets the factory; it has no type where it is not installed.
    factory: Any = self._run_config_factory  # type: ignore[has-type]
    self._run_config_factory = functools.partial(
        _in_filter_mode, factory, self.client_state_keys
    )
    # ADKAgent.__init__ has just made sure the manager's service is ag-ui-adk's
    # RequestStateSessionService; the view goes on top of it. A manager shared
    # with other agents gets it too, which changes nothing for them: the view
    # applies only inside add_user_view_fastapi_endpoint's /agents/state.
    manager = self._session_manager
    if not isinstance(manager._session_service, _UserViewSessionReads):
      manager._session_service = _UserViewSessionReads(manager._session_service)

  async def run(self, input: RunAgentInput) -> AsyncGenerator[BaseEvent, None]:
    """Runs as ``ADKAgent.run``, with the messages snapshot in the user's view.

    Args:
      input: The AG-UI run input.

    Yields:
      The run's AG-UI events.
    """
    async with contextlib.aclosing(super().run(input)) as events:
      async for event in events:
        if event.type == EventType.MESSAGES_SNAPSHOT:
          event = await self._user_view_snapshot(input)
          if event is None:
            continue
        elif event.type == EventType.STATE_SNAPSHOT:
          event = await self._client_state_snapshot(input, event)
        yield event

  async def _client_state_snapshot(
      self, input_data: RunAgentInput, event: StateSnapshotEvent
  ) -> StateSnapshotEvent:
    """ag-ui-adk's state snapshot as a session read shows it to the client.

    Keys only internal agents wrote are left out, a key an internal agent
    wrote last shows the value the last user-facing write gave it, and keys
    ag-ui-adk merges in (a client tool's predicted state) stay.
    """
    snapshot = event.snapshot
    if not isinstance(snapshot, dict):
      return event
    session = await self._read_session(input_data)
    # Without the session who wrote each key cannot be told: only the named
    # keys.
    shown = state_for_client(
        snapshot,
        session.events if session is not None else None,
        self.client_state_keys,
    )
    return event.model_copy(update={'snapshot': shown})

  async def _read_session(self, input_data: RunAgentInput) -> Optional[Session]:
    """Reads the run's session from the session service directly.

    ``SessionManager.get_session`` may answer from a read cache taken before
    the run.
    """
    app_name = self._get_app_name(input_data)
    user_id = self._get_user_id(input_data)
    session_id = self._get_backend_session_id(
        input_data.thread_id, user_id, app_name=app_name
    )
    if session_id is None:
      return None
    session = await self._session_manager._session_service.get_session(
        app_name=app_name, user_id=user_id, session_id=session_id
    )
    return cast(Optional[Session], session)

  async def _user_view_snapshot(
      self, input_data: RunAgentInput
  ) -> Optional[MessagesSnapshotEvent]:
    """The snapshot ag-ui-adk makes, from the user's view of the session."""
    session = await self._read_session(input_data)
    if session is None:
      # Never fall back to ag-ui-adk's snapshot: it shows internal agents.
      logger.warning(
          'No session for thread %s: MESSAGES_SNAPSHOT not sent.',
          input_data.thread_id,
      )
      return None
    messages = adk_events_to_messages(
        user_view(session.events, client_state_keys=self.client_state_keys)
    )
    if not messages:
      return None
    return MessagesSnapshotEvent(
        type=EventType.MESSAGES_SNAPSHOT, messages=messages
    )


def _only_user_view_agents(
    agent_resolver: Callable[
        [Request, RunAgentInput], Awaitable[Optional[ADKAgent]]
    ],
) -> Callable[[Request, RunAgentInput], Awaitable[Optional[ADKAgent]]]:
  """Fails a request routed to an agent that would show internal events."""

  @functools.wraps(agent_resolver)
  async def resolve(
      request: Request, input_data: RunAgentInput
  ) -> Optional[ADKAgent]:
    agent = await agent_resolver(request, input_data)
    if agent is not None and not isinstance(agent, UserViewADKAgent):
      raise TypeError(
          'agent_resolver returned a plain ADKAgent, whose history shows'
          ' internal agents: return a UserViewADKAgent.'
      )
    if agent is not None and _reading_for_client.get() is not None:
      # The rest of this /agents/state request reads for the resolved agent.
      _reading_for_client.set(agent.client_state_keys)
    return agent

  return resolve


def _with_client_reads(
    endpoint: Callable[..., Any], agent: UserViewADKAgent
) -> Callable[..., Any]:
  """``endpoint`` with its session reads in ``agent``'s user's view."""

  # functools.wraps keeps the signature FastAPI builds the route from.
  @functools.wraps(endpoint)
  async def endpoint_with_client_reads(*args: Any, **kwargs: Any) -> Any:
    with _client_reads(agent.client_state_keys):
      return await endpoint(*args, **kwargs)

  return endpoint_with_client_reads


def add_user_view_fastapi_endpoint(
    app: FastAPI | APIRouter,
    agent: UserViewADKAgent,
    path: str = '/',
    **kwargs: Any,
) -> None:
  """``add_adk_fastapi_endpoint``, serving the user's view of the history.

  Adds the same routes, with the same arguments (``extract_state_from_request``,
  ``agent_resolver``, route options); ``POST /agents/state`` returns the
  messages of ``user_view`` of the session instead of every stored event.

  Args:
    app: The FastAPI app or router to add the routes to.
    agent: The agent to serve.
    path: The path of the AG-UI run endpoint.
    **kwargs: Passed to ``add_adk_fastapi_endpoint``. An ``agent_resolver``
      must return ``UserViewADKAgent`` instances (or None).

  Raises:
    TypeError: If ``agent`` is not a ``UserViewADKAgent``.
    RuntimeError: If ag-ui-adk no longer adds ``/agents/state`` as expected.
  """
  if not isinstance(agent, UserViewADKAgent):
    raise TypeError(
        'add_user_view_fastapi_endpoint serves a UserViewADKAgent, not'
        f' {type(agent).__name__}: a plain ADKAgent shows internal agents.'
    )
  if kwargs.get('agent_resolver') is not None:
    kwargs['agent_resolver'] = _only_user_view_agents(kwargs['agent_resolver'])
  routes = APIRouter()
  add_adk_fastapi_endpoint(routes, agent, path, **kwargs)
  for index, route in enumerate(routes.routes):
    if isinstance(route, APIRoute) and route.path == _AGENTS_STATE_PATH:
      routes.routes[index] = APIRoute(
          route.path,
          _with_client_reads(route.endpoint, agent),
          methods=sorted(route.methods or ()),
          name=route.name,
      )
      break
  else:
    raise RuntimeError(
        f'ag-ui-adk added no {_AGENTS_STATE_PATH} route; this adapter is for'
        ' ag-ui-adk 0.11.0.'
    )
  app.include_router(routes)
