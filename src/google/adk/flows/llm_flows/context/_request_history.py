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

"""Builds an agent's request history in two walks, without throw-away events.

The first applies the inclusion rules and the agent's history filter; the
second, after compaction, merges transcriptions, recasts other agents'
messages into new contents and copies the session's. ``tools._rearranger``
runs only where a response is not right after its call or a call is
unanswered.

When nothing needs the visible events before the build (no history filter, no
rewind, compaction or transcription in the history), the two walks are one:
on a long session, fetching each event from memory a second time costs about
as much as the work done on it.
"""

from __future__ import annotations

from collections.abc import Callable

from google.genai import types

from . import _contents
from ....events._rewind_events import _apply_rewinds
from ....events.event import Event
from ....utils._function_call_names import AF_FUNCTION_CALL_ID_PREFIX
from ..tools import _rearranger
from ..tools._functions import _collect_function_call_ids
from ._compaction import _process_compaction_events
from ._compaction import _recover_compacted_function_calls
from ._fencing import _copy_model
from ._fencing import _is_other_agent_reply
from ._fencing import _present_other_agent_content

_TOOL_FIELDS = ('function_call', 'function_response')


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
      history_filter: Callable[[list[Event]], list[Event]] | None = None,
  ):
    """Keeps the arguments of `_get_contents` that decide what is visible."""
    self._history_filter = history_filter
    self._branch = current_branch
    self._events = events
    self._agent_name = agent_name
    self._include_thoughts = include_thoughts_from_other_agents
    self._isolation_scope = isolation_scope
    self._node_path = node_path
    self._is_single_turn = is_single_turn
    self._live_events = events
    self._tool_call_ids: set[str] | None = None
    # The tool sub-branch verdict depends on the event's branch only.
    self._tool_branch_verdicts: dict[str, bool] = {}
    self._visible_events: list[Event] | None = None
    self._call_authors: dict[str, str] = {}
    self._compacted = False

  @property
  def visible_events(self) -> list[Event]:
    """The events the inclusion rules leave, before compaction."""
    if self._visible_events is None:
      # `_apply_rewinds` keeps every event when none asks for a rewind, which
      # the walk checks on its way; the single-turn cut needs the rewound
      # events.
      if self._is_single_turn or self._walk(self._events):
        self._walk(
            _contents._filter_single_turn_node_events(
                self._branch,
                _apply_rewinds(self._events),
                is_single_turn=self._is_single_turn,
                node_path=self._node_path,
                allow_ancestor_node_paths=True,
            )
        )
      visible = self._visible_events
      assert visible is not None
      if self._history_filter is not None:
        self._keep_chosen(self._history_filter(visible))
    assert self._visible_events is not None
    return self._visible_events

  def _keep_chosen(self, chosen: list[Event]) -> None:
    """Narrows the visible events to those the app's history filter chose."""
    visible = list(chosen)
    self._visible_events = visible
    self._call_authors = {}
    self._compacted = False
    for event in visible:
      if event.actions and event.actions.compaction:
        self._compacted = True
      _add_call_authors(event, self._call_authors)

  def _walk(self, live_events: list[Event]) -> bool:
    """Keeps the visible events; True, at once, at an event that rewinds."""
    self._live_events = live_events
    self._tool_call_ids = None
    self._tool_branch_verdicts = {}
    visible: list[Event] = []
    self._visible_events = visible
    # Gathered while the events are at hand, as memory is what a walk costs.
    call_authors: dict[str, str] = {}
    self._call_authors = call_authors
    self._compacted = False
    for event in live_events:
      actions = event.actions
      if actions and actions.rewind_before_invocation_id:
        return True
      if not self._includes(event):
        continue
      visible.append(event)
      if actions and actions.compaction:
        self._compacted = True
      _add_call_authors(event, call_authors)
    return False

  def _includes(self, event: Event) -> bool:
    """Whether the inclusion rules leave `event` to the agent."""
    return _contents._should_include_event_in_context(
        self._branch,
        event,
        isolation_scope=self._isolation_scope,
        node_path=self._node_path,
        include_thoughts=(
            self._include_thoughts
            and _is_other_agent_reply(self._agent_name, event)
        ),
    ) and not (event.branch and self._is_on_tool_branch(event))

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
  ) -> list[types.Content]:
    """The request contents, sharing no ``Content`` or ``Part`` with events.

    The arguments are `_get_contents`'s."""
    strip_ids = not preserve_function_call_ids
    contents = None
    if (
        self._visible_events is None
        and not self._is_single_turn
        and self._history_filter is None
    ):
      # Nothing needs the visible events first: apply the inclusion rules in
      # the build's own walk, while each event is in the cache. It gives up
      # on what needs them all (see `_build`) and the two walks run.
      contents = self._build(self._events, {}, strip_ids, live=True)
    if contents is None:
      events = self.visible_events
      call_authors = self._call_authors
      if self._compacted:
        events = _recover_compacted_function_calls(
            _process_compaction_events(events, self._agent_name), events
        )
        call_authors = {}
        for event in events:
          _add_call_authors(event, call_authors)
      contents = self._build(events, call_authors, strip_ids)
      # Only the build that applies the inclusion rules itself gives up.
      assert contents is not None
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
      call_authors: dict[str, str],
      strip_ids: bool,
      *,
      live: bool = False,
  ) -> list[types.Content] | None:
    """Merges transcriptions, recasts other agents, copies and pairs.

    With `live`, `events` are the session's: the inclusion rules are applied
    here and `call_authors` filled as the walk goes. None then says the walk
    met what needs all visible events first (a rewind, a compaction, a
    transcription to merge, a call after a response with its id)."""
    agent_name = self._agent_name
    include_thoughts = self._include_thoughts
    # The events as the rearranging functions take them, and the contents of
    # those with content; beside `kept`, the recast content of each event
    # (None where it is not recast), and the ids of contents made here, which
    # are not copied again.
    kept: list[Event] = []
    contents: list[types.Content] = []
    recast: list[types.Content | None] = []
    fresh: set[int] = set()
    # Whether every response sits right after the calls it answers, which
    # the previous event holds (None when it holds responses or no calls).
    paired = True
    previous_calls: list[types.FunctionCall] | None = None
    call_ids: set[str] = set()
    settled_ids: set[str] = set()
    # The ids of the responses looked up so far, when `live`.
    answered: set[str] = set()
    input_text = output_text = ''
    last = len(events) - 1
    for i, event in enumerate(events):
      if live:
        actions = event.actions
        if actions and (
            actions.rewind_before_invocation_id or actions.compaction
        ):
          return None
        if not self._includes(event):
          continue
      content = event.content
      made = False
      if not content:
        if live:
          return None
        if event.input_transcription and event.input_transcription.text:
          input_text += event.input_transcription.text
          following = events[i + 1].input_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'user', input_text)
          input_text, made = '', True
        elif event.output_transcription and event.output_transcription.text:
          output_text += event.output_transcription.text
          following = events[i + 1].output_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'model', output_text)
          output_text, made = '', True
        content = event.content
      parts = content.parts if content else None

      calls, responses = _tool_parts(parts)
      if live and (calls or responses):
        for call in calls or ():
          if call.id:
            if call.id in answered:
              return None
            call_authors[call.id] = event.author
        for response in responses or ():
          if response.id:
            answered.add(response.id)

      if parts and (
          _is_other_agent_reply(agent_name, event)
          or (responses and _answers_peer(responses, call_authors, agent_name))
      ):
        recast_content = _present_other_agent_content(
            event, include_thoughts=include_thoughts
        )
        if recast_content is not None:
          recast.append(recast_content)
          kept.append(event)
          contents.append(recast_content)
          previous_calls = None
        continue

      recast.append(None)
      kept.append(event)
      if made and content:
        # A merged transcription: its content was made here.
        fresh.add(id(content))
        contents.append(content)
      elif content:
        contents.append(_copy_content(content, strip_ids))
      if event.long_running_tool_ids:
        settled_ids.update(event.long_running_tool_ids)
      for call in calls or ():
        if call.id:
          call_ids.add(call.id)
      if responses:
        for response in responses:
          if response.id:
            settled_ids.add(response.id)
        if calls or not _answers(responses, previous_calls):
          paired = False
        previous_calls = None
      else:
        previous_calls = calls

    if _rearranging_changes_nothing(paired, call_ids, settled_ids):
      return contents

    # The copies above are in the session's order; the rearranged events are
    # copied again in theirs.
    for index, recast_content in enumerate(recast):
      if recast_content is None:
        continue
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
    rearranged = kept
    for rearrange in (
        _rearranger.drop_orphaned_function_responses,
        _rearranger.rearrange_events_for_latest_function_response,
        _rearranger.rearrange_events_for_async_function_responses_in_history,
        _rearranger.drop_orphaned_function_calls,
    ):
      rearranged = rearrange(rearranged)
    return [
        event.content
        if id(event.content) in fresh
        else _copy_content(event.content, strip_ids)
        for event in rearranged
        if event.content
    ]


def _tool_parts(
    parts: list[types.Part] | None,
) -> tuple[
    list[types.FunctionCall] | None, list[types.FunctionResponse] | None
]:
  """An event's function calls and responses, in lists made only for events
  that have them (most have neither, and the walk runs for every event)."""
  calls: list[types.FunctionCall] | None = None
  responses: list[types.FunctionResponse] | None = None
  for part in parts or ():
    if part.function_call:
      calls = calls or []
      calls.append(part.function_call)
    if part.function_response:
      responses = responses or []
      responses.append(part.function_response)
  return calls, responses


def _rearranging_changes_nothing(
    paired: bool, call_ids: set[str], settled_ids: set[str]
) -> bool:
  """Whether the rearranging functions would return the events unchanged:
  every response sits right after the calls it answers (see `_answers`), and
  every call with an id has a response or is long-running."""
  return paired and call_ids <= settled_ids


def _copy_content(content: types.Content, strip_ids: bool) -> types.Content:
  """`_contents._copy_content_for_request`, copying the models directly."""
  source_parts = content.parts
  if not source_parts:
    return _copy_model(content)
  parts = []
  for part in source_parts:
    stripped = None
    if strip_ids and (part.function_call or part.function_response):
      stripped = {}
      for field in _TOOL_FIELDS:
        tool = getattr(part, field)
        if tool and tool.id and tool.id.startswith(AF_FUNCTION_CALL_ID_PREFIX):
          stripped[field] = _copy_model(tool, {'id': None})
    parts.append(_copy_model(part, stripped))
  return _copy_model(content, {'parts': parts})


def _answers(
    responses: list[types.FunctionResponse],
    calls: list[types.FunctionCall] | None,
) -> bool:
  """Whether every response answers one of `calls`, the previous event's, by
  id (or by name when neither has one): the rearranging keeps such a pair."""
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


def _add_call_authors(event: Event, call_authors: dict[str, str]) -> None:
  """Records `event` as the author of its calls (the last with an id wins)."""
  for part in (event.content.parts if event.content else None) or ():
    call = part.function_call
    if call and call.id:
      call_authors[call.id] = event.author


def _answers_peer(
    responses: list[types.FunctionResponse],
    call_authors: dict[str, str],
    agent_name: str,
) -> bool:
  """Whether a response answers another agent's call; it is recast as theirs."""
  for response in responses:
    if response.id:
      author = call_authors.get(response.id)
      if author and author != agent_name and author != 'user':
        return True
  return False


def _with_transcript(event: Event, role: str, text: str) -> Event:
  """Returns `event` with an accumulated transcription as its content."""
  content = types.Content(role=role, parts=[types.Part(text=text)])
  field = 'input_transcription' if role == 'user' else 'output_transcription'
  return event.model_copy(update={'content': content, field: None})
