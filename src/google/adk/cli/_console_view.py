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

"""What ``adk run`` shows: each turn as one message, internal work as progress.

In a pipeline only some agents speak to the user (``Event.is_user_facing``);
the others, such as a classifier whose label routes the turn, work for another
agent. ``adk run --internal`` chooses how much of their work reaches the
terminal, in the words of the tool levels (``BaseTool.user_visibility``):

* ``hidden``: the run uses ``RunConfig(visibility_mode='filter')``, and
  nothing is printed for internal events.
* ``minimal`` (the default): the same run, so internal events arrive without
  their text, and each prints as one dim line with the agent's name and its
  tool names, such as ``  classifier (internal): calling search_flights``.
  The run also asks for nested progress (``RunConfig.nested_progress``): an
  agent run as a tool tells, while it works, which tools it calls, and each
  update prints as a dim line attributed to the call, such as
  ``  researcher (working): search ...``.
* ``full``: the run and the output are the same as without the option: every
  agent's text is a chat line, one per event.

With ``hidden`` and ``minimal``, the turn is printed as one message when the
run returns (``google.adk.events.user_messages``): the text the user reads,
one ``[author]: text`` line per text part, then a line per tool card in the
order of the calls (``  [tool] lookup_account: done``, a full card with its
arguments and result, a call the user answers marked ``(waiting for you)``),
and a line per agent run as a tool (``  [agent] researcher: finished (search:
done)``); hidden tools print nothing. The text is printed only there, not as
it arrives, so nothing prints twice, and a resumed session's turns print the
same lines. Only the progress lines are live. ``--jsonl`` prints events as
they come, progress events included.

The diagnostics a Runner logs when it is built go to the log file, which the
user of ``adk run`` rarely reads; ``diagnostics_on_stderr`` also prints each
as one line on stderr.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any
from typing import Final
from typing import Iterator
from typing import Optional
from typing import Sequence
from typing import TypedDict

import click

from ..agents.run_config import RunConfig
from ..diagnostics._run_start import logger as _run_start_logger
from ..events._event_records import progress_of
from ..events.event import Event
from ..events.user_messages import NestedRun
from ..events.user_messages import ToolCard
from ..events.user_messages import user_messages
from ..events.user_messages import UserMessage
from ..events.user_view import user_view

HIDDEN: Final = 'hidden'
MINIMAL: Final = 'minimal'
FULL: Final = 'full'
INTERNAL_CHOICES: Final[tuple[str, ...]] = (HIDDEN, MINIMAL, FULL)

# Actions that record what an agent produced; the others only steer the run.
_STATE_ACTIONS: Final = ('state_delta', 'artifact_delta')
_USER: Final = 'user'
# A full card's arguments or result longer than this is cut, so that a card
# stays one line.
_MAX_VALUE_CHARS: Final = 120


class ViewOption(TypedDict, total=False):
  """The keyword ``view_option`` passes on."""

  internal: str


def view_option(internal: str) -> ViewOption:
  """Returns the ``internal`` keyword to pass on, or none for ``'full'``.

  ``run_input_file`` and ``run_interactively`` show every agent's text when
  not told otherwise, as they did before the option; passing the keyword only
  when it changes something lets code that stands in for them with the older
  signature (a test double, a wrapper) keep working.
  """
  return ViewOption() if internal == FULL else ViewOption(internal=internal)


class ConsoleView:
  """Decides what the console prints of a run's events.

  Feed it each event the run yields (``show``), and call ``end_run`` when the
  run returns: with ``hidden`` and ``minimal`` it then prints the turn as one
  message.

  Attributes:
    internal: One of ``INTERNAL_CHOICES``.
  """

  def __init__(self, internal: str = FULL):
    if internal not in INTERNAL_CHOICES:
      raise ValueError(
          f'Invalid internal {internal!r}. Allowed values: '
          + ', '.join(INTERNAL_CHOICES)
          + '.'
      )
    self.internal = internal
    self._last_line: Optional[tuple[str, str]] = None
    # The events of the message not printed yet.
    self._pending: list[Event] = []
    # How deep each nested run of the current message sits, by run id.
    self._depths: dict[str, int] = {}
    # Whether the events come from a saved session file.
    self._restored = False

  @property
  def run_config(self) -> Optional[RunConfig]:
    """The run config the Runner runs with; None leaves the default."""
    if self.internal == FULL:
      return None
    if self.internal == MINIMAL:
      return RunConfig(visibility_mode='filter', nested_progress=MINIMAL)
    return RunConfig(visibility_mode='filter')

  def stored(self, events: Sequence[Event]) -> list[Event]:
    """Returns the events of a saved session as a live run showed them.

    A saved session file leaves out ADK's internal metadata, where a run
    records which tool calls the user may see and which of them ran an agent.
    The messages of this view then show the text and the calls the user
    answers, and no other tool card, rather than every call in full.

    Args:
      events: The events of a session read from a file.
    """
    if self.internal == FULL:
      return list(events)
    self._restored = True
    return user_view(events)

  def show(self, event: Event, *, jsonl: bool = False) -> bool:
    """Prints an event the way this view shows it, or keeps it for later.

    Args:
      event: An event the run yielded (or ``stored`` returned).
      jsonl: Whether the console prints JSON lines.

    Returns:
      True when the event has been dealt with here, False when the caller
      prints it as usual: every event in ``full``, a message the user typed,
      and in JSON lines every event but internal ones in ``hidden``.
    """
    if self.internal == FULL:
      self._last_line = None
      return False
    if jsonl:
      return self.internal == HIDDEN and not event.is_user_facing
    if event.author == _USER:
      if _typed_text(event):
        # A message the user typed starts a turn: the previous one is done.
        self.end_run()
        return False
      # An answer to a call continues the turn.
      self._pending.append(event)
      return True
    update = progress_of(event)
    if update is not None:
      if self.internal == MINIMAL:
        self._show_progress(update)
      return True
    if event.is_user_facing or event.long_running_tool_ids:
      self._last_line = None
      self._pending.append(event)
      return True
    if self.internal == MINIMAL:
      self._pending.append(event)
      self._show_internal(event)
    return True

  def end_run(self) -> None:
    """Prints the message of the events shown since the last call."""
    events, self._pending = self._pending, []
    self._depths.clear()
    self._last_line = None
    if not events:
      return
    authors = {e.id: e.author for e in events}
    text_authors = {
        part.text: e.author
        for e in reversed(events)
        for part in (e.content.parts if e.content else None) or ()
        if part.text and not part.thought
    }
    for message in user_messages(events):
      if message.role == _USER:
        continue
      if self._restored:
        message.parts = [
            part
            for part in message.parts
            if part.type in ('text', 'error')
            or (part.tool and part.tool.client)
        ]
        if not message.parts:
          continue
      author = authors.get(message.id, message.role)
      for line in _message_lines(message, author, text_authors):
        click.echo(line)

  def _show_internal(self, event: Event) -> None:
    """Prints the one dim line of an internal agent's event."""
    line = _progress_line(event)
    # Consecutive events that read the same, such as an agent's reply and a
    # separate state update, print one line.
    key = (event.invocation_id, line) if line else None
    if key is not None and key != self._last_line:
      click.secho(line, dim=True)
      self._last_line = key

  def _show_progress(self, update: dict[str, Any]) -> None:
    """Prints an update of an agent run as a tool, attributed to its call."""
    parent = update.get('parent_run')
    depth = self._depths.get(parent, -1) + 1 if parent else 0
    self._depths[str(update.get('run'))] = depth
    line = _update_line(update)
    if line:
      self._last_line = None
      click.secho('  ' * (depth + 1) + line, dim=True)


def _typed_text(event: Event) -> bool:
  parts = (event.content.parts if event.content else None) or ()
  return any(part.text and not part.thought for part in parts)


def _update_line(update: dict[str, Any]) -> str:
  """The line of one nested progress update, or '' when it adds nothing."""
  name = update.get('tool') or update.get('agent') or 'agent'
  status = update.get('status')
  if status == 'started':
    return f'{name}: started'
  if status == 'working':
    author = update.get('author')
    # The agent the tool runs starts working when it starts; only a
    # sub-agent taking over is news.
    if not author or author == update.get('agent'):
      return ''
    return f'{name} (working): {author}'
  if status == 'step':
    step = update.get('step')
    if not isinstance(step, dict):
      return ''
    call = _call_text(str(step.get('name')), step.get('args'))
    if step.get('status') == 'done':
      return f'{name} (working): {call} done' + _result_text(step.get('result'))
    return f'{name} (working): {call} ...'
  if status == 'error':
    return f'{name}: error: {update.get("error")}'
  if status == 'finished':
    return f'{name}: finished'
  return ''


def _message_lines(
    message: UserMessage, author: str, text_authors: dict[str, str]
) -> list[str]:
  """The lines of an assistant message: its text, then its cards in order.

  Args:
    message: The message.
    author: The author of the message's first event, for a message without
      text.
    text_authors: Who said each text, from the events of the message.
  """
  lines = [
      f'[{text_authors.get(part.text, author)}]: {part.text}'
      for part in message.parts
      if part.type == 'text' and part.text
  ]
  if not lines:
    lines.append(f'[{author}]:')
  for part in message.parts:
    if part.tool is not None:
      lines.append(f'  [tool] {_card_text(part.tool)}')
    elif part.agent is not None:
      lines.append(f'  [agent] {_run_text(part.agent)}')
    elif part.type == 'error':
      lines.append(f'  [error] {part.text}')
  return lines


def _card_text(card: ToolCard) -> str:
  call = _call_text(card.name, card.args)
  if card.status == 'waiting':
    return f'{call} (waiting for you)'
  return f'{call}: {card.status}' + _result_text(card.result)


def _run_text(run: NestedRun) -> str:
  """An agent run as a tool: who, its outcome and its steps, in one line."""
  text = f'{run.agent}: {run.status}'
  if run.error:
    text += f': {run.error}'
  inner_runs = {inner.run: inner for inner in run.runs}
  # A step that ran an agent in turn shows as that agent's run.
  work = [
      _run_text(inner_runs.pop(step.id))
      if step.id in inner_runs
      else f'{step.name}: {step.status}'
      for step in run.steps
  ]
  work += [_run_text(inner) for inner in inner_runs.values()]
  if work:
    text += f' ({", ".join(work)})'
  return text


def _call_text(name: str, args: Optional[dict[str, Any]]) -> str:
  """A call as ``name`` or, with its arguments (full), ``name(k=v, ...)``."""
  if args is None:
    return name
  shown = ', '.join(f'{key}={_compact(value)}' for key, value in args.items())
  return f'{name}({_cut(shown)})'


def _result_text(result: Any) -> str:
  return '' if result is None else f' -> {_cut(_compact(result))}'


def _compact(value: Any) -> str:
  return json.dumps(value, ensure_ascii=False, default=str)


def _cut(text: str) -> str:
  if len(text) <= _MAX_VALUE_CHARS:
    return text
  return text[: _MAX_VALUE_CHARS - 3] + '...'


def _progress_line(event: Event) -> str:
  """The one line an internal event prints, or '' when it has nothing."""
  steps = []
  for part in (event.content.parts if event.content else None) or []:
    if part.function_call:
      steps.append(f'calling {part.function_call.name}')
    elif part.function_response:
      steps.append(f'{part.function_response.name} answered')
  if event.error_code or event.error_message:
    steps.append(f'error: {event.error_message or event.error_code}')
  if not steps and _said_or_stored_something(event):
    steps.append('working')
  if not steps:
    return ''
  return f'  {event.author} (internal): {", ".join(steps)}'


def _said_or_stored_something(event: Event) -> bool:
  """Whether a progress event stands for text or state, not only steering.

  A progress event without tool parts keeps only its actions. If it has none,
  the agent's text was removed; if it writes state or artifacts, the agent
  produced something. A route, a transfer or an escalation alone is not a
  step the user needs to see.
  """
  actions = {name for name, value in vars(event.actions).items() if value}
  return not actions or not actions.isdisjoint(_STATE_ACTIONS)


class _DiagnosticEcho(logging.Handler):
  """Prints each run-start diagnostic as one line on stderr, with its fix."""

  def emit(self, record: logging.LogRecord) -> None:
    diagnostic = getattr(record, 'adk_diagnostic', None)
    if diagnostic is None:
      return
    severity = diagnostic.severity.value
    click.secho(
        f'{severity} {diagnostic.code} [{diagnostic.agent}]'
        f' {diagnostic.message} Fix: {diagnostic.hint}',
        fg=None if severity == 'info' else 'yellow',
        dim=severity == 'info',
        err=True,
    )


@contextlib.contextmanager
def diagnostics_on_stderr() -> Iterator[None]:
  """Also prints the diagnostics Runners log when built, while active."""
  handler = _DiagnosticEcho()
  _run_start_logger.addHandler(handler)
  try:
    yield
  finally:
    _run_start_logger.removeHandler(handler)
