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


"""What the user is meant to see of a conversation.

``user_view`` turns events, live or stored, into the events a client shows the
user: exactly what ``RunConfig(visibility_mode='filter')`` yields, so a client
that reloads a conversation sees what it saw live.

* A user-facing event (``Event.is_user_facing``) is passed on as it is, except
  for tool traffic a tool keeps from the user (see below).
* An internal agent's event becomes a progress event: the same id, author,
  branch, invocation, node and actions, without what the agent said (text,
  thoughts, inline data, code, node output, transcriptions, grounding). Its
  tool calls and responses remain at their tool's level, by default name and
  call id only. A progress event is never a final response
  (``is_final_response()`` is False; one without tool parts is marked
  ``partial``), so a client that shows final responses never shows it, and a
  client that shows progress can say "researcher is working" or "calling
  search_flights" from its author and parts.
* Internal streaming chunks are dropped; the complete event follows them.
* Progress of an agent run as a tool (``RunConfig.nested_progress``, see
  ``tools/_nested_progress.py``) passes as it is: it is already at the level
  the caller asked for.
* An event left with nothing to say (no progress, no actions) is dropped.
* Error events always pass, with their error code and a generic message
  (``events/_client_errors.py``): the message is often an exception's text.
* The user is never left without an answer: an invocation that ended with no
  user-facing answer (a final response with text or media) shows the event
  the Runner recorded as its answer (``events/_turn_end.py``), in words only
  and as a final response, where the record stands: after the invocation's
  other events. A turn that did not end (cut short by a disconnect, a crash
  or an error) has no such record and shows no answer.
* Whatever the records say is read through ``events/_event_records.py``,
  where a missing or damaged record shows less, never more.

Tool traffic is shown at the level its tool has (``BaseTool.visibility``,
``LlmAgent.tool_visibility``): ``'full'``, ``'minimal'`` (name and call id) or
``'hidden'``. Calls the client must act on always pass in full: long-running
and client-executed calls, tool confirmations, credential and input requests.

Filtering happens on the way out of the Runner, after an event has been
persisted: the session keeps every event in full, so the conversation can be
replayed and later agents still read what internal agents produced. A plugin's
``on_event_callback`` runs before the event is appended and shares the object
that is stored, so stripping content there would strip it from history too.
"""

from __future__ import annotations

import json
from typing import Any
from typing import AsyncGenerator
from typing import AsyncIterator
from typing import Final
from typing import Iterable
from typing import Optional
from typing import TYPE_CHECKING

from google.genai import types
from pydantic import BaseModel

from . import _client_errors
from . import _event_records
from . import _state_view
from . import _turn_end
from ..tools._tool_visibility import FULL
from ..tools._tool_visibility import HIDDEN
from ..workflow._workflow_visibility import says_something

if TYPE_CHECKING:
  from ..agents.run_config import RunConfig
  from .event import Event
  from .event_actions import EventActions

ANNOTATE: Final = 'annotate'
FILTER: Final = 'filter'
ALLOWED_VISIBILITY_MODES: Final[tuple[str, ...]] = (ANNOTATE, FILTER)

# What an agent said, as opposed to what it did. Actions, ids, author, branch,
# node info, error fields and usage stay on a progress event.
_PAYLOAD_FIELDS: Final[tuple[str, ...]] = (
    'output',
    'input_transcription',
    'output_transcription',
    'grounding_metadata',
    'citation_metadata',
)


def validate_visibility_mode(value: Any) -> Any:
  """Checks a requested visibility mode.

  Args:
    value: The requested mode.

  Returns:
    The value, unchanged.

  Raises:
    ValueError: If the value is not one of the allowed modes.
  """
  if isinstance(value, str) and value in ALLOWED_VISIBILITY_MODES:
    return value
  raise ValueError(
      f'Invalid visibility_mode {value!r}. Allowed values: '
      + ', '.join(repr(mode) for mode in ALLOWED_VISIBILITY_MODES)
      + '.'
  )


def user_view(
    events: Iterable[Event], *, client_state_keys: Iterable[str] = ()
) -> list[Event]:
  """Returns what the user is meant to see of ``events``.

  This is what a run in filter mode yields, so it gives a client that reloads
  a stored conversation the same events it received live.

  Args:
    events: Events in order, as a run yields them or a session stores them.
      They are not modified.
    client_state_keys: State keys the client may see although internal
      agents write them; an internal agent's ``state_delta`` keeps only
      these (``RunConfig.client_state_keys``).

  Returns:
    User-facing events as they are (a copy where tool traffic is reduced),
    internal agents' events as progress events, and nothing for an internal
    streaming chunk or an event with nothing left to say.

  .. warning::
      This feature is **experimental** and its API or behavior may change in
      future releases.
  """
  view = _UserView(frozenset(client_state_keys))
  shown = []
  for event in events:
    shown.extend(view.add(event))
  shown.extend(view.finish())
  return shown


async def for_caller(
    events: AsyncIterator[Event], run_config: Optional[RunConfig]
) -> AsyncGenerator[Event, None]:
  """Yields what the caller of a run receives of the events it produces.

  Args:
    events: The events the Runner has processed and, unless partial,
      persisted.
    run_config: The run's config; its ``visibility_mode`` decides.

  Yields:
    The events themselves in annotate mode, else their ``user_view``.
  """
  if run_config is None or run_config.visibility_mode != FILTER:
    async for event in events:
      # The record of a turn's end is for the user's view; annotate mode
      # sends what upstream sends.
      if not _turn_end.is_record(event):
        yield event
    return
  view = _UserView(frozenset(run_config.client_state_keys or ()))
  async for event in events:
    for shown in view.add(event):
      yield shown
  for shown in view.finish():
    yield shown


class _UserView:
  """The user's view of a stream of events, one invocation after another.

  An invocation that ended without a user-facing answer in words carries the
  Runner's record of its end, naming the event that answers it; that event is
  shown there, in words only. The same events give the same view live and
  stored, which is why the answer is recorded by the Runner and shown here.
  """

  def __init__(self, client_state_keys: frozenset[str]) -> None:
    self._client_state_keys = client_state_keys
    self._invocation_id: Optional[str] = None
    # The invocation's events, by id, for the one its end record names.
    self._events: dict[str, Event] = {}

  def add(self, event: Event) -> list[Event]:
    """Returns what the user sees for the next event, in order."""
    if event.invocation_id != self._invocation_id:
      self._invocation_id = event.invocation_id
      self._events = {}
    records = _event_records.records_of(event)
    if records.turn_answer is not None:
      answer = self._events.get(records.turn_answer)
      shown = _in_words(answer) if answer is not None else None
      return [shown] if shown is not None else []
    if not event.partial:
      self._events[event.id] = event
    shown = _for_user(event, self._client_state_keys, records)
    return [shown] if shown is not None else []

  def finish(self) -> list[Event]:
    """Ends the stream; nothing is left to show."""
    self._events = {}
    return []


def _in_words(event: Event) -> Optional[Event]:
  """Returns a turn's answer as the user reads it: its words, nothing else.

  Not its state, actions or data: what an internal agent wrote to state
  reaches a client only through ``client_state_keys``. A user-facing node's
  output, which the run ended on, keeps the output beside its words, as
  annotate mode sends it.
  """
  from .event import Event

  parts = (event.content.parts if event.content else None) or ()
  texts = [part.text for part in parts if part.text and not part.thought]
  if not texts and event.output is not None and event.output != '':
    texts = [_output_text(event.output)]
  if not texts:
    return None
  return Event(
      id=event.id,
      invocation_id=event.invocation_id,
      author=event.author,
      branch=event.branch,
      timestamp=event.timestamp,
      content=types.ModelContent(
          parts=[types.Part(text=text) for text in texts]
      ),
      output=event.output if event.is_user_facing else None,
  )


def _output_text(output: Any) -> str:
  """A node's output in words: text as it is, data as JSON."""
  if isinstance(output, str):
    return output
  if isinstance(output, BaseModel):
    return output.model_dump_json()
  try:
    return json.dumps(output, ensure_ascii=False, default=str)
  except (TypeError, ValueError):
    return str(output)


def _for_user(
    event: Event,
    client_state_keys: frozenset[str],
    records: _event_records.EventRecords,
) -> Event | None:
  if records.progress is not None:
    # Already at the level the caller asked for (tools/_nested_progress.py).
    return event
  if event.custom_metadata and (
      _event_records.PROGRESS_METADATA_KEY in event.custom_metadata
  ):
    # A progress update the Runner did not relay: what a caller put there.
    event = event.model_copy(
        update={'custom_metadata': _without_progress(event.custom_metadata)}
    )
  is_error = bool(event.error_code or event.error_message)
  if is_error:
    message = _client_errors.client_error_message(event)
    if message != event.error_message:
      # An exception's text may quote what it worked on; the code still
      # tells errors apart.
      event = event.model_copy(update={'error_message': message})
  user_facing = records.user_facing
  if not user_facing and event.partial and not is_error:
    return None
  if records.inside_hidden_tool and not is_error:
    return None
  actions = event.actions
  # State is an agent's output too: what internal agents wrote stays out,
  # also when a user-facing event carries it for an agent it ran as a tool.
  delta = _state_view.delta_for_client(event, client_state_keys, records)
  if not user_facing and (
      actions.skip_summarization
      or actions.agent_state is not None
      or actions.end_of_agent
  ):
    # Checkpoints are the server's record for resuming an internal agent's
    # run, with its nodes' names; a client resumes nothing.
    actions = actions.model_copy(
        update={
            'state_delta': delta,
            'skip_summarization': None,
            'agent_state': None,
            'end_of_agent': None,
        }
    )
  elif delta is not actions.state_delta:
    actions = actions.model_copy(update={'state_delta': delta})
  parts = (event.content.parts if event.content else None) or []
  kept_parts = _parts_for_user(event, parts, records)
  if user_facing and kept_parts is parts and actions is event.actions:
    if (
        is_error
        or not event.is_final_response()
        or says_something(event)
        or event.long_running_tool_ids
    ):
      return event
    # Nothing to read (a node's output, a route, a checkpoint, a state
    # write, the response of the tool that ended a loop): progress rather
    # than an empty final response. A run that ends on it shows its answer
    # in words when the turn's end is recorded.
    if not parts and event.output is None and not _has_actions(actions):
      return None
    progress: dict[str, Any] = {'partial': True}
    if actions.skip_summarization:
      # It would make the event a final response all the same.
      progress['actions'] = actions.model_copy(
          update={'skip_summarization': None}
      )
    return event.model_copy(update=progress)
  said_something = bool(kept_parts) or (
      not user_facing
      and (
          bool(parts)
          or any(getattr(event, name) is not None for name in _PAYLOAD_FIELDS)
      )
  )
  if not said_something and not is_error and not _has_actions(actions):
    return None
  update: dict[str, Any] = {
      'content': (
          types.Content(role=event.content.role, parts=kept_parts)
          if event.content is not None and kept_parts
          else None
      )
  }
  if not user_facing:
    update.update(dict.fromkeys(_PAYLOAD_FIELDS))
  elif kept_parts is not parts:
    # A node's output beside reduced tool traffic is that tool's result: a
    # task agent's finish_task response carries the task's result there.
    update['output'] = None
  if actions is not event.actions:
    update['actions'] = actions
  if not kept_parts and not is_error:
    # Nothing a client reads as an answer is left; keep the event from being
    # taken for one.
    update['partial'] = True
  return event.model_copy(update=update)


def _parts_for_user(
    event: Event,
    parts: list[types.Part],
    records: _event_records.EventRecords,
) -> list[types.Part]:
  """Returns ``parts`` itself when every part is shown as it is."""
  kept: list[types.Part] = []
  changed = False
  for part in parts:
    call = part.function_call or part.function_response
    if call is None:
      if records.user_facing:
        kept.append(part)
      else:
        changed = True
      continue
    level = records.level_of(event, call)
    if level == FULL:
      kept.append(part)
    elif level == HIDDEN:
      changed = True
    else:
      kept.append(_minimal(part))
      changed = True
  return kept if changed else parts


def _minimal(part: types.Part) -> types.Part:
  if part.function_call is not None:
    call = part.function_call
    return types.Part(
        function_call=types.FunctionCall(id=call.id, name=call.name)
    )
  response = part.function_response
  assert response is not None
  return types.Part(
      function_response=types.FunctionResponse(
          id=response.id, name=response.name
      )
  )


def _without_progress(metadata: dict[str, Any]) -> Optional[dict[str, Any]]:
  kept = {
      key: value
      for key, value in metadata.items()
      if key != _event_records.PROGRESS_METADATA_KEY
  }
  return kept or None


def _has_actions(actions: EventActions) -> bool:
  """Whether ``actions`` carry anything a client may act on."""
  for value in vars(actions).values():
    if value is not None and value != {} and value != []:
      return True
  return False
