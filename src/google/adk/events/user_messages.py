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

"""A conversation as the messages a chat client draws: one per turn and side.

``user_view`` gives a client one entry per event, so a turn in which the
assistant called three tools and then answered arrives as a pile of bubbles.
``user_messages`` turns the same events into messages: for each turn, the
user's message and one assistant message whose parts are, in the order they
happened, the text the user reads and a card for each tool call the user may
see:

* a tool at level ``'minimal'`` gives a card with its name and status;
* at ``'full'`` the card also holds the call's arguments and its result;
* a call the client answers (a long-running call, a confirmation, a credential
  or input request) is always a full card, ``client=True``, ``'waiting'``
  until the client's answer arrives, so the client can still answer it;
* a ``'hidden'`` tool gives nothing.

The tools through which a model steers the framework (a transfer, the end of
a loop, structured output, a task's result) give no card. A turn starts with
a message the user typed; the client's answer to one of its
tools continues the turn it answers. Events are placed in their turn by
invocation, never by position, so two turns that ran at once each keep their
own answer. The work of an agent or node run as a
tool (an ``AgentTool``'s nested run as recorded with its response, or the
events on the tool's ``<tool>@<call id>`` branch) is a part of type
``'agent'`` (a ``NestedRun``: the agent, its outcome and its steps), never a
card or text of its own. Errors are parts too; a run still going when the
turn ends in an error ended in it (``'error'``), with what was recorded of
it when its agent raised.

The parts are built from ``user_view`` of the events, so the rules of what a
user sees are those of filter mode, and the messages are the same for a run's
live events in filter mode and for the session that stores them. Progress
events (partial) are left out: a client shows them while the turn runs.
"""

from __future__ import annotations

from collections.abc import Mapping
import dataclasses
from typing import Any
from typing import Iterable
from typing import Literal
from typing import Optional

from google.genai import types
from pydantic import alias_generators
from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from ..tools import _nested_progress
from ..tools._tool_visibility import FULL
from ..tools._tool_visibility import tool_call_of_branch
from ._event_records import records_of
from .event import Event
from .user_view import user_view

_USER_AUTHOR = 'user'


class _Model(BaseModel):
  model_config = ConfigDict(
      alias_generator=alias_generators.to_camel,
      populate_by_name=True,
  )


class NestedStep(_Model):
  """A tool call made by an agent or node that runs as a tool."""

  id: str
  name: str
  status: str
  """``'running'`` or ``'done'``."""
  args: Optional[dict[str, Any]] = None
  result: Optional[Any] = None


class NestedRun(_Model):
  """The work of an agent or node run as a tool, as the client may see it."""

  run: str
  """The run's id: the id of the call that started it."""
  agent: str
  """The name of the tool that runs the agent or node."""
  status: str
  """``'started'``, ``'finished'`` or ``'error'``."""
  steps: list[NestedStep] = Field(default_factory=list)
  runs: list[NestedRun] = Field(default_factory=list)
  """Runs of agent tools called inside this one."""
  error: Optional[str] = None


class ToolCard(_Model):
  """A tool call in an assistant message."""

  call_id: str
  name: str
  level: Literal['minimal', 'full']
  client: bool = False
  """Whether the client answers the call."""
  status: Literal['running', 'waiting', 'done'] = 'running'
  args: Optional[dict[str, Any]] = None
  result: Optional[Any] = None


class MessagePart(_Model):
  """One part of a message: text, a tool card, an agent's work or an error."""

  type: Literal['text', 'tool', 'agent', 'error']
  text: Optional[str] = None
  tool: Optional[ToolCard] = None
  agent: Optional[NestedRun] = None
  """The work of an agent or node the assistant ran as a tool."""


class UserMessage(_Model):
  """One message of the conversation, as a chat client draws it."""

  id: str
  """The id of the message's first event."""
  role: Literal['user', 'assistant']
  invocation_id: str
  parts: list[MessagePart] = Field(default_factory=list)


def user_messages(
    events: Iterable[Event], *, client_state_keys: Iterable[str] = ()
) -> list[UserMessage]:
  """Returns the conversation as messages: per turn the user's and one reply.

  Args:
    events: Events in order, as a run in filter mode yields them or a session
      stores them. They are not modified.
    client_state_keys: As for ``user_view``.

  Returns:
    The messages in order. A turn the assistant has not answered yet has no
    assistant message.

  .. warning::
      This feature is **experimental** and its API or behavior may change in
      future releases.
  """
  builder = _Builder()
  for event in user_view(events, client_state_keys=client_state_keys):
    builder.add(event)
  return builder.messages()


@dataclasses.dataclass
class _Turn:
  """A message the user sent and the assistant's reply to it."""

  user: Optional[UserMessage] = None
  reply: Optional[UserMessage] = None
  # The runs of internal agents, whose tool calls are their work.
  internal_runs: dict[str, NestedRun] = dataclasses.field(default_factory=dict)


class _Builder:
  """Builds messages from the user's view of events, one event at a time."""

  def __init__(self) -> None:
    self._turns: list[_Turn] = []
    self._turn_of_invocation: dict[str, _Turn] = {}
    self._turn_of_call: dict[str, _Turn] = {}
    self._cards: dict[str, ToolCard] = {}
    self._runs: dict[str, NestedRun] = {}

  def messages(self) -> list[UserMessage]:
    """Returns the messages, each reply after the message it answers."""
    return [
        message
        for turn in self._turns
        for message in (turn.user, turn.reply)
        if message is not None
    ]

  def add(self, event: Event) -> None:
    if event.partial:
      return
    parts = (event.content.parts if event.content else None) or []
    if event.author == _USER_AUTHOR:
      self._add_user(event, parts)
      return
    self._finish_internal_runs(event)
    run = self._enclosing_run(event)
    if run is not None:
      # The work of an agent run as a tool is its steps; what it says to the
      # user (a task agent's question) and what the client must answer stay
      # in the message.
      parts = _add_work(run, event, parts)
    else:
      internal = _nested_progress.internal_run_of(event)
      if internal is not None:
        parts = self._add_internal_work(event, parts, *internal)
    agent_calls = records_of(event).agent_calls
    for part in parts:
      if part.thought:
        continue
      if part.text:
        self._append(event, MessagePart(type='text', text=part.text))
      elif part.function_call is not None:
        self._add_call(event, part.function_call, agent_calls)
      elif part.function_response is not None:
        self._add_response(event, part.function_response)
    if run is None and (event.error_code or event.error_message):
      self._end_runs_in_error(event)
      self._append(
          event,
          MessagePart(
              type='error', text=event.error_message or event.error_code
          ),
      )

  def _add_user(self, event: Event, parts: list[types.Part]) -> None:
    texts = [part.text for part in parts if part.text and not part.thought]
    answers = [
        part.function_response for part in parts if part.function_response
    ]
    for answer in answers:
      card = self._cards.get(answer.id or '')
      if card is not None:
        card.status = 'done'
        card.result = answer.response
      answered = self._turn_of_call.get(answer.id or '')
      if answered is not None:
        # The client's answer continues the turn of the call it answers.
        self._turn_of_invocation.setdefault(event.invocation_id, answered)
    if texts or _sends_media(parts):
      # A message the user sent starts a turn; an empty one (a client's
      # resume of a paused invocation) or a state write does not.
      turn = _Turn(
          user=UserMessage(
              id=event.id,
              role='user',
              invocation_id=event.invocation_id,
              parts=[MessagePart(type='text', text=text) for text in texts],
          )
      )
      self._turns.append(turn)
      self._turn_of_invocation[event.invocation_id] = turn

  def _add_call(
      self,
      event: Event,
      call: types.FunctionCall,
      agent_calls: frozenset[str],
  ) -> None:
    client = _nested_progress.is_client_call(event, call)
    if call.name in _nested_progress.CONTROL_TOOLS and not client:
      return
    if call.id in agent_calls and not client:
      run = NestedRun(
          run=call.id or '', agent=call.name or '', status='started'
      )
      self._runs[run.run] = run
      self._append(event, MessagePart(type='agent', agent=run))
      return
    full = client or records_of(event).level_of(event, call) == FULL
    card = ToolCard(
        call_id=call.id or '',
        name=call.name or '',
        level='full' if full else 'minimal',
        client=client,
        status='waiting' if client else 'running',
        args=dict(call.args or {}) if full else None,
    )
    self._cards[card.call_id] = card
    self._append(event, MessagePart(type='tool', tool=card))
    self._turn_of_call[card.call_id] = self._turn(event)

  def _add_response(
      self, event: Event, response: types.FunctionResponse
  ) -> None:
    run = self._runs.get(response.id or '')
    if run is not None:
      recorded = records_of(event).nested.get(run.run)
      if recorded is not None:
        _merge_recorded(run, recorded)
      if run.status == 'started':
        run.status = 'finished'
      return
    card = self._cards.get(response.id or '')
    if card is None:
      return
    card.status = 'done'
    if card.level == 'full':
      card.result = response.response

  def _add_internal_work(
      self, event: Event, parts: list[types.Part], run_id: str, agent: str
  ) -> list[types.Part]:
    """Adds an internal agent's tool calls to its run, drawn as its work."""
    internal_runs = self._turn(event).internal_runs
    run = internal_runs.get(run_id)
    if run is None:
      run = NestedRun(run=run_id, agent=agent, status='started')
    kept = _add_work(run, event, parts)
    if run.steps and run_id not in internal_runs:
      internal_runs[run_id] = run
      self._append(event, MessagePart(type='agent', agent=run))
    return kept

  def _finish_internal_runs(self, event: Event) -> None:
    """An internal agent's run has ended once another author speaks."""
    for run in self._turn(event).internal_runs.values():
      if run.agent != event.author and run.status == 'started':
        run.status = 'finished'

  def _end_runs_in_error(self, event: Event) -> None:
    """The runs of agents used as tools still going end in the turn's error.

    An agent that raised gives its call no response: its run, as the client
    saw it, is recorded with the error event instead.
    """
    recorded = records_of(event).nested
    reply = self._turn(event).reply
    for part in reply.parts if reply is not None else ():
      run = part.agent
      if run is None or run.status != 'started' or run.run not in self._runs:
        continue
      if run.run in recorded:
        _merge_recorded(run, recorded[run.run])
      if run.status == 'started':
        run.status = 'error'

  def _enclosing_run(self, event: Event) -> Optional[NestedRun]:
    """The run of the tool call that produced an event, if any."""
    found = tool_call_of_branch(event.branch, self._runs)
    return self._runs[found[0]] if found is not None else None

  def _turn(self, event: Event) -> _Turn:
    """The turn an event of the assistant belongs to, by its invocation.

    An invocation no message started (one resumed by state alone) continues
    the latest turn.
    """
    turn = self._turn_of_invocation.get(event.invocation_id)
    if turn is None:
      if not self._turns:
        self._turns.append(_Turn())
      turn = self._turn_of_invocation[event.invocation_id] = self._turns[-1]
    return turn

  def _append(self, event: Event, part: MessagePart) -> None:
    turn = self._turn(event)
    if turn.reply is None:
      turn.reply = UserMessage(
          id=event.id, role='assistant', invocation_id=event.invocation_id
      )
    turn.reply.parts.append(part)


def _sends_media(parts: list[types.Part]) -> bool:
  """Whether a user event without text holds a file or image the user sent."""
  return any(part.inline_data or part.file_data for part in parts)


def _add_work(
    run: NestedRun, event: Event, parts: list[types.Part]
) -> list[types.Part]:
  """Adds an event of a run on a tool's branch to the run's steps.

  Returns:
    The parts that belong in the message itself: what a user-facing agent
    of the run says, and calls the client answers.
  """
  kept: list[types.Part] = []
  work: list[types.Part] = []
  for part in parts:
    if _nested_progress.is_work(event, part):
      work.append(part)
    elif part.function_call or part.function_response or event.is_user_facing:
      kept.append(part)
  steps = {step.id: step for step in run.steps}
  for shown in _nested_progress.steps_of(event, FULL, work):
    step = steps.get(shown['id'])
    if step is None:
      step = steps[shown['id']] = NestedStep.model_validate(shown)
      run.steps.append(step)
    else:
      for name, value in shown.items():
        setattr(step, name, value)
  if event.error_message or event.error_code:
    run.status = 'error'
    run.error = event.error_message or event.error_code
  return kept


def _merge_recorded(run: NestedRun, record: Mapping[str, Any]) -> None:
  """Takes the steps and outcome recorded with an agent tool's response."""
  try:
    recorded = NestedRun.model_validate({**record, 'run': run.run})
  except ValueError:
    # Stored events are data: an unreadable record adds nothing.
    return
  run.status = recorded.status
  run.error = recorded.error
  run.steps = recorded.steps + [
      step
      for step in run.steps
      if step.id not in {s.id for s in recorded.steps}
  ]
  run.runs = recorded.runs
