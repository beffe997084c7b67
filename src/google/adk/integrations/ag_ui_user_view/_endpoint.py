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

"""``add_user_view_fastapi_endpoint``: ag-ui-adk's routes, in the user's view.

ag-ui-adk's ``POST /agents/state`` reads the session and draws one message
per stored event. The route is kept, with its identity resolution and its
arguments, and wrapped: its session reads return the user's view
(``_session_reads``), and its messages are the history ``_history`` draws.
"""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
import functools
import json
from typing import Any
from typing import Optional

from ._ag_ui_adk import add_adk_fastapi_endpoint
from ._ag_ui_adk import ADKAgent
from ._ag_ui_adk import APIRoute
from ._ag_ui_adk import APIRouter
from ._ag_ui_adk import FastAPI
from ._ag_ui_adk import JSONResponse
from ._ag_ui_adk import Request
from ._ag_ui_adk import RunAgentInput
from ._agent import UserViewADKAgent
from ._session_reads import _client_reads
from ._session_reads import _reading_for_client

_AGENTS_STATE_PATH = '/agents/state'
"""The history route ``add_adk_fastapi_endpoint`` adds, whatever its path."""


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
    read = _reading_for_client.get()
    if agent is not None and read is not None:
      # The rest of this /agents/state request reads for the resolved agent.
      read.client_state_keys = agent.client_state_keys
      read.agent = agent
    return agent

  return resolve


def _with_client_reads(
    endpoint: Callable[..., Any], agent: UserViewADKAgent
) -> Callable[..., Any]:
  """``endpoint`` with its session reads in ``agent``'s user's view."""

  # functools.wraps keeps the signature FastAPI builds the route from.
  @functools.wraps(endpoint)
  async def endpoint_with_client_reads(*args: Any, **kwargs: Any) -> Any:
    with _client_reads(agent) as read:
      response = await endpoint(*args, **kwargs)
    if (
        read.session is None
        or not isinstance(response, JSONResponse)
        or response.status_code != 200
    ):
      return response
    body = json.loads(bytes(response.body))
    if not isinstance(body, dict) or 'messages' not in body:
      return response
    # ag-ui-adk drew one message per event; the history is one per turn.
    messages = read.agent._history(read.session)
    read.agent._remember_sent(read.session, messages)
    body['messages'] = [
        message.model_dump(by_alias=True, exclude_none=True)
        for message in messages
    ]
    return JSONResponse(status_code=response.status_code, content=body)

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
