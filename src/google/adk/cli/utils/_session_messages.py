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

"""A session read as the messages a chat client draws.

``GET /apps/{app}/users/{user}/sessions/{id}?visibility_mode=filter`` gives
a client the user's view one event at a time; a chat client then has to turn
a turn's events (calls, responses, text, the work of agents run as tools)
into the one message it draws. ``GET .../sessions/{id}/messages`` answers
with that conversation already built: ``user_messages`` of the stored
events, per turn the user's message and one assistant message whose parts
are its text and tool cards in order (see
``google.adk.events.user_messages``). It is built from the stored session on
each read, so a client that reloads draws what it drew after the run.
"""

from __future__ import annotations

from typing import Any
from typing import Callable

from fastapi import FastAPI
from fastapi import HTTPException
from fastapi import Query
from fastapi.responses import JSONResponse

from ...auth.auth_credential import _redact_credential_secrets
from ...events.user_messages import user_messages
from ...events.user_messages import UserMessage
from ...sessions.base_session_service import BaseSessionService

MESSAGES_PATH = (
    '/apps/{app_name}/users/{user_id}/sessions/{session_id}/messages'
)


def add_session_messages_route(
    app: FastAPI, session_service: Callable[[], BaseSessionService]
) -> None:
  """Adds ``GET .../sessions/{session_id}/messages`` to the API server.

  Args:
    app: The server's app.
    session_service: Returns the session service to read from.
  """

  @app.get(
      MESSAGES_PATH,
      response_model=list[UserMessage],
      response_model_exclude_none=True,
  )
  async def get_session_messages(
      app_name: str,
      user_id: str,
      session_id: str,
      client_state_keys: list[str] = Query(default=[]),
  ) -> JSONResponse:
    session = await session_service().get_session(
        app_name=app_name, user_id=user_id, session_id=session_id
    )
    if not session:
      raise HTTPException(status_code=404, detail='Session not found')
    return JSONResponse(
        content=dump_messages(
            user_messages(session.events, client_state_keys=client_state_keys)
        )
    )


def dump_messages(messages: list[UserMessage]) -> list[dict[str, Any]]:
  """Returns messages as the endpoint sends them.

  A client tool's card holds its arguments and the client's answer, so a
  credential request's card would hold the credential: it is redacted as the
  session read redacts the events.
  """
  return [
      _redact_credential_secrets(
          message.model_dump(by_alias=True, exclude_none=True, mode='json')
      )
      for message in messages
  ]
