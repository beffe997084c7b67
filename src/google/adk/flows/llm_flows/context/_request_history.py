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

"""Builds an agent's request history without intermediate events.

``_contents._get_contents_in_stages`` walks the history once per stage, and
recasts each other agent's message as a new ``Event`` only to copy its content
out again. ``RequestHistory`` builds the same contents in two walks: one over
the session applying every inclusion rule, one over the visible events that
recasts, checks tool call pairing and copies what the session owns. The stages
that rearrange tool responses change only histories where a response is not
right after its call (a long-running tool's late result, parallel results that
arrived apart, a response with no call); for those rare histories ``contents``
returns None and the caller runs the stages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Optional

from google.genai import types

from . import _contents
from ....events._rewind_events import _apply_rewinds
from ....events.event import Event
from ....utils._function_call_names import REQUEST_CONFIRMATION_FUNCTION_CALL_NAME
from ....utils._function_call_names import REQUEST_EUC_FUNCTION_CALL_NAME
from ..tools import _rearranger
from ..tools._functions import _collect_function_call_ids
from ._compaction import _process_compaction_events
from ._compaction import _recover_compacted_function_calls
from ._fencing import _is_other_agent_reply
from ._fencing import _present_other_agent_content

# Tool names whose calls and responses never reach the model.
_HIDDEN_TOOL_NAMES = frozenset({
    'adk_framework',
    REQUEST_EUC_FUNCTION_CALL_NAME,
    REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
})

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
    """Walks the session once and keeps the events the agent may see.

    Args:
      current_branch: The current branch of the agent.
      events: The session events, oldest first.
      agent_name: The name of the agent the request is for.
      isolation_scope: The agent's isolation scope. None means unscoped.
      node_path: The current workflow node path, if running as a node.
      is_single_turn: Whether the agent runs as a single-turn node.
      include_thoughts_from_other_agents: Whether other agents' thoughts are
        shown to the agent.
    """
    self._branch = current_branch
    self._events = events
    self._agent_name = agent_name
    self._isolation_scope = isolation_scope
    self._node_path = node_path
    self._include_thoughts = include_thoughts_from_other_agents
    visible = None
    if not is_single_turn:
      visible = self._collect(events, stop_at_rewind=True)
    if visible is None:
      # Rewinds are rare: apply them, and only then the single-turn node
      # filter, as the stages do.
      live_events = _contents._filter_single_turn_node_events(
          current_branch,
          _apply_rewinds(events),
          is_single_turn=is_single_turn,
          node_path=node_path,
          allow_ancestor_node_paths=True,
      )
      visible = self._collect(live_events, stop_at_rewind=False)
    # The events the rewind, branch, isolation and inclusion rules leave,
    # before compaction.
    self.visible_events: list[Event] = visible or []

  def _collect(
      self, events: list[Event], *, stop_at_rewind: bool
  ) -> list[Event] | None:
    """Returns the visible events, or None at a rewind if `stop_at_rewind`."""
    # Verdicts per branch string: a session has few branches.
    self._branch_verdicts: dict[str, bool] = {}
    self._live_events = events
    self._tool_call_ids: set[str] | None = None
    self._has_compaction = False
    visible = []
    for event in events:
      if (
          stop_at_rewind
          and event.actions
          and event.actions.rewind_before_invocation_id
      ):
        return None
      if self._is_visible(event):
        visible.append(event)
    return visible

  def _is_visible(self, event: Event) -> bool:
    """`_should_include_event_in_context` and the tool branch rule, at once."""
    if event.isolation_scope != self._isolation_scope:
      return False
    content = event.content
    parts = content.parts if content else None
    include_thoughts = self._include_thoughts and _is_other_agent_reply(
        self._agent_name, event
    )
    has_response = False
    shows_something = False
    for part in parts or ():
      call = part.function_call
      response = part.function_response
      if call and call.name in _HIDDEN_TOOL_NAMES:
        return False
      if response:
        if response.name in _HIDDEN_TOOL_NAMES:
          return False
        has_response = True
      if not shows_something and (
          # Plain text, the common case, is visible whatever else it holds.
          (part.text and not part.thought)
          or not _contents._is_part_invisible(
              part, include_thoughts=include_thoughts
          )
      ):
        shows_something = True

    if event.author == 'user' and not has_response:
      node_info = getattr(event, 'node_info', None)
      event_node_path = getattr(node_info, 'path', None) if node_info else None
      if event_node_path and event_node_path != (self._node_path or ''):
        return False
    is_compaction = bool(event.actions and event.actions.compaction)
    if (
        not is_compaction
        and (not content or not content.role or not shows_something)
        and not (event.output_transcription or event.input_transcription)
    ):
      return False
    if event.branch and not self._is_on_branch(event):
      return False
    self._has_compaction = self._has_compaction or is_compaction
    return True

  def _is_on_branch(self, event: Event) -> bool:
    """Whether an event with a branch is on the agent's, and not a tool's."""
    branch = event.branch or ''
    verdict = self._branch_verdicts.get(branch)
    if verdict is None:
      if self._tool_call_ids is None:
        self._tool_call_ids = _collect_function_call_ids(self._live_events)
      verdict = _contents._is_event_belongs_to_branch(
          self._branch, event
      ) and not _contents._is_tool_sub_branch_event(
          self._branch, event, self._agent_name, self._tool_call_ids
      )
      self._branch_verdicts[branch] = verdict
    return verdict

  def contents(
      self,
      *,
      preserve_function_call_ids: bool = False,
      isolation_scope: str | None = None,
      is_single_turn: bool = False,
      user_content: types.Content | None = None,
      admit: Admit | None = None,
  ) -> list[types.Content] | None:
    """Builds the request contents from the visible events.

    Args:
      preserve_function_call_ids: Whether to keep ``adk-`` function call ids.
      isolation_scope: The agent's isolation scope, for its task input.
      is_single_turn: Whether the agent runs as a single-turn node.
      user_content: The task input of a scoped agent whose delegating call is
        not in the session.
      admit: Called on each event once transcriptions are merged and before
        other agents' messages are recast; returns what of the event the agent
        may see, or None to leave it out.

    Returns:
      The contents, or None when tool responses have to be rearranged; the
      caller then builds the history stage by stage.
    """
    events = self.visible_events
    if self._has_compaction:
      events = _recover_compacted_function_calls(
          _process_compaction_events(events, self._agent_name), events
      )
    contents = self._build(events, preserve_function_call_ids, admit)
    if contents is None:
      return None
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
      preserve_function_call_ids: bool,
      admit: Admit | None,
  ) -> list[types.Content] | None:
    """Merges transcriptions, recasts other agents and copies the contents.

    Returns None as soon as a tool response is not right after its call.
    """
    agent_name = self._agent_name
    strip_ids = not preserve_function_call_ids
    # A response to another agent's call is recast like that agent's message.
    # The stages look the call's author up in the whole history, where the
    # last call with an id wins; here the history is read once, so a later
    # call that would change an answer already given sends it to the stages.
    call_authors: dict[str, str] = {}
    answered_by_peer: dict[str, bool] = {}
    answered: set[str] = set()
    long_running: set[str] = set()
    # Contents holding calls, by index: dropped or trimmed at the end if a
    # call is never answered.
    with_calls: list[tuple[int, types.Content]] = []
    # The calls of the previous event, which a response must answer; None
    # when that event holds responses itself.
    previous_calls: list[types.FunctionCall] | None = []
    contents: list[types.Content] = []
    input_text = ''
    output_text = ''
    last = len(events) - 1
    for i, event in enumerate(events):
      content = event.content
      if content and content.parts:
        for part in content.parts:
          call = part.function_call
          if call and call.id:
            answer = answered_by_peer.get(call.id)
            if answer is not None and answer != _is_peer(
                event.author, agent_name
            ):
              return None
            call_authors[call.id] = event.author
      built = False
      if not content:
        if event.input_transcription and event.input_transcription.text:
          input_text += event.input_transcription.text
          following = events[i + 1].input_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'user', input_text)
          input_text = ''
          built = True
        elif event.output_transcription and event.output_transcription.text:
          output_text += event.output_transcription.text
          following = events[i + 1].output_transcription if i != last else None
          if following and following.text:
            continue
          event = _with_transcript(event, 'model', output_text)
          output_text = ''
          built = True

      if admit is not None:
        admitted = admit(event)
        if admitted is None:
          continue
        if admitted is not event:
          event, built = admitted, False

      content = event.content
      parts = content.parts if content else None
      is_other_reply = _is_other_agent_reply(agent_name, event)
      if not is_other_reply and parts:
        for part in parts:
          response = part.function_response
          if response and response.id:
            is_peer = _is_peer(call_authors.get(response.id), agent_name)
            answered_by_peer.setdefault(response.id, is_peer)
            if is_peer:
              is_other_reply = True
              break

      if is_other_reply and parts:
        recast = _present_other_agent_content(
            event, include_thoughts=self._include_thoughts
        )
        if recast is not None:
          contents.append(recast)
          previous_calls = []
        continue

      if event.long_running_tool_ids:
        long_running.update(event.long_running_tool_ids)
      calls: list[types.FunctionCall] = []
      responses: list[types.FunctionResponse] = []
      for part in parts or ():
        if part.function_call:
          calls.append(part.function_call)
        if part.function_response:
          responses.append(part.function_response)
      if responses:
        if calls or not _answer(responses, previous_calls):
          return None
        answered.update(response.id for response in responses if response.id)
      previous_calls = None if responses else calls
      if content is None:
        continue
      if built:
        contents.append(content)
        continue
      if calls:
        with_calls.append((len(contents), content))
      contents.append(
          _contents._copy_content_for_request(
              content, strip_client_function_call_ids=strip_ids
          )
      )

    if with_calls:
      _drop_unanswered_calls(
          contents, with_calls, answered | long_running, strip_ids
      )
    return contents


def _answer(
    responses: list[types.FunctionResponse],
    calls: list[types.FunctionCall] | None,
) -> bool:
  """Whether every response answers one of `calls`, the previous event's.

  In this shape the rearranging stages leave a history as it is: each response
  sits right after its call, a response event calls nothing itself, and every
  response finds its call (by id, or by name when neither has an id) in the
  event just before it.
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


def _drop_unanswered_calls(
    contents: list[types.Content],
    with_calls: list[tuple[int, types.Content]],
    kept_ids: set[str],
    strip_ids: bool,
) -> None:
  """Removes the calls with an id not in `kept_ids` from `contents`.

  `kept_ids` holds the ids answered in the history and those of long-running
  calls still waiting for their result; `with_calls` the index in `contents`
  and the session's content of each content holding calls.
  """
  unanswered_ids: list[str] = []
  dropped: set[int] = set()
  for index, content in with_calls:
    kept: list[types.Part] = []
    for part in content.parts or ():
      call = part.function_call
      if call and call.id and call.id not in kept_ids:
        unanswered_ids.append(call.id)
      else:
        kept.append(part)
    if not kept:
      dropped.add(index)
    elif len(kept) != len(content.parts or ()):
      trimmed = content.model_copy()
      trimmed.parts = kept
      contents[index] = _contents._copy_content_for_request(
          trimmed, strip_client_function_call_ids=strip_ids
      )
  if dropped:
    contents[:] = [
        content
        for index, content in enumerate(contents)
        if index not in dropped
    ]
  if unanswered_ids:
    # The message and logger of the stage that drops them.
    _rearranger.logger.warning(
        'Dropping function calls with no matching function response: %s',
        unanswered_ids,
    )


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
