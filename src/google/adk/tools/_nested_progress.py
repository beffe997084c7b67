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

"""Live progress of the agents a tool runs in a Runner of its own.

``AgentTool`` runs its agent in a nested Runner, on an in-memory session it
discards when the call returns, and hands its caller only the agent's state
and last reply: for seconds or minutes the caller's client sees a call and
nothing else. A run whose caller asks for it (``RunConfig.nested_progress``)
receives that work live, as progress events attributed to the call that
started it: which agent is working, and each tool it calls, at that tool's
level.

A progress event is partial and has no content: the Runner neither stores it
nor puts it in a model's request, passes it on without the processing the
app's events get (plugins do not see it), and a client that does not know it
shows nothing. Its ``custom_metadata['adk_progress']`` holds one update of the
nested run; an ADK-internal mark beside it says the Runner relayed it, so a
caller that puts ``adk_progress`` on its own events makes no progress event
of them (``events/_event_records.py``). The update:

* ``run``: the nested run's id, which is the id of the function call that
  started it; ``parent_run``: the nested run it runs in, for an agent tool
  called by an agent that itself runs as a tool, else absent;
* ``tool`` and ``agent``: the tool's name and the name of the agent it runs;
* ``status``: ``'started'``, ``'working'`` (another agent of the nested run,
  ``author``, took over), ``'step'``, ``'finished'`` or ``'error'`` (with
  ``error``);
* for a step, ``step``: the nested call's ``id``, ``name`` and ``status``
  (``'running'``, then ``'done'``), and at level ``'full'`` its ``args`` and
  ``result``.

How much is sent is the lower of the caller's ``RunConfig.nested_progress``
and the agent tool's own level (``BaseTool.user_visibility``,
``LlmAgent.tool_visibility``; ``'minimal'`` by default): a ``'hidden'`` agent
tool sends nothing, and each nested call is capped again by its own tool's
level in the nested run. The agent's text is never sent: it reaches the
caller as the tool's result.

When the call returns, the run as the client saw it (the agent, its outcome,
its steps and the runs nested in it) is stored with the caller's function
response, in its visibility entry, so a reload draws the same ``'agent'``
part (``google.adk.events.user_messages``). A run that raised has no
response: its record goes with the error event the caller's run ends with.
Nothing is recorded for a caller that did not ask.

Under every parent: a ``Workflow`` or a root ``LlmAgent`` reads all of an
invocation's events from its event queue, where the progress goes too; under
a ``SequentialAgent``, ``LoopAgent`` or ``ParallelAgent`` the Runner reads
the agents' events from a generator that waits while a tool runs, so
``with_progress`` drives that generator in a task of its own and yields the
progress as it arrives, in order with the events; when the generator raises
after a run ended in error, it yields first the error event a ``Workflow``
records for a raising node, so the run is stored as it ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from collections.abc import Iterable
import logging
from typing import Any
from typing import Final
from typing import Optional
from typing import TYPE_CHECKING

from google.genai import types
import pydantic_core

from . import _tool_visibility
from ..events import _client_errors
from ..events import _event_records
from ..events import _visibility_metadata
from ..utils._function_call_names import CLIENT_FUNCTION_CALL_NAMES
from ..utils.context_utils import Aclosing
from ._tool_visibility import FULL
from ._tool_visibility import HIDDEN

if TYPE_CHECKING:
  from ..agents.invocation_context import InvocationContext
  from ..events.event import Event
  from .tool_context import ToolContext

logger = logging.getLogger('google_adk.' + __name__)

PROGRESS_METADATA_KEY: Final = _event_records.PROGRESS_METADATA_KEY
"""The ``custom_metadata`` key of a progress event's update. Not an internal
key: the client reads it."""

_RECORDS_METADATA_KEY: Final = '_adk_nested_run_records'
_QUEUE_METADATA_KEY: Final = '_adk_nested_progress_queue'

_USER_AUTHOR: Final = 'user'
CONTROL_TOOLS: Final = frozenset({
    'transfer_to_agent',
    'exit_loop',
    'set_model_response',
    'finish_task',
})
"""Tools through which a model steers the framework rather than acts for the
user: what they do shows as who speaks next, or as the answer."""
STARTED: Final = 'started'
WORKING: Final = 'working'
STEP: Final = 'step'
FINISHED: Final = 'finished'
ERROR: Final = 'error'
RUNNING: Final = 'running'
DONE: Final = 'done'


def validate_nested_progress(value: Any) -> Any:
  """Checks ``RunConfig.nested_progress``.

  Args:
    value: The requested level.

  Returns:
    The value, unchanged.

  Raises:
    ValueError: If the value is not one of the levels.
  """
  if (
      isinstance(value, str)
      and value in _tool_visibility.ALLOWED_TOOL_VISIBILITIES
  ):
    return value
  raise ValueError(
      f'Invalid RunConfig.nested_progress {value!r}. Allowed values: '
      + ', '.join(repr(v) for v in _tool_visibility.ALLOWED_TOOL_VISIBILITIES)
      + '.'
  )


def validate_assigned_nested_progress(value: Any) -> Any:
  """Checks a value assigned to ``RunConfig.nested_progress``.

  Args:
    value: The assigned level.

  Returns:
    The value, unchanged.

  Raises:
    pydantic.ValidationError: If the value is not one of the levels, as
      constructing a ``RunConfig`` with it raises.
  """
  try:
    return validate_nested_progress(value)
  except ValueError as error:
    raise pydantic_core.ValidationError.from_exception_data(
        'RunConfig',
        [{
            'type': 'value_error',
            'loc': ('nested_progress',),
            'input': value,
            'ctx': {'error': error},
        }],
    ) from None


def bind_to_invocation(invocation_context: InvocationContext) -> None:
  """Prepares an invocation whose caller asked for nested progress.

  The records are shared by every copy the runtime makes of the invocation
  context, so a tool's record reaches the Runner that stamps the response.

  Args:
    invocation_context: A new invocation context created by the Runner.
  """
  if _requested_level(invocation_context) != HIDDEN:
    invocation_context._private_metadata[_RECORDS_METADATA_KEY] = {}


def stamp_event(event: Event, invocation_context: InvocationContext) -> None:
  """Stores with a function response the nested runs its calls made.

  A run that ended in error without a response (its agent raised) is stored
  with the next error event instead, the one the caller's run ends with.

  Args:
    event: The event, before plugins see it and before it is persisted.
    invocation_context: The invocation the event belongs to.
  """
  records = invocation_context._private_metadata.get(_RECORDS_METADATA_KEY)
  if not records or event.partial:
    return
  found = {
      response.id: records.pop(response.id)
      for response in event.get_function_responses()
      if response.id in records
  }
  if event.error_code or event.error_message:
    for run_id in [
        r for r, run in records.items() if run.get('status') == ERROR
    ]:
      found[run_id] = records.pop(run_id)
  if found:
    event.custom_metadata = _visibility_metadata.with_entries(
        event.custom_metadata, **{_event_records.NESTED: found}
    )


progress_of = _event_records.progress_of


async def relay(
    tool_context: ToolContext,
    agent_name: str,
    events: AsyncGenerator[Event, None],
) -> AsyncGenerator[Event, None]:
  """Yields an agent tool's nested events, telling its client of the work.

  Args:
    tool_context: The agent tool's context.
    agent_name: The name of the agent the tool runs.
    events: The nested Runner's events.

  Yields:
    The nested events, unchanged.
  """
  run = start(tool_context, agent_name)
  if run is None:
    async with Aclosing(events) as nested:
      async for event in nested:
        yield event
    return
  await run.started()
  error: Optional[str] = None
  try:
    async with Aclosing(events) as nested:
      async for event in nested:
        await run.forward(event)
        # The agent's work is shown, never its words: an error's message may
        # quote what it worked on, so the client is told its code.
        error = event.error_code or (
            _client_errors.ERROR_EVENT_MESSAGE if event.error_message else None
        )
        yield event
  except Exception:
    await run.finished(error=_client_errors.ERROR_EVENT_MESSAGE)
    raise
  await run.finished(error=error)


def is_client_call(event: Event, call: Any) -> bool:
  """Whether the client answers a call (or gave a response to one)."""
  return call.name in CLIENT_FUNCTION_CALL_NAMES or (
      call.id in (event.long_running_tool_ids or ())
  )


def is_work(event: Event, part: types.Part) -> bool:
  """Whether a part is a tool call or response of an agent's own work.

  Not a call the client answers, which stays where the client answers it,
  and not one of the tools through which a model steers the framework.
  """
  call = part.function_call or part.function_response
  return (
      call is not None
      and call.name not in CONTROL_TOOLS
      and not is_client_call(event, call)
  )


def internal_run_of(event: Event) -> Optional[tuple[str, str]]:
  """Returns ``(run id, agent)`` of an internal agent's event, else None.

  An internal agent works for the agents after it; a client shows its work
  (its tool calls at their level, never its text) as a sub-agent's run. The
  run is the agent's node run (``node_info.path``; the agent's name where
  the runtime records none) within its invocation: a node path repeats from
  one invocation to the next.
  """
  if (
      event.is_user_facing
      or event.author == _USER_AUTHOR
      or _event_records.progress_of(event) is not None
  ):
    return None
  path = event.node_info.path if event.node_info else ''
  return f'{event.invocation_id}/{path or event.author}', event.author


def steps_of(
    event: Event,
    level: str,
    parts: Optional[Iterable[types.Part]] = None,
) -> list[dict[str, Any]]:
  """Returns the tool steps an event of a nested run shows at ``level``.

  One step per call or response part (of ``parts``, by default the event's):
  its ``id``, ``name`` and ``status`` (``'running'`` for a call, ``'done'``
  for a response), and at ``'full'`` its ``args`` or ``result``. Each is
  capped again by its own tool's level; a hidden one is left out.

  Args:
    event: An event of the nested run.
    level: The most the client may see of the run.
    parts: The parts to read, when not all of the event's.
  """
  if parts is None:
    parts = (event.content.parts if event.content else None) or ()
  records = _event_records.records_of(event)
  steps: list[dict[str, Any]] = []
  for part in parts:
    call = part.function_call or part.function_response
    if call is None or not call.id or not call.name:
      continue
    shown_at = _tool_visibility.stricter(level, records.level_of(event, call))
    if shown_at == HIDDEN:
      continue
    step: dict[str, Any] = {'id': call.id, 'name': call.name}
    response = part.function_response
    if response is None:
      step['status'] = RUNNING
      if shown_at == FULL and part.function_call is not None:
        step['args'] = dict(part.function_call.args or {})
    else:
      step['status'] = DONE
      if shown_at == FULL:
        step['result'] = response.response
    steps.append(step)
  return steps


def with_progress(
    invocation_context: InvocationContext,
    events: AsyncGenerator[Event, None],
) -> AsyncGenerator[Event, None]:
  """Yields a legacy agent's events and, as it arrives, its tools' progress.

  A ``SequentialAgent``, ``LoopAgent`` or ``ParallelAgent`` hands the Runner
  its events from a generator that is suspended while a tool runs, so the
  progress an agent tool sends meanwhile has no way out. When the caller
  asked for it, the generator runs in a task of its own (one task, so its
  context variables hold across its steps) and the progress goes to a queue
  beside its events: each event is yielded in order, and the generator
  resumes only once the caller asks for the next, as when read directly.
  Otherwise, or when the invocation has an event queue, the events pass as
  they are.

  Args:
    invocation_context: The invocation the agent runs in.
    events: The agent's events.

  Returns:
    The agent's events, with its tools' progress among them when asked for.
  """
  if (
      _requested_level(invocation_context) == HIDDEN
      or invocation_context._event_queue is not None
  ):
    # Nothing to relay: the events themselves, with no generator between.
    return events
  return _with_progress_queue(invocation_context, events)


async def _with_progress_queue(
    invocation_context: InvocationContext,
    events: AsyncGenerator[Event, None],
) -> AsyncGenerator[Event, None]:
  """Runs ``events`` in a task of its own, progress beside its events."""
  queue: asyncio.Queue[tuple[Any, Optional[asyncio.Future[bool]]]] = (
      asyncio.Queue()
  )
  invocation_context._private_metadata[_QUEUE_METADATA_KEY] = queue
  producer = asyncio.create_task(_produce(events, queue))
  resume: Optional[asyncio.Future[bool]] = None
  try:
    while True:
      item, resume = await queue.get()
      if item is _END:
        return
      if isinstance(item, _Raised):
        failed = _failed_run_event(invocation_context, item.error)
        if failed is not None:
          yield failed
        raise item.error
      yield item
      if resume is not None:
        resume.set_result(True)
        resume = None
  finally:
    invocation_context._private_metadata.pop(_QUEUE_METADATA_KEY, None)
    if resume is not None and not resume.done():
      # Closed early: the generator is closed in its own task.
      resume.set_result(False)
    elif not producer.done():
      producer.cancel()
    try:
      await producer
    except asyncio.CancelledError:
      pass


def _failed_run_event(
    invocation_context: InvocationContext, error: BaseException
) -> Optional[Event]:
  """The error event a legacy agent's run ends with when a run it relayed
  ended in error, so that the run is stored as it ended.

  A ``Workflow`` or a root ``LlmAgent`` records a raising node as an error
  event, which carries the run's record (``stamp_event``); a legacy agent's
  generator raises with no event, and the record would be lost. Its message
  is the generic sentence: the exception's text stays in the server's log.
  """
  from ..events.event import Event

  records = invocation_context._private_metadata.get(_RECORDS_METADATA_KEY)
  agent = invocation_context.agent
  if agent is None or not records:
    return None
  if all(run.get('status') != ERROR for run in records.values()):
    return None
  status = getattr(error, 'status', None)
  return Event(
      invocation_id=invocation_context.invocation_id,
      author=agent.name,
      branch=invocation_context.branch,
      error_code=status if isinstance(status, str) else type(error).__name__,
      error_message=_client_errors.ERROR_EVENT_MESSAGE,
  )


_END: Final = object()


class _Raised:
  """What a legacy agent's generator raised, for the task reading it."""

  def __init__(self, error: BaseException) -> None:
    self.error = error


async def _produce(
    events: AsyncGenerator[Event, None],
    queue: asyncio.Queue[tuple[Any, Optional[asyncio.Future[bool]]]],
) -> None:
  """Reads ``events`` into ``queue``, each one waiting to be let go on."""
  loop = asyncio.get_running_loop()
  try:
    async with Aclosing(events) as agen:
      async for event in agen:
        resume: asyncio.Future[bool] = loop.create_future()
        queue.put_nowait((event, resume))
        if not await resume:
          return
  except asyncio.CancelledError:
    raise
  except BaseException as error:  # pylint: disable=broad-exception-caught
    # Raised where the Runner reads the events, as when it reads them itself.
    queue.put_nowait((_Raised(error), None))
    return
  queue.put_nowait((_END, None))


def start(tool_context: ToolContext, agent_name: str) -> Optional[NestedRun]:
  """Starts relaying an agent tool's run, or returns None when none is asked.

  Args:
    tool_context: The agent tool's context.
    agent_name: The name of the agent the tool runs.
  """
  invocation_context = tool_context._invocation_context
  requested = _requested_level(invocation_context)
  if requested == HIDDEN or (
      invocation_context._event_queue is None
      and _QUEUE_METADATA_KEY not in invocation_context._private_metadata
  ):
    return None
  caller_loop = getattr(
      getattr(invocation_context, '_abort_state', None), 'loop', None
  )
  if caller_loop is not None and caller_loop is not asyncio.get_running_loop():
    # The tool runs in another event loop (RunConfig's tool thread pool),
    # where the caller's queue cannot be awaited.
    return None
  call_id = tool_context.function_call_id
  if not call_id:
    return None
  tool_level = _tool_visibility.level_of_tool(
      invocation_context, tool_context.agent_name, agent_name
  )
  level = _tool_visibility.stricter(requested, tool_level)
  if level == HIDDEN:
    return None
  return NestedRun(
      invocation_context,
      run_id=call_id,
      tool=agent_name,
      agent=agent_name,
      level=level,
  )


class NestedRun:
  """The progress of one agent tool's call, sent live and recorded."""

  def __init__(
      self,
      invocation_context: InvocationContext,
      *,
      run_id: str,
      tool: str,
      agent: str,
      level: str,
  ) -> None:
    self._invocation_context = invocation_context
    self._level = level
    # 'started' already names the agent the tool runs; 'working' says when
    # another agent of its run takes over.
    self._author: Optional[str] = agent
    self._steps: dict[str, dict[str, Any]] = {}
    self._runs: dict[str, dict[str, Any]] = {}
    self._about = {'run': run_id, 'tool': tool, 'agent': agent}
    self.record: dict[str, Any] = {
        **self._about,
        'status': STARTED,
        'steps': [],
        'runs': [],
    }

  async def started(self) -> None:
    """Tells the client the agent started working."""
    await self._send({'status': STARTED})

  async def forward(self, event: Event) -> None:
    """Tells the client what an event of the nested run shows of its work."""
    inner = _event_records.progress_of(event)
    if inner is not None:
      await self._forward_inner(inner, event.author)
      return
    if event.partial:
      return
    if event.author != self._author and event.author != _USER_AUTHOR:
      self._author = event.author
      await self._send({'status': WORKING, 'author': event.author})
    for shown in steps_of(event, self._level):
      step = self._steps.get(shown['id'])
      if step is None:
        step = self._steps[shown['id']] = shown
        self.record['steps'].append(step)
      else:
        step.update(shown)
      await self._send(
          {'status': STEP, 'author': event.author, 'step': dict(step)}
      )

  async def finished(self, error: Optional[str] = None) -> None:
    """Tells the client the run ended, and records it for the response."""
    self.record['status'] = ERROR if error else FINISHED
    update: dict[str, Any] = {'status': self.record['status']}
    if error:
      self.record['error'] = update['error'] = error
    await self._send(update)
    records = self._invocation_context._private_metadata.get(
        _RECORDS_METADATA_KEY
    )
    if isinstance(records, dict):
      records[self._about['run']] = self.record

  async def _forward_inner(self, inner: dict[str, Any], author: str) -> None:
    """Passes on the progress of a run nested in this one."""
    inner = dict(inner)
    inner.setdefault('parent_run', self._about['run'])
    if inner['parent_run'] == self._about['run']:
      child = self._runs.get(inner.get('run', ''))
      if child is None:
        child = {key: inner.get(key) for key in ('run', 'tool', 'agent')} | {
            'steps': [],
            'runs': [],
        }
        self._runs[child['run']] = child
        self.record['runs'].append(child)
      if inner.get('status') in (STARTED, FINISHED, ERROR):
        child['status'] = inner['status']
      step = inner.get('step')
      if isinstance(step, dict):
        steps = {s['id']: s for s in child['steps']}
        if step.get('id') in steps:
          steps[step['id']].update(step)
        else:
          child['steps'].append(dict(step))
    await self._enqueue(author, inner)

  async def _send(self, update: dict[str, Any]) -> None:
    await self._enqueue(
        update.get('author') or self._about['agent'],
        {**self._about, **update},
    )

  async def _enqueue(self, author: str, update: dict[str, Any]) -> None:
    from ..events.event import Event

    event = Event(
        invocation_id=self._invocation_context.invocation_id,
        author=author,
        branch=self._invocation_context.branch,
        partial=True,
        visibility='internal',
        custom_metadata=_event_records.progress_metadata(update),
    )
    if self._invocation_context._event_queue is not None:
      await self._invocation_context._enqueue_event(event)
      return
    # Under a legacy agent: the queue ``with_progress`` reads, while it does.
    queue = self._invocation_context._private_metadata.get(_QUEUE_METADATA_KEY)
    if queue is not None:
      queue.put_nowait((event, None))


def _requested_level(invocation_context: InvocationContext) -> str:
  run_config = invocation_context.run_config
  level = getattr(run_config, 'nested_progress', HIDDEN)
  return (
      level if level in _tool_visibility.ALLOWED_TOOL_VISIBILITIES else HIDDEN
  )
