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

"""The AG-UI messages of a stored session: the history a client is sent.

ag-ui-adk draws one message per stored event, internal agents' included.
Here the history is drawn from ``user_messages`` of the events: per turn one
assistant message, and each agent run as a tool as a message attributed to
its sub-agent run, with the ids the live stream gave the same messages. The
``MESSAGES_SNAPSHOT`` a run ends with and ``/agents/state`` both send it.
"""

from __future__ import annotations

from typing import Any
from typing import Optional

from ...events._client_errors import ERROR_EVENT_MESSAGE
from ...events.event import Event
from ...events.user_messages import NestedRun
from ...events.user_messages import ToolCard
from ...events.user_messages import user_messages
from ...tools._tool_visibility import FULL
from ...tools._tool_visibility import HIDDEN
from ._ag_ui_adk import AgUiUserMessage
from ._ag_ui_adk import AssistantMessage
from ._ag_ui_adk import FunctionCall
from ._ag_ui_adk import ToolCall
from ._ag_ui_adk import ToolMessage
from ._message_forms import _args_text
from ._message_forms import _client_message_id
from ._message_forms import _reply_id
from ._message_forms import _result_id
from ._message_forms import _result_text
from ._message_forms import _work_id


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
