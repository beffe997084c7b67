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

"""The end of a turn that gave the user no answer, as the Runner records it.

In filter mode the user is never left without an answer: explicit values can
silence a run, a refiner can end its loop without a word, a workflow's result
can be a value no agent said. An invocation that ends without a user-facing
answer in words then shows one after all, chosen from its events (below).

Only an invocation that *ended* may: a turn cut short (the client went away,
the server died, the database failed, the run raised) has no answer yet, and
an internal agent's words in its place would hand the user a label or a draft
as if it were the reply. Stored events alone cannot tell a turn that ended
after an internal agent from one cut short there, so the Runner records the
end. When an invocation finishes normally, not aborted and with no error
event, and gave the user no answer, it appends one event: internal, without
content or actions, whose ``'turn'`` record names the event that answers the
turn. The user's view shows that event in words where the record stands, live
and on reload (``events/user_view.py``); a turn without the record shows no
answer. Nothing is recorded for a turn that had its answer, so such turns are
stored as before, and a client in annotate mode is not sent the record.

The answer is the first the invocation has of:

1. the latest user-facing event that ended the run without a final response
   in words: a node's output of any type (a function node's ``yield
   headline``, a workflow whose result is a number or a dict), or words
   beside a call (a refiner's last words in the event that ends its loop);
2. the latest internal reply that stands for a user-facing agent's answer
   (``events/_standing_answers.py``);
3. the latest internal reply in words, beside a call or not, or the text
   result of a node set internal explicitly;
4. the latest internal structured output or other data: data is shown only
   when nothing else was said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from typing import Optional
from typing import TYPE_CHECKING

from . import _event_records
from ..workflow._workflow_visibility import says_something
from ._visibility_metadata import VISIBILITY_METADATA_KEY

if TYPE_CHECKING:
  from ..agents.invocation_context import InvocationContext
  from ..sessions.base_session_service import BaseSessionService
  from .event import Event

_USER_AUTHOR: Final = 'user'
_RANKS: Final = 4


async def append_if_unanswered(
    session_service: BaseSessionService,
    invocation_context: InvocationContext,
    *,
    author: str,
) -> list[Event]:
  """Records the end of an invocation that finished without an answer.

  Args:
    session_service: The Runner's session service.
    invocation_context: The invocation, which finished normally.
    author: The root agent's name, which authors the record.

  Returns:
    The appended record, or nothing when the user had an answer, an event of
    the invocation was an error, or no event can answer it.
  """
  session = invocation_context.session
  if session is None:
    return []
  answer = _answer_of(session.events, invocation_context.invocation_id)
  if answer is None:
    return []
  from .event import Event

  record = Event(
      invocation_id=invocation_context.invocation_id,
      author=author,
      branch=invocation_context.branch,
      visibility='internal',
      custom_metadata={
          VISIBILITY_METADATA_KEY: {
              _event_records.TURN: _event_records.turn_record(answer.id)
          }
      },
  )
  return [await session_service.append_event(session=session, event=record)]


def is_record(event: Event) -> bool:
  """Whether an event is the record of a turn's end.

  Annotate mode asks this of every event it sends, so it looks for the entry
  before it reads the event's records.
  """
  metadata = event.custom_metadata
  entries = metadata.get(VISIBILITY_METADATA_KEY) if metadata else None
  if not isinstance(entries, Mapping) or _event_records.TURN not in entries:
    return False
  return _event_records.records_of(event).turn_answer is not None


def _answers_user(event: Event) -> bool:
  """Whether an event gives the user an answer or asks them to act."""
  if event.author == _USER_AUTHOR or event.partial:
    return False
  records = _event_records.records_of(event)
  if not records.user_facing or records.inside_hidden_tool:
    return False
  return _is_answer(event) or bool(event.long_running_tool_ids)


def _is_answer(event: Event) -> bool:
  """Whether an event is a final response that says something to read."""
  if event.partial or event.error_code or not event.is_final_response():
    return False
  return says_something(event)


def _answer_of(events: list[Event], invocation_id: str) -> Optional[Event]:
  """Returns the event that answers an unanswered invocation, if any."""
  candidates: list[Optional[Event]] = [None] * _RANKS
  # The invocation's events are the latest of the session the Runner holds.
  for event in reversed(events):
    if event.invocation_id != invocation_id:
      break
    if event.error_code or _answers_user(event):
      return None
    rank = _rank(event)
    if rank is not None and candidates[rank] is None:
      candidates[rank] = event
  return next((event for event in candidates if event is not None), None)


def _rank(event: Event) -> Optional[int]:
  """Ranks an event as the answer of last resort, 0 preferred, or None."""
  if event.partial or event.author == _USER_AUTHOR:
    return None
  records = _event_records.records_of(event)
  if records.inside_hidden_tool:
    return None
  has_output = event.output is not None and event.output != ''
  if records.user_facing:
    # What the run ended on without a final response in words: a node's
    # output, of any type, or words beside a call (a refiner's last words
    # in the event that ends its loop).
    return 0 if has_output or says_something(event) else None
  if says_something(event):
    if records.stands_for_answer:
      return 1
    if event.output is not None and not event.node_info.message_as_output:
      # Structured output: data another node read.
      return 3
    return 2
  if has_output:
    # The result of a node set internal explicitly: words when it is text.
    return 2 if isinstance(event.output, str) else 3
  return None
