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

"""One AG-UI run's live stream, drawn as the history will show it.

ag-ui-adk's translator would draw an agent run as a tool as a tool card, and
give the turn's text and tool results ids of its own, while the history
(``_history``) draws that run as a sub-agent run and names the messages after
the turn. ``_RunView`` stands between the Runner and the translator, so that
a client merging the snapshot a run ends with finds the messages it has
drawn: the sub-agent runs (``SUBAGENT_*`` events and their tool calls) go
straight on the run's AG-UI event queue, and the translator's events get the
history's ids.
"""

from __future__ import annotations

from typing import Any
from typing import Optional

from google.genai import types

from ...events._event_records import records_of
from ...events.event import Event
from ...tools._nested_progress import internal_run_of
from ...tools._nested_progress import is_work
from ...tools._nested_progress import steps_of
from ...tools._tool_visibility import FULL
from ...tools._tool_visibility import HIDDEN
from ...tools._tool_visibility import tool_call_of_branch
from ._ag_ui_adk import BaseEvent
from ._ag_ui_adk import EventType
from ._ag_ui_adk import SubagentErrorEvent
from ._ag_ui_adk import SubagentFinishedEvent
from ._ag_ui_adk import SubagentStartedEvent
from ._ag_ui_adk import ToolCallArgsEvent
from ._ag_ui_adk import ToolCallEndEvent
from ._ag_ui_adk import ToolCallResultEvent
from ._ag_ui_adk import ToolCallStartEvent
from ._message_forms import _args_text
from ._message_forms import _client_message_id
from ._message_forms import _reply_id
from ._message_forms import _result_id
from ._message_forms import _result_text
from ._message_forms import _typed_text
from ._message_forms import _work_id


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
