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

"""A workflow node's input as a source of ``include_sources``.

The engine sets ``NodeInfo.input_from`` on a node's input event: the path of
the node whose output the input is, None for the outermost workflow's own
input (see ``workflow/_node_input_source.py``). ``include_sources`` names
sources by agent name, so the input counts as a message from the last name
of that path, or from ``'user'`` when it is None.

It also needs to know which message the input repeats, if any: the user's
message, or the producer's reply when that message is its output. An agent
that sees the message anyway is shown the input once. That is found when the
node starts, among the events of the current invocation (the producer's
output event by its path in ``output_for``), and kept on the input event.
The input event is never stored in the session, so neither is the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple
from typing import TYPE_CHECKING

from ..events.event import Event

if TYPE_CHECKING:
  from ..agents.context import Context

USER_SOURCE = 'user'
"""The source of the outermost workflow's own input: what the user sent."""

_METADATA_KEY = 'adk_node_input_copies'


class NodeInputSource(NamedTuple):
  """Who produced a node's input, and which message it copies, if any."""

  source: str
  """``'user'`` or the name of the node that produced the input."""

  copied_event_id: str | None
  """The id of the message the input repeats: the user's message, or the
  producer's reply when its message is its output. None when the input is
  a value no message carries (a function's return value, a join's dict)."""


def is_node_input(event: Event) -> bool:
  """Whether the event is the input a workflow handed to a node."""
  # The author first: this runs for every event of a filtered history.
  if event.author != USER_SOURCE:
    return False
  node_info = getattr(event, 'node_info', None)
  return bool(
      getattr(node_info, 'path', None) and not event.get_function_responses()
  )


def record_copied_message(event: Event | None, ctx: Context) -> None:
  """Records on a node input event the id of the message it repeats.

  Args:
    event: The node input event, already carrying ``node_info.input_from``,
      or None when the node was given no input event.
    ctx: The context of the node the input is for.
  """
  if event is None:
    return
  producer = event.node_info.input_from
  current = _current_events(
      event, ctx.session.events, ctx._invocation_context.invocation_id
  )
  copied = (
      _user_message_id(current)
      if producer is None
      else _output_message_id(current, producer)
  )
  metadata = dict(event.custom_metadata or {})
  metadata[_METADATA_KEY] = {'copied_event_id': copied}
  event.custom_metadata = metadata


def node_input_source(event: Event) -> NodeInputSource | None:
  """Returns the source of a node input event; None when it was not
  recorded (an input event the workflow did not build)."""
  recorded = (event.custom_metadata or {}).get(_METADATA_KEY)
  if not isinstance(recorded, dict):
    return None
  producer = event.node_info.input_from
  return NodeInputSource(
      USER_SOURCE if producer is None else _node_name(producer),
      recorded.get('copied_event_id'),
  )


def _node_name(path: str) -> str:
  """'router@1/classifier@2' -> 'classifier'."""
  return path.rpartition('/')[2].partition('@')[0]


def _current_events(
    event: Event, session_events: Sequence[Event], invocation_id: str
) -> list[Event]:
  """The events of the current invocation before ``event``, newest first."""
  current = []
  for candidate in reversed(session_events):
    if candidate is event:
      continue
    if candidate.invocation_id and candidate.invocation_id != invocation_id:
      break
    current.append(candidate)
  return current


def _output_message_id(current: list[Event], producer: str) -> str | None:
  """The id of the producer's output event when its message is the output."""
  for candidate in current:
    if producer in (candidate.node_info.output_for or ()):
      return candidate.id if candidate.node_info.message_as_output else None
  return None


def _user_message_id(current: list[Event]) -> str | None:
  """The id of the message the user sent in this invocation."""
  for candidate in current:
    if (
        candidate.author == USER_SOURCE
        and not candidate.node_info.path
        and not candidate.get_function_responses()
    ):
      return candidate.id
  return None
