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

"""Builds an agent's request history in three walks, without throw-away events.

Over the session: the inclusion rules, then compaction. Over the visible
events: transcriptions are merged, `admit` may narrow each event, and other
agents' messages are recast straight into a new ``Content``. Over what is
left: each session content is copied once. The functions of
``tools._rearranger`` pair tool responses with their calls in between; they
are skipped when every response already sits right after its call and every
call is answered, where they would return the history unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Optional

from google.genai import types

from . import _contents
from ....events._rewind_events import _apply_rewinds
from ....events.event import Event
from ..tools import _rearranger
from ..tools._functions import _collect_function_call_ids
from ._compaction import _process_compaction_events
from ._compaction import _recover_compacted_function_calls
from ._fencing import _is_other_agent_reply
from ._fencing import _present_other_agent_content

# Returns what of an event the agent may see: it, a trimmed copy, or None.
Admit = Callable[[Event], Optional[Event]]


class RequestHistory:
  """The events an agent may see, and the request contents built from them."""

  def __init__(
      self,
      current_branch: str | None,
      events: list[Event],
      agent_name: str = '',
      *,
      isolation_scope: str | None = None,
      node_path: str | None = None,
      is_single_turn: bool = False,
      include_thoughts_from_other_agents: bool = False,
  ):
    """Keeps the events the agent may see (arguments of `_get_contents`)."""
    self._branch = current_branch
    self._events = events
    self._agent_name = agent_name
    self._include_thoughts = include_thoughts_from_other_agents
    live_events = _contents._filter_single_turn_node_events(
        current_branch,
        _apply_rewinds(events),
        is_single_turn=is_single_turn,
        node_path=node_path,
        allow_ancestor_node_paths=True,
    )
    self._live_events = live_events
    self._tool_call_ids: set[str] | None = None
    # The tool sub-branch verdict depends on the event's branch only.
    self._tool_branch_verdicts: dict[str, bool] = {}
    # The events the rewind, branch, isolation and inclusion rules leave,
    # before compaction.
    self.visible_events: list[Event] = [
        event
        for event in live_events
        if _contents._should_include_event_in_context(
            current_branch,
            event,
            isolation_scope=isolation_scope,
            node_path=node_path,
            include_thoughts=(
                include_thoughts_from_other_agents
                and _is_other_agent_reply(agent_name, event)
            ),
        )
        and not (event.branch and self._is_on_tool_branch(event))
    ]

  def _is_on_tool_branch(self, event: Event) -> bool:
    """`_contents._is_tool_sub_branch_event`, once per branch."""
    branch = event.branch or ''
    verdict = self._tool_branch_verdicts.get(branch)
    if verdict is None:
      if self._tool_call_ids is None:
        self._tool_call_ids = _collect_function_call_ids(self._live_events)
      verdict = _contents._is_tool_sub_branch_event(
          self._branch, event, self._agent_name, self._tool_call_ids
      )
      self._tool_branch_verdicts[branch] = verdict
    return verdict

  def contents(
      self,
      *,
      preserve_function_call_ids: bool = False,
      isolation_scope: str | None = None,
      is_single_turn: bool = False,
      user_content: types.Content | None = None,
      admit: Admit | None = None,
  ) -> list[types.Content]:
    """Builds the request contents from the visible events.

    Args:
      preserve_function_call_ids: As in `_get_contents`.
      isolation_scope: As in `_get_contents`.
      is_single_turn: As in `_get_contents`.
      user_content: As in `_get_contents`.
      admit: Called on each event once transcriptions are merged and before
        other agents' messages are recast; returns what of the event the agent
        may see, or None to leave it out.

    Returns:
      The contents, each new and sharing no ``Content`` or ``Part`` with the
      session.
    """
    events = self.visible_events
    if any(event.actions and event.actions.compaction for event in events):
      events = _recover_compacted_function_calls(
          _process_compaction_events(events, self._agent_name), events
      )
    contents = self._build(events, not preserve_function_call_ids, admit)
    if isolation_scope is not None:
      leading = _contents._build_task_input_user_content(
          self._events,
          isolation_scope,
          is_single_turn=is_single_turn,
          user_content=user_content,
      )
      if leading is not None:
        contents.insert(0, leading)
    return contents

  def _build(
      self,
      events: list[Event],
      strip_ids: bool,
      admit: Admit | None,
  ) -> list[types.Content]:
    """Merges transcriptions, recasts other agents, pairs and copies."""
    agent_name = self._agent_name
    # A response to another agent's call is recast like that agent's message;
    # the call's author is that of the last call with its id.
    call_authors: dict[str, str] = {}
    for event in events:
      for part in (event.content.parts if event.content else None) or ():
        if part.function_call and part.function_call.id:
          call_authors[part.function_call.id] = event.author

    # The events as the rearranging functions take them; a recast message is
    # its event, and its content is in `recast` by position.
    kept: list[Event] = []
    recast: dict[int, types.Content] = {}
    # The ids of contents made here (recast messages, merged transcriptions),
    # which are not copied again; `kept` and `recast` keep them alive.
    fresh: set[int] = set()
    # Whether every response sits right after the calls it answers, which
    # the previous event holds (None when that event holds responses).
    paired = True
    previous_calls: list[types.FunctionCall] | None = []
    call_ids: set[str] = set()
    settled_ids: set[str] = set()
    input_text = ''
    output_text = ''
    last = len(events) - 1
    for i, event in enumerate(events):
      transcript = False
      if not event.content:
        if event.input_transcription and event.input_transcription.text:
          input_text += event.input_transcription.text
          following = events[i + 1].input_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'user', input_text)
          input_text = ''
          transcript = True
        elif event.output_transcription and event.output_transcription.text:
          output_text += event.output_transcription.text
          following = events[i + 1].output_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'model', output_text)
          output_text = ''
          transcript = True

      if admit is not None:
        admitted = admit(event)
        if admitted is None:
          continue
        transcript = transcript and admitted is event
        event = admitted

      content = event.content
      parts = content.parts if content else None
      is_other_reply = _is_other_agent_reply(agent_name, event)
      if not is_other_reply and parts:
        for part in parts:
          response = part.function_response
          if response and response.id:
            if _is_peer(call_authors.get(response.id), agent_name):
              is_other_reply = True
              break

      if is_other_reply and parts:
        recast_content = _present_other_agent_content(
            event, include_thoughts=self._include_thoughts
        )
        if recast_content is not None:
          recast[len(kept)] = recast_content
          kept.append(event)
          previous_calls = []
        continue

      kept.append(event)
      if transcript:
        fresh.add(id(content))
      if event.long_running_tool_ids:
        settled_ids.update(event.long_running_tool_ids)
      calls: list[types.FunctionCall] = []
      responses: list[types.FunctionResponse] = []
      for part in parts or ():
        if part.function_call:
          calls.append(part.function_call)
          if part.function_call.id:
            call_ids.add(part.function_call.id)
        if part.function_response:
          responses.append(part.function_response)
          if part.function_response.id:
            settled_ids.add(part.function_response.id)
      if responses and (calls or not _answers(responses, previous_calls)):
        paired = False
      previous_calls = None if responses else calls

    if _rearranging_changes_nothing(paired, call_ids, settled_ids):
      return [
          recast[index]
          if index in recast
          else _copy_content(event.content, fresh, strip_ids)
          for index, event in enumerate(kept)
          if index in recast or event.content
      ]

    for index, recast_content in recast.items():
      fresh.add(id(recast_content))
      # For the rearranging functions a recast message is a user message
      # with no tool calls (nothing of the event they read but its content).
      kept[index] = kept[index].model_copy(
          update={
              'author': 'user',
              'content': recast_content,
              'long_running_tool_ids': None,
          }
      )
    rearranged = _rearranger.drop_orphaned_function_responses(kept)
    rearranged = _rearranger.rearrange_events_for_latest_function_response(
        rearranged
    )
    rearranged = (
        _rearranger.rearrange_events_for_async_function_responses_in_history(
            rearranged
        )
    )
    rearranged = _rearranger.drop_orphaned_function_calls(rearranged)
    return [
        _copy_content(event.content, fresh, strip_ids)
        for event in rearranged
        if event.content
    ]


def _rearranging_changes_nothing(
    paired: bool, call_ids: set[str], settled_ids: set[str]
) -> bool:
  """Whether the rearranging functions would return the events unchanged:
  every response sits right after the calls it answers (see `_answers`), and
  every call with an id has a response or is long-running."""
  return paired and call_ids <= settled_ids


def _copy_content(
    content: types.Content | None, fresh: set[int], strip_ids: bool
) -> types.Content:
  """Copies a content for the request unless it was made for it here."""
  assert content is not None
  if id(content) in fresh:
    return content
  return _contents._copy_content_for_request(
      content, strip_client_function_call_ids=strip_ids
  )


def _answers(
    responses: list[types.FunctionResponse],
    calls: list[types.FunctionCall] | None,
) -> bool:
  """Whether every response answers one of `calls`, the previous event's.

  In this shape the rearranging functions leave a history as it is: each
  response sits right after its call, a response event calls nothing itself,
  and every response finds its call (by id, or by name when neither has an id)
  in the event just before it.
  """
  if not calls:
    return False
  call_ids = {call.id for call in calls if call.id}
  idless_names = {call.name for call in calls if not call.id}
  for response in responses:
    if response.id:
      if response.id not in call_ids:
        return False
    elif not response.name or response.name not in idless_names:
      return False
  return True


def _is_peer(author: str | None, agent_name: str) -> bool:
  """Whether `author` is another agent (not the user, not `agent_name`)."""
  return bool(author) and author != agent_name and author != 'user'


def _with_transcript(event: Event, role: str, text: str) -> Event:
  """Returns `event` with an accumulated transcription as its content."""
  transcription = (
      'input_transcription' if role == 'user' else 'output_transcription'
  )
  return event.model_copy(
      update={
          'content': types.Content(role=role, parts=[types.Part(text=text)]),
          transcription: None,
      }
  )
