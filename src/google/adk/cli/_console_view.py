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

"""What ``adk run`` shows of internal agents, and the run-start diagnostics.

In a pipeline only some agents speak to the user (``Event.is_user_facing``);
the others, such as a classifier whose label routes the turn, work for another
agent. ``adk run --internal`` chooses how much of their work reaches the
terminal, in the words of the tool levels (``BaseTool.user_visibility``):

* ``hidden``: the run uses ``RunConfig(visibility_mode='filter')``, and
  nothing is printed for internal events.
* ``minimal`` (the default): the same run, so internal events arrive without
  their text, and each prints as one dim line with the agent's name and its
  tool names, such as ``  classifier (internal): calling search_flights``.
* ``full``: the run and the output are the same as without the option: every
  agent's text is a chat line.

The diagnostics a Runner logs when it is built go to the log file, which the
user of ``adk run`` rarely reads; ``diagnostics_on_stderr`` also prints each
as one line on stderr.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Final
from typing import Iterator
from typing import Optional
from typing import Sequence
from typing import TypedDict

import click

from ..agents.run_config import RunConfig
from ..diagnostics._run_start import logger as _run_start_logger
from ..events.event import Event
from ..events.user_view import user_view

HIDDEN: Final = 'hidden'
MINIMAL: Final = 'minimal'
FULL: Final = 'full'
INTERNAL_CHOICES: Final[tuple[str, ...]] = (HIDDEN, MINIMAL, FULL)

# Actions that record what an agent produced; the others only steer the run.
_STATE_ACTIONS: Final = ('state_delta', 'artifact_delta')


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
  """Decides what the console prints of internal agents' events.

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

  @property
  def run_config(self) -> Optional[RunConfig]:
    """The run config the Runner runs with; None leaves the default."""
    if self.internal == FULL:
      return None
    return RunConfig(visibility_mode='filter')

  def stored(self, events: Sequence[Event]) -> list[Event]:
    """Returns the events of a stored session as a live run showed them."""
    if self.internal == FULL:
      return list(events)
    return user_view(events)

  def show_internal(self, event: Event, *, jsonl: bool = False) -> bool:
    """Prints an internal agent's event the way this view shows it.

    Args:
      event: An event the run yielded (or ``stored`` returned).
      jsonl: Whether the console prints JSON lines.

    Returns:
      True when the event has been dealt with here, False when the caller
      prints it as usual: every event in ``full``, user-facing events, and
      internal ones in JSON lines in ``minimal``.
    """
    if self.internal == FULL or event.is_user_facing:
      self._last_line = None
      return False
    if self.internal == HIDDEN:
      return True
    if jsonl:
      return False
    line = _progress_line(event)
    # Consecutive events that read the same, such as an agent's reply and a
    # separate state update, print one line.
    key = (event.invocation_id, line) if line else None
    if key is not None and key != self._last_line:
      click.secho(line, dim=True)
      self._last_line = key
    return True


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
  """Prints each run-start diagnostic as one short line on stderr."""

  def emit(self, record: logging.LogRecord) -> None:
    diagnostic = getattr(record, 'adk_diagnostic', None)
    if diagnostic is None:
      return
    severity = diagnostic.severity.value
    click.secho(
        f'{severity} {diagnostic.code} [{diagnostic.agent}]'
        f' {diagnostic.message}',
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
