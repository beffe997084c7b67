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

The workflow engine records it when it triggers a node: ``Trigger.source`` is
the path of the node whose output the input is, and the workflow's context
keeps it for the child it starts (``Context._child_input_sources``). The
input is attributed to:

1. the node recorded on its trigger (an edge from it, or a route it chose);
2. through ``START``, which hands on the workflow's own input, whatever
   produced that input, one level up; at the root, the user;
3. for a child that no workflow triggered (``ctx.run_node``), the node that
   ran it: that node's code computed the input.

A join's input, the outputs of all its predecessors, records no single node;
the join's successors see the join as their source.

Nothing here compares content: a parallel branch that finished in between,
or a node whose output happens to read like the user's message, cannot be
taken for the producer. A resumed run rebuilds the record: the workflow
replays its graph from ``START`` through the runs it recovers from the
session, with their run ids, so each trigger carries the same path again.

The source is recorded on the input event when the node starts, so building
each model request only reads it. The input event is never stored in the
session, so neither is the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple
from typing import TYPE_CHECKING

from ..events.event import Event

if TYPE_CHECKING:
  from ..agents.context import Context

USER_SOURCE = 'user'
"""The source of input that the user typed (the root workflow's ``START``)."""

_METADATA_KEY = 'adk_node_input_source'


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


def record_node_input_source(event: Event, ctx: Context) -> None:
  """Records on a node input event the source the engine recorded for it.

  Args:
    event: The node input event, already carrying the node's path.
    ctx: The context of the node the input is for.
  """
  producer = _producer_path(ctx)
  current = _current_events(
      event, ctx.session.events, ctx._invocation_context.invocation_id
  )
  if producer is None:
    found = NodeInputSource(USER_SOURCE, _user_message_id(current))
  else:
    found = NodeInputSource(
        _node_name(producer), _output_message_id(current, producer)
    )
  metadata = dict(event.custom_metadata or {})
  metadata[_METADATA_KEY] = found._asdict()
  event.custom_metadata = metadata


def node_input_source(event: Event) -> NodeInputSource | None:
  """Returns the recorded source of a node input event, if any."""
  recorded = (event.custom_metadata or {}).get(_METADATA_KEY)
  if not isinstance(recorded, dict):
    return None
  return NodeInputSource(**recorded)


def _producer_path(ctx: Context) -> str | None:
  """The path of the node whose output is the node's input; None: the user."""
  while True:
    parent = ctx.parent_ctx
    if parent is None or not parent.node_path:
      return None
    sources = parent._child_input_sources
    if ctx.node_path not in sources:
      # No workflow triggered this node: the parent ran it with ctx.run_node.
      return parent.node_path
    source = sources[ctx.node_path]
    if source is not None:
      return source
    ctx = parent


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
