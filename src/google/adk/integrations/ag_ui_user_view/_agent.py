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

"""``UserViewADKAgent``: ag-ui-adk's ``ADKAgent``, serving the user's view.

It is where the other modules meet ag-ui-adk's run: it puts every run in
filter mode, gives each run a ``_RunView`` and the Runner a relay through it,
replaces the snapshots ag-ui-adk ends a run with (messages and state) with
the user's view, and wraps its session service for the client's reads. It
overrides two ag-ui-adk 0.11.0 internals, named where they are.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from collections.abc import Iterable
import contextlib
import contextvars
import functools
import logging
from typing import Any
from typing import cast
from typing import Optional

from ...events._state_view import state_for_client
from ...events._state_view import validate_client_state_keys
from ...runners import Runner
from ...sessions.session import Session
from ...tools._tool_visibility import ALLOWED_TOOL_VISIBILITIES
from ...tools._tool_visibility import MINIMAL
from ...tools._tool_visibility import validate_tool_visibility
from ._ag_ui_adk import ADKAgent
from ._ag_ui_adk import BaseEvent
from ._ag_ui_adk import EventType
from ._ag_ui_adk import MessagesSnapshotEvent
from ._ag_ui_adk import RunAgentInput
from ._ag_ui_adk import RunErrorEvent
from ._ag_ui_adk import StateSnapshotEvent
from ._filter_mode import _client_run_error
from ._filter_mode import _in_filter_mode
from ._history import _conversation
from ._message_forms import _client_message_id
from ._message_forms import _reply_id
from ._message_forms import _typed_text
from ._relay import _relaying
from ._run_view import _RunView
from ._session_reads import _UserViewSessionReads

logger = logging.getLogger('google_adk.' + __name__)

_THREAD_ID_STATE_KEY = '_ag_ui_thread_id'
"""Where ag-ui-adk keeps a session's AG-UI thread id in its state."""


def _last_user_message_id(messages: Iterable[Any]) -> Optional[str]:
  """The id of the user message ag-ui-adk sends the Runner from ``messages``.

  As ag-ui-adk 0.11.0 picks it: the last user message with content.
  """
  for message in reversed(list(messages or ())):
    if getattr(message, 'role', None) == 'user' and getattr(
        message, 'content', None
    ):
      return cast(Optional[str], getattr(message, 'id', None))
  return None


_run_view: contextvars.ContextVar[Optional[_RunView]] = contextvars.ContextVar(
    'google_adk_ag_ui_run_view', default=None
)
"""The view of the AG-UI run whose ADK run the current task drives."""


class UserViewADKAgent(ADKAgent):  # type: ignore[misc]
  """An ``ADKAgent`` whose clients receive only what the user should see.

  Takes ``ADKAgent``'s arguments (and ``from_app`` takes ``ADKAgent.from_app``'s,
  so a resumable ``App`` can be served), plus ``client_state_keys``: the state keys the client may see although
  internal agents write them (a list of str; none by default), and
  ``nested_progress``: how much the client gets of the work of agents run as
  tools, ``'hidden'``, ``'minimal'`` (the default: who works, and each tool
  call's name and status) or ``'full'`` (with arguments and results). It
  differs in these ways:

  * Every run is in ``visibility_mode='filter'``: the RunConfig comes from
    ``run_config_factory`` (or ag-ui-adk's default) with the mode and
    ``client_state_keys`` set, so internal agents' text and state never
    reach the live stream (``STATE_DELTA``).
  * The ``MESSAGES_SNAPSHOT`` a run ends with (``emit_messages_snapshot``) is
    built from ``user_messages`` of the session's events: per turn the
    user's message, one assistant message and its tool messages, and the
    runs of agents used as tools as messages attributed to them.
  * The live stream draws the same messages: the turn's text and tool calls
    go to the assistant message's id, and an agent run as a tool arrives as
    ``SUBAGENT_STARTED``, its tool calls (``subagentRunId`` set) and
    ``SUBAGENT_FINISHED`` or ``SUBAGENT_ERROR``, never as a tool card.
  * Its ``STATE_SNAPSHOT`` events leave out the keys only internal agents
    wrote.
  * Its session service answers ``/agents/state`` reads with the user's view
    (messages and state) when served by ``add_user_view_fastapi_endpoint``.
  """

  def __init__(
      self,
      *args: Any,
      client_state_keys: Iterable[str] = (),
      nested_progress: str = MINIMAL,
      **kwargs: Any,
  ) -> None:
    super().__init__(*args, **kwargs)
    # ag-ui-adk sets the factory; it has no type where it is not installed.
    self._app_run_config_factory: Any = self._run_config_factory  # type: ignore[has-type]
    self._configure(client_state_keys, nested_progress)
    self._run_views: dict[tuple[str, str], _RunView] = {}
    # ADKAgent.__init__ has just made sure the manager's service is ag-ui-adk's
    # RequestStateSessionService; the view goes on top of it. A manager shared
    # with other agents gets it too, which changes nothing for them: the view
    # applies only inside add_user_view_fastapi_endpoint's /agents/state.
    manager = self._session_manager
    if not isinstance(manager._session_service, _UserViewSessionReads):
      manager._session_service = _UserViewSessionReads(manager._session_service)

  @classmethod
  def from_app(
      cls,
      app: Any,
      *args: Any,
      client_state_keys: Iterable[str] = (),
      nested_progress: str = MINIMAL,
      **kwargs: Any,
  ) -> UserViewADKAgent:
    """``ADKAgent.from_app``, with this class's own two options.

    Args:
      app: The ADK ``App`` (a resumable one, for instance).
      *args: Passed to ``ADKAgent.from_app``.
      client_state_keys: As for the constructor.
      nested_progress: As for the constructor.
      **kwargs: Passed to ``ADKAgent.from_app``.

    Returns:
      The agent, serving the App.
    """
    agent = cast(UserViewADKAgent, super().from_app(app, *args, **kwargs))
    agent._configure(client_state_keys, nested_progress)
    return agent

  def _configure(
      self, client_state_keys: Iterable[str], nested_progress: str
  ) -> None:
    """Checks and sets the options, and the runs' RunConfig with them."""
    self.client_state_keys: tuple[str, ...] = tuple(
        validate_client_state_keys(list(client_state_keys))
    )
    if nested_progress is None:
      raise ValueError(
          'UserViewADKAgent.nested_progress must be one of'
          f' {", ".join(map(repr, ALLOWED_TOOL_VISIBILITIES))}, not None.'
      )
    self.nested_progress: str = validate_tool_visibility(
        nested_progress, owner='UserViewADKAgent.nested_progress'
    )
    self._run_config_factory = functools.partial(
        _in_filter_mode,
        self._app_run_config_factory,
        self.client_state_keys,
        self.nested_progress,
    )

  async def run(self, input: RunAgentInput) -> AsyncGenerator[BaseEvent, None]:
    """Runs as ``ADKAgent.run``, drawn as the history draws the turn.

    Args:
      input: The AG-UI run input.

    Yields:
      The run's AG-UI events.
    """
    key = (input.thread_id, input.run_id)
    view = _RunView(self.nested_progress, await self._open_reply_id(input))
    self._run_views[key] = view
    try:
      async with contextlib.aclosing(super().run(input)) as events:
        async for event in events:
          if event.type == EventType.MESSAGES_SNAPSHOT:
            event = await self._user_view_snapshot(input)
            if event is None:
              continue
          elif event.type == EventType.STATE_SNAPSHOT:
            event = await self._client_state_snapshot(input, event)
          elif isinstance(event, RunErrorEvent):
            event = _client_run_error(event)
          else:
            for relabeled in view.relabel(event):
              yield relabeled
            continue
          yield event
    finally:
      if self._run_views.get(key) is view:
        del self._run_views[key]

  async def _open_reply_id(self, input_data: RunAgentInput) -> Optional[str]:
    """The reply a run continues when it brings no new user message.

    That is the last turn's (a run that answers a client tool continues it);
    a run with a new message opens its own, found when the Runner yields it.
    """
    session = await self._read_session(input_data)
    if session is None:
      return None
    for event in reversed(session.events):
      if event.author == 'user' and not event.partial and _typed_text(event):
        return _reply_id(_client_message_id(event) or event.id)
    return None

  # ag-ui-adk 0.11.0 internals: the background task that drives the Runner
  # (it receives the run's AG-UI event queue) and the Runner it makes.
  async def _run_adk_in_background(self, **kwargs: Any) -> None:
    input_data: RunAgentInput = kwargs['input']
    view = self._run_views.get((input_data.thread_id, input_data.run_id))
    if view is None:
      view = _RunView(self.nested_progress, None)
    view.queue = kwargs['event_queue']
    view.client_message_id = _last_user_message_id(
        kwargs.get('message_batch') or input_data.messages
    )
    # The task runs in a context of its own: the value ends with it.
    _run_view.set(view)
    await super()._run_adk_in_background(**kwargs)

  def _create_runner(self, *args: Any, **kwargs: Any) -> Runner:
    runner = cast(Runner, super()._create_runner(*args, **kwargs))
    view = _run_view.get()
    return runner if view is None else _relaying(runner, view)

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
    messages = self._history(session)
    if not messages:
      return None
    self._remember_sent(session, messages)
    return MessagesSnapshotEvent(
        type=EventType.MESSAGES_SNAPSHOT, messages=messages
    )

  def _history(self, session: Session) -> list[Any]:
    """The AG-UI messages of the user's view of a stored session."""
    return _conversation(
        session.events,
        client_state_keys=self.client_state_keys,
        nested_progress=self.nested_progress,
    )

  def _remember_sent(self, session: Session, messages: list[Any]) -> None:
    """Marks the history's message ids as ones ag-ui-adk has processed.

    A client sends the history back with its next message; ag-ui-adk runs
    every message whose id it has not processed, so without this the
    history's user messages (ids of stored events, not the client's) would
    run again.
    """
    thread_id = session.state.get(_THREAD_ID_STATE_KEY)
    if not isinstance(thread_id, str):
      return
    self._session_manager.mark_messages_processed(
        session.app_name,
        thread_id,
        [message.id for message in messages],
        user_id=session.user_id,
    )
