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

"""Where a workflow node's input came from.

A ``single_turn`` LlmAgent node receives its input as a user-authored event
stamped with the node's path. The event says nothing about who produced the
input: the user (the root workflow's ``START``), a predecessor node, or the
code that called ``ctx.run_node``. ``include_sources`` decides whose messages
an agent sees, so it needs to know; without it the label a classifier hands
to a booker would pass as something the user typed.

The source is found through the signals the workflow already records on the
events of the current invocation: a node's output event carries the node's
path in ``node_info.output_for``, and either the output value (``output``) or,
with ``node_info.message_as_output``, its message as the value. The input is
attributed to:

1. the node, among the children of the same parent, whose latest output
   before the input renders to the same content: the predecessor that
   triggered it. When that output is a message, the input is a copy of it;
2. otherwise, one level up, the node whose output the parent received as its
   own input, since a workflow's ``START`` and a function that passes its
   input to ``ctx.run_node`` hand it on unchanged;
3. at the root, the user when the input is the message the user sent;
4. otherwise the node that ran this one (a function node that computed the
   input before calling ``ctx.run_node``), or the user when that is the root
   workflow itself.

Comparing content rather than trusting the order of events keeps a parallel
branch that finished in between from being taken for the predecessor.

The source is recorded on the input event when the node starts, while the
whole session is at hand, so building each model request only reads it. The
input event is never stored in the session, so neither is the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from google.genai import types

from ..events.event import Event
from ..utils.content_utils import to_user_content

USER_SOURCE = 'user'
"""The source of input that the user typed (the root workflow's ``START``)."""

_METADATA_KEY = 'adk_node_input_source'


class NodeInputSource(NamedTuple):
  """Who produced a node's input, and which message it copies, if any."""

  source: str
  """``'user'`` or the name of the node that produced the input."""

  copied_event_id: str | None
  """The id of the message the input repeats: the user's message, or the
  predecessor's reply when its message is its output. None when the input is
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


def record_node_input_source(
    event: Event, session_events: Sequence[Event], invocation_id: str
) -> None:
  """Finds where a node input came from and records it on the input event.

  Args:
    event: The node input event, already carrying the node's path.
    session_events: The session's events; the input event may be among them.
    invocation_id: The invocation the node runs in.
  """
  found = _find_source(event, session_events, invocation_id)
  metadata = dict(event.custom_metadata or {})
  metadata[_METADATA_KEY] = found._asdict()
  event.custom_metadata = metadata


def node_input_source(event: Event) -> NodeInputSource | None:
  """Returns the recorded source of a node input event, if any."""
  recorded = (event.custom_metadata or {}).get(_METADATA_KEY)
  if not isinstance(recorded, dict):
    return None
  return NodeInputSource(**recorded)


def _parent_path(path: str) -> str:
  return path.rpartition('/')[0]


def _node_name(path: str) -> str:
  """'router@1/classifier@2' -> 'classifier'."""
  return path.rpartition('/')[2].partition('@')[0]


def _text(content: types.Content | None) -> str | None:
  if content is None or not content.parts:
    return None
  return ''.join(
      part.text for part in content.parts if part.text and not part.thought
  )


def _output_text(event: Event) -> str | None:
  """The text the event's node output renders to as a successor's input."""
  node_info = event.node_info
  if event.output is not None:
    return _text(to_user_content(event.output))
  if node_info.message_as_output:
    return _text(event.content)
  return None


def _sibling_output(event: Event, parent: str, level: str) -> str | None:
  """Returns the child of ``parent``, other than ``level``, it is output of.

  An event is the output of every path in its ``output_for``: a nested
  workflow's output is its terminal node's event, listed under the
  workflow's path as well as the node's.
  """
  for path in event.node_info.output_for or ():
    if path != level and _parent_path(path) == parent:
      return path
  return None


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


def _find_source(
    event: Event, session_events: Sequence[Event], invocation_id: str
) -> NodeInputSource:
  text = _text(event.content)
  current = _current_events(event, session_events, invocation_id)
  node_path = event.node_info.path or ''
  level = node_path
  while _parent_path(level):
    parent = _parent_path(level)
    for candidate in current:
      producer = _sibling_output(candidate, parent, level)
      if producer is not None and _output_text(candidate) == text:
        copied = candidate.id if candidate.node_info.message_as_output else None
        return NodeInputSource(_node_name(producer), copied)
    level = parent
  for candidate in current:
    if (
        candidate.author == USER_SOURCE
        and not candidate.node_info.path
        and not candidate.get_function_responses()
    ):
      if _text(candidate.content) == text:
        return NodeInputSource(USER_SOURCE, candidate.id)
      break
  runner_path = _parent_path(node_path)
  if _parent_path(runner_path):
    return NodeInputSource(_node_name(runner_path), None)
  return NodeInputSource(USER_SOURCE, None)
