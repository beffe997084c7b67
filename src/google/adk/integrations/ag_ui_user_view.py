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

A turn reaches the client as one assistant message (its text and its tool
cards, as ``google.adk.events.user_messages`` draws them), live and in the
history, and an agent run as a tool as a sub-agent run: ``SUBAGENT_*`` events
and tool calls attributed to it by ``subagentRunId``, as much of it as
``nested_progress`` (``'hidden'``, ``'minimal'``, the default, or ``'full'``)
allows.

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
import json
import logging
from typing import Any
from typing import cast
from typing import Optional

from google.genai import types

try:
  from ag_ui.core import AssistantMessage
  from ag_ui.core import BaseEvent
  from ag_ui.core import EventType
  from ag_ui.core import FunctionCall
  from ag_ui.core import MessagesSnapshotEvent
  from ag_ui.core import RunAgentInput
  from ag_ui.core import RunErrorEvent
  from ag_ui.core import StateSnapshotEvent
  from ag_ui.core import SubagentErrorEvent
  from ag_ui.core import SubagentFinishedEvent
  from ag_ui.core import SubagentStartedEvent
  from ag_ui.core import ToolCall
  from ag_ui.core import ToolCallArgsEvent
  from ag_ui.core import ToolCallEndEvent
  from ag_ui.core import ToolCallResultEvent
  from ag_ui.core import ToolCallStartEvent
  from ag_ui.core import ToolMessage
  from ag_ui.core import UserMessage as AgUiUserMessage
  from ag_ui_adk import add_adk_fastapi_endpoint
  from ag_ui_adk import ADKAgent
  from ag_ui_adk.event_translator import _serialize_tool_response
  from ag_ui_adk.request_state_service import RequestStateSessionService
  from ag_ui_adk.serialization import serialize_tool_args
  from fastapi import APIRouter
  from fastapi import FastAPI
  from fastapi import Request
  from fastapi.responses import JSONResponse
  from fastapi.routing import APIRoute
except ImportError as e:
  raise ImportError(
      'google.adk.integrations.ag_ui_user_view needs ag-ui-adk:'
      ' pip install ag-ui-adk==0.11.0'
  ) from e

from ..agents.run_config import RunConfig
from ..events._client_errors import ERROR_EVENT_MESSAGE
from ..events._client_errors import RUN_FAILED_CODE
from ..events._client_errors import RUN_FAILED_MESSAGE
from ..events._event_records import progress_of
from ..events._event_records import records_of
from ..events._state_view import state_for_client
from ..events._state_view import validate_client_state_keys
from ..events.event import Event
from ..events.user_messages import NestedRun
from ..events.user_messages import ToolCard
from ..events.user_messages import user_messages
from ..events.user_view import user_view
from ..runners import Runner
from ..sessions.base_session_service import GetSessionConfig
from ..sessions.session import Session
from ..tools._nested_progress import internal_run_of
from ..tools._nested_progress import is_work
from ..tools._nested_progress import steps_of
from ..tools._tool_visibility import ALLOWED_TOOL_VISIBILITIES
from ..tools._tool_visibility import FULL
from ..tools._tool_visibility import HIDDEN
from ..tools._tool_visibility import MINIMAL
from ..tools._tool_visibility import tool_call_of_branch
from ..tools._tool_visibility import validate_tool_visibility

logger = logging.getLogger('google_adk.' + __name__)

_AGENTS_STATE_PATH = '/agents/state'
"""The history route ``add_adk_fastapi_endpoint`` adds, whatever its path."""

_THREAD_ID_STATE_KEY = '_ag_ui_thread_id'
"""Where ag-ui-adk keeps a session's AG-UI thread id in its state."""

_EXCEPTION_ERROR_CODES = frozenset({
    'BACKGROUND_EXECUTION_ERROR',
    'EXECUTION_ERROR',
    'TOOL_RESULT_PROCESSING_ERROR',
})
"""ag-ui-adk 0.11.0's RUN_ERROR codes whose message is an exception's text.

It logs each of them with its traceback; its other codes carry fixed
sentences (a timeout, a missing tool result) that quote nothing of the run.
"""


def _client_run_error(event: RunErrorEvent) -> RunErrorEvent:
  """A RUN_ERROR as a client in filter mode may read it.

  An exception that ended the run reaches the client as the fork's stable
  code and generic sentence (``events/_client_errors.py``): its text may quote
  an internal agent's reply, the state or a hidden tool's arguments.
  """
  if event.code not in _EXCEPTION_ERROR_CODES:
    return event
  logger.info(
      'A run failed (%s); the client gets %s, the log above has the error.',
      event.code,
      RUN_FAILED_CODE,
  )
  return event.model_copy(
      update={'message': RUN_FAILED_MESSAGE, 'code': RUN_FAILED_CODE}
  )


_CLIENT_MESSAGE_ID_KEY = '_ag_ui_user_view_message_id'
"""The state key a user's event records the client's id of its message under.

Written with the event (the Runner's ``state_delta``), so the history gives
the message the id the client knows it by: a client merges a snapshot by id,
and a message it knows under another id would move to the end.
"""


class _ClientRead:
  """What one client read of a session needs and found."""

  def __init__(self, agent: UserViewADKAgent) -> None:
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
def _client_reads(agent: UserViewADKAgent) -> Iterator[_ClientRead]:
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


def _reply_id(turn_id: str) -> str:
  """The id of the assistant message that answers the turn ``turn_id`` opens."""
  return f'{turn_id}-reply'


def _work_id(run_id: str) -> str:
  """The id of the message holding the steps of the nested run ``run_id``."""
  return f'{run_id}-work'


def _result_id(call_id: str) -> str:
  """The id of the tool message answering the call ``call_id``."""
  return f'{call_id}-result'


def _result_text(result: Any) -> str:
  # ag-ui-adk's own serialization, so that a result reads the same live (its
  # translator) and in the history built here.
  return cast(str, _serialize_tool_response(result))


def _args_text(args: Optional[dict[str, Any]]) -> str:
  # As ag-ui-adk writes a call's arguments: "{}" when there are none, which
  # is also what a client gets for a call shown without its arguments.
  return cast(str, serialize_tool_args(args)) if args else '{}'


def _conversation(
    events: list[Event],
    *,
    client_state_keys: tuple[str, ...],
    nested_progress: str,
) -> list[Any]:
  """The AG-UI messages of ``user_messages(events)``.

  Per turn: the user's message, one assistant message (no ``subagentRunId``)
  with the turn's text and its tool cards as tool calls, a tool message for
  each answered card, and for each agent run as a tool (unless
  ``nested_progress`` is ``'hidden'``) an assistant message attributed to
  the run (``subagentRunId`` = the call id) whose tool calls are its steps.
  The ids are the ones the live stream gives the same messages.

  An error part is not the assistant's text: the live stream never shows
  an error event's message (a run an exception ended gets ``RUN_ERROR``
  with a code, a failed run ``SUBAGENT_ERROR``), and in filter mode an
  exception's text is for the server's log.
  """
  messages: list[Any] = []
  turn_id: Optional[str] = None
  events = [event for event in events if not _is_resume_trigger(event)]
  by_id = {event.id: event for event in events}
  for message in user_messages(events, client_state_keys=client_state_keys):
    texts = [part.text or '' for part in message.parts if part.type == 'text']
    if message.role == 'user':
      turn_id = _client_message_id(by_id.get(message.id)) or message.id
      messages.append(AgUiUserMessage(id=turn_id, content=''.join(texts)))
      continue
    reply: Optional[AssistantMessage] = None
    reply_at = 0
    results: list[ToolMessage] = []
    content: list[str] = []
    for part in message.parts:
      if part.type == 'agent' and part.agent is not None:
        if nested_progress != HIDDEN:
          messages.extend(_run_messages(part.agent, nested_progress))
        continue
      if part.type == 'error':
        continue
      if reply is None:
        reply = AssistantMessage(id=_reply_id(turn_id or message.id))
        reply_at = len(messages)
        messages.append(reply)
      if part.type == 'text' and part.text:
        content.append(part.text)
      elif part.type == 'tool' and part.tool is not None:
        call, result = _card_messages(part.tool)
        reply.tool_calls = [*(reply.tool_calls or []), call]
        if result is not None:
          results.append(result)
    if reply is not None:
      reply.content = ''.join(content) or None
      messages[reply_at + 1 : reply_at + 1] = results
  return messages


def _card_messages(card: ToolCard) -> tuple[ToolCall, Optional[ToolMessage]]:
  """A card's tool call, and its tool message once it is answered."""
  call = ToolCall(
      id=card.call_id,
      function=FunctionCall(name=card.name, arguments=_args_text(card.args)),
  )
  if card.status != 'done':
    # A client card still waiting is a call the client can answer.
    return call, None
  return call, ToolMessage(
      id=_result_id(card.call_id),
      tool_call_id=card.call_id,
      # At 'minimal' there is no result to show: JSON null, as ag-ui-adk
      # sends for a result the user's view left out.
      content=_result_text(card.result if card.level == FULL else None),
  )


def _run_messages(run: NestedRun, level: str) -> list[Any]:
  """The messages of an agent run as a tool: its steps, then inner runs.

  A run that ended in error has its message even without steps, its
  ``metadata`` saying so (``{'status': 'error', 'error': ...}``, the
  sentence ``SUBAGENT_ERROR`` gave it live).
  """
  messages: list[Any] = []
  failed = run.status == 'error'
  if run.steps or failed:
    work = AssistantMessage(
        id=_work_id(run.run),
        subagent_run_id=run.run,
        metadata=(
            {'status': 'error', 'error': run.error or ERROR_EVENT_MESSAGE}
            if failed
            else None
        ),
        tool_calls=[
            ToolCall(
                id=step.id,
                function=FunctionCall(
                    name=step.name,
                    arguments=_args_text(step.args if level == FULL else None),
                ),
            )
            for step in run.steps
        ]
        or None,
    )
    messages.append(work)
    messages.extend(
        ToolMessage(
            id=_result_id(step.id),
            tool_call_id=step.id,
            subagent_run_id=run.run,
            content=_result_text(step.result if level == FULL else None),
        )
        for step in run.steps
        if step.status == 'done'
    )
  for inner in run.runs:
    messages.extend(_run_messages(inner, level))
  return messages


def _client_message_id(event: Optional[Event]) -> Optional[str]:
  """The client's id of the message a user's event holds, if recorded."""
  if event is None:
    return None
  recorded = event.actions.state_delta.get(_CLIENT_MESSAGE_ID_KEY)
  return recorded if isinstance(recorded, str) and recorded else None


def _is_resume_trigger(event: Event) -> bool:
  """Whether a user's event is the empty message ag-ui-adk resumes with.

  To resume a resumable app after a client tool's answer, ag-ui-adk 0.11.0
  stores the answer as an event of its own and runs the Runner with a
  message of one empty text part. Nobody typed it: it continues the turn.
  """
  parts = (event.content.parts if event.content else None) or ()
  return (
      event.author == 'user'
      and bool(parts)
      and all(part.text == '' and not part.function_response for part in parts)
  )


def _typed_text(event: Event) -> bool:
  """Whether a user event carries text the user typed (it starts a turn)."""
  parts = (event.content.parts if event.content else None) or ()
  return any(part.text and not part.thought for part in parts)


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


def _with_parts(event: Event, kept: list[types.Part]) -> Optional[Event]:
  """The event holding only `kept` of its parts, for ag-ui-adk's translator.

  With none kept, an event that changes state or artifacts still goes on
  without content, since ag-ui-adk sends what it changes; any other is None.
  """
  assert event.content is not None
  if kept:
    return event.model_copy(
        update={'content': event.content.model_copy(update={'parts': kept})}
    )
  if event.actions.state_delta or event.actions.artifact_delta:
    return event.model_copy(update={'content': None})
  return None


class _RunView:
  """Draws one AG-UI run's stream as the history built afterwards shows it.

  * The text and tool calls of the turn's assistant go to one message, whose
    id is the one the history gives it (``_reply_id`` of the turn's user
    message); a call shown without arguments gets ``"{}"``, and tool results
    get the ids the history gives their messages.
  * The call of a tool that runs an agent is that agent's run, not a tool
    card: it never reaches ag-ui-adk's translator (which would draw it as a
    tool call); its work arrives as ``SUBAGENT_*`` events instead.
  * Each progress update of such a run (``custom_metadata['adk_progress']``)
    becomes ``SUBAGENT_STARTED`` / ``SUBAGENT_FINISHED`` /
    ``SUBAGENT_ERROR``, and each of its steps a tool call attributed to the
    run (``subagentRunId``) in the run's own message, put straight on the
    run's AG-UI event queue in order.
  """

  def __init__(self, nested_progress: str, reply_id: Optional[str]) -> None:
    self.nested_progress = nested_progress
    self.reply_id = reply_id
    self.queue: Any = None
    self.client_message_id: Optional[str] = None
    """The client's id of the user message the run sends the Runner."""
    self._agent_calls: set[str] = set()
    self._runs: set[str] = set()
    self._open_runs: set[str] = set()
    self._steps: dict[str, str] = {}
    self._with_args: set[str] = set()
    # Internal agents whose run is open, by run id.
    self._internal_open: dict[str, str] = {}

  # The Runner's side, before ag-ui-adk's translator.

  def turn_started(self, event: Event) -> None:
    """Takes the user's event of the run: a typed message opens a turn."""
    if _typed_text(event):
      self.reply_id = _reply_id(_client_message_id(event) or event.id)

  def for_translator(self, event: Event) -> Optional[Event]:
    """The event without the calls of tools that run an agent, or None."""
    records = records_of(event)
    self._agent_calls |= records.agent_calls
    self._agent_calls |= records.nested.keys()
    parts = (event.content.parts if event.content else None) or []
    if not self._agent_calls or not parts:
      return event
    kept = [part for part in parts if not self._is_agent_call(part)]
    if len(kept) == len(parts):
      return event
    return _with_parts(event, kept)

  async def relay_internal_work(self, event: Event) -> Optional[Event]:
    """Sends an internal agent's run: that it works, and its tool calls.

    Returns:
      The rest of the event for ag-ui-adk's translator, or None.
    """
    for run in [r for r, a in self._internal_open.items() if a != event.author]:
      await self.finish_internal_run(run)
    internal = internal_run_of(event)
    if internal is None:
      return event
    parts = (event.content.parts if event.content else None) or []
    work = [part for part in parts if is_work(event, part)]
    run, agent = internal
    steps = steps_of(event, self.nested_progress, work)
    if run not in self._runs:
      # Who is working, from its first event on, with or without tool calls:
      # a node run with ctx.run_node that only writes, an internal workflow.
      self._internal_open[run] = agent
      await self.relay(
          {'run': run, 'agent': agent, 'status': 'started', 'internal': True}
      )
    for step in steps:
      await self.relay({'run': run, 'status': 'step', 'step': step})
    if not work:
      return event
    kept = [part for part in parts if part not in work]
    return _with_parts(event, kept)

  async def finish_internal_run(self, run: Optional[str] = None) -> None:
    """Ends an internal agent's run (every open one by default)."""
    for open_run in [run] if run else list(self._internal_open):
      self._internal_open.pop(open_run, None)
      await self.relay({'run': open_run, 'status': 'finished'})

  def _is_agent_call(self, part: Any) -> bool:
    call = part.function_call or part.function_response
    return call is not None and call.id in self._agent_calls

  def branch_run(self, event: Event) -> Optional[tuple[str, str]]:
    """The run (call id, agent) an event of a tool's branch belongs to."""
    return tool_call_of_branch(event.branch, self._agent_calls)

  async def relay_branch_work(self, run: str, agent: str, event: Event) -> None:
    """Sends an event of a tool's branch as the work of the run it is in."""
    updates: list[dict[str, Any]] = []
    if run not in self._runs:
      updates.append({'run': run, 'agent': agent, 'status': 'started'})
    updates.extend(
        {'run': run, 'status': 'step', 'step': step}
        for step in steps_of(event, self.nested_progress)
    )
    if event.error_message or event.error_code:
      updates.append({
          'run': run,
          'status': 'error',
          'error': event.error_message or event.error_code,
      })
    for update in updates:
      await self.relay(update)

  async def finish_answered_runs(self, event: Event) -> None:
    """Ends the runs on tools' branches whose calls this event answers."""
    for response in event.get_function_responses():
      if response.id in self._open_runs:
        await self.relay({'run': response.id, 'status': 'finished'})

  async def relay(self, update: dict[str, Any]) -> None:
    """Puts a nested run's progress update on the queue as AG-UI events."""
    for event in self._progress_events(update):
      await self.queue.put(event)

  def _progress_events(self, update: dict[str, Any]) -> list[BaseEvent]:
    run = update.get('run')
    if not isinstance(run, str) or not run or self.nested_progress == HIDDEN:
      return []
    events: list[BaseEvent] = []
    status = update.get('status')
    if run not in self._runs:
      self._runs.add(run)
      self._open_runs.add(run)
      parent = update.get('parent_run')
      events.append(
          SubagentStartedEvent(
              subagent_run_id=run,
              name=str(update.get('agent') or update.get('tool') or run),
              parent_tool_call_id=None if update.get('internal') else run,
              parent_subagent_run_id=(
                  parent
                  if isinstance(parent, str) and parent in self._runs
                  else None
              ),
          )
      )
    step = update.get('step')
    if status == 'step' and isinstance(step, dict):
      events.extend(self._step_events(run, step))
    elif status in ('finished', 'error') and run in self._open_runs:
      self._open_runs.discard(run)
      if status == 'error':
        events.append(
            SubagentErrorEvent(
                subagent_run_id=run, message=str(update.get('error') or '')
            )
        )
      else:
        events.append(SubagentFinishedEvent(subagent_run_id=run))
    return events

  def _step_events(self, run: str, step: dict[str, Any]) -> list[BaseEvent]:
    call_id, name = step.get('id'), step.get('name')
    if not isinstance(call_id, str) or not isinstance(name, str):
      return []
    full = self.nested_progress == FULL
    events: list[BaseEvent] = []
    if call_id not in self._steps:
      self._steps[call_id] = 'running'
      args = step.get('args') if full else None
      events += [
          ToolCallStartEvent(
              tool_call_id=call_id,
              tool_call_name=name,
              parent_message_id=_work_id(run),
              subagent_run_id=run,
          ),
          ToolCallArgsEvent(
              tool_call_id=call_id,
              delta=_args_text(args if isinstance(args, dict) else None),
              subagent_run_id=run,
          ),
          ToolCallEndEvent(tool_call_id=call_id, subagent_run_id=run),
      ]
    if step.get('status') == 'done' and self._steps[call_id] != 'done':
      self._steps[call_id] = 'done'
      events.append(
          ToolCallResultEvent(
              message_id=_result_id(call_id),
              tool_call_id=call_id,
              content=_result_text(step.get('result') if full else None),
              role='tool',
              subagent_run_id=run,
          )
      )
    return events

  # The client's side: what ag-ui-adk's translator made of the rest.

  def relabel(self, event: BaseEvent) -> list[BaseEvent]:
    """The translator's event with the ids the history gives its messages."""
    if getattr(event, 'subagent_run_id', None) is not None:
      return [event]
    kind = event.type
    # Set on every TOOL_CALL_* event; BaseEvent does not declare it.
    call_id: str = getattr(event, 'tool_call_id', '')
    if kind in (
        EventType.TEXT_MESSAGE_START,
        EventType.TEXT_MESSAGE_CONTENT,
        EventType.TEXT_MESSAGE_END,
    ):
      if self.reply_id is not None:
        return [event.model_copy(update={'message_id': self.reply_id})]
    elif kind == EventType.TOOL_CALL_START:
      if self.reply_id is not None:
        return [event.model_copy(update={'parent_message_id': self.reply_id})]
    elif kind == EventType.TOOL_CALL_ARGS:
      self._with_args.add(call_id)
    elif kind == EventType.TOOL_CALL_END:
      if call_id not in self._with_args:
        self._with_args.add(call_id)
        return [ToolCallArgsEvent(tool_call_id=call_id, delta='{}'), event]
    elif kind == EventType.TOOL_CALL_RESULT:
      return [event.model_copy(update={'message_id': _result_id(call_id)})]
    return [event]


_run_view: contextvars.ContextVar[Optional[_RunView]] = contextvars.ContextVar(
    'google_adk_ag_ui_run_view', default=None
)
"""The view of the AG-UI run whose ADK run the current task drives."""


def _relaying(runner: Runner, view: _RunView) -> Runner:
  """``runner``, its ``run_async`` passing its events through ``view``."""
  run_async = runner.run_async

  @functools.wraps(run_async)
  async def relayed(**kwargs: Any) -> AsyncGenerator[Event, None]:
    # The user's event tells which turn the run answers; ag-ui-adk does not
    # ask for it, so it goes no further.
    swallow_user_event = not kwargs.get('yield_user_message')
    kwargs['yield_user_message'] = True
    new_message = kwargs.get('new_message')
    if view.client_message_id and any(
        part.text for part in (new_message.parts if new_message else None) or ()
    ):
      kwargs['state_delta'] = {
          **(kwargs.get('state_delta') or {}),
          _CLIENT_MESSAGE_ID_KEY: view.client_message_id,
      }
    first = True
    async with contextlib.aclosing(run_async(**kwargs)) as events:
      async for event in events:
        if first and event.author == 'user':
          first = False
          view.turn_started(event)
          if swallow_user_event:
            continue
        first = False
        update = progress_of(event)
        if update is not None:
          await view.relay(update)
          continue
        branch_run = view.branch_run(event)
        if branch_run is not None:
          await view.relay_branch_work(*branch_run, event)
          if not (event.actions.state_delta or event.actions.artifact_delta):
            continue
          # ag-ui-adk still sends what the event changes.
          event = event.model_copy(update={'content': None})
        else:
          await view.finish_answered_runs(event)
          rest = await view.relay_internal_work(event)
          if rest is None:
            continue
          event = rest
        translated = view.for_translator(event)
        if translated is not None:
          yield translated
    await view.finish_internal_run()

  # Runner is a plain class: the instance attribute shadows the method.
  runner.run_async = relayed  # type: ignore[method-assign]
  return runner


def _in_filter_mode(
    run_config_factory: Callable[[RunAgentInput], RunConfig],
    client_state_keys: tuple[str, ...],
    nested_progress: str,
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
          'nested_progress': nested_progress,
      }
  )


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
