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

"""Visibility's documented rules over random compositions (Hypothesis).

Each example is a tree built from every composition ADK offers an app
(``_compositions.py``): sequences, parallel agents, loops ended by
``exit_loop`` (with or without last words beside the call) or by a custom
checker that only escalates, agents run as tools, custom orchestrators, and
workflows of agents and function nodes ending on text or data, with random
``visibility`` overrides. Every agent replies with a word that names it, so the rules can
be read off what a client receives. For one turn, run in annotate and in
filter mode:

* the user is never left without an answer: when anything was said, filter
  mode shows at least one final response in words;
* a client that reads only flagged events gets what filter mode shows: the
  flagged final responses of annotate mode are filter mode's, and when there
  are none, filter mode shows exactly one answer, the turn's recorded end;
* nothing internal leaks: an internal agent's words reach the filtered
  client only as that one answer;
* reload equals live: ``user_view`` of the stored session is what the run
  sent.
"""

from __future__ import annotations

import asyncio
from typing import Any

import _compositions
from _pr_tests import visibility_filter as vf
from google.adk.agents.run_config import RunConfig
from google.adk.events.event import Event
from google.adk.events.user_view import user_view
from hypothesis import event
from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings


def _final_texts(events: list[Event]) -> list[str]:
  return [
      ''.join(part.text or '' for part in event.content.parts)
      for event in events
      if event.author != 'user'
      and event.is_final_response()
      and event.content
      and any(part.text for part in event.content.parts)
  ]


def _said(events: list[Event], user_facing: bool) -> set[str]:
  """The words agents said in events flagged (or not) user-facing."""
  return {
      part.text
      for event in events
      if event.author != 'user'
      and event.is_user_facing == user_facing
      and event.content
      for part in event.content.parts
      if part.text and part.text.startswith('said-by-')
  }


def _anything_said(events: list[Event]) -> bool:
  """Whether any agent or node said words or produced an output."""
  return any(
      event.author != 'user'
      and (
          getattr(event, 'output', None) is not None
          or (event.content and any(p.text for p in event.content.parts or ()))
      )
      for event in events
  )


async def _turn(spec: Any, mode: str) -> tuple[list[Event], list[Event]]:
  root = _compositions.build(spec)
  events, session, runner = await vf._run(root, RunConfig(visibility_mode=mode))
  await runner.close()
  return events, session.events


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(spec=_compositions.specs())
def test_documented_rules_hold_on_random_compositions(spec: Any):
  annotated, _ = asyncio.run(_turn(spec, 'annotate'))
  filtered, stored = asyncio.run(_turn(spec, 'filter'))

  flagged = _final_texts([e for e in annotated if e.is_user_facing])
  shown = _final_texts(filtered)
  if not _anything_said(annotated):
    # An app whose agents only act (a lone checker) has nothing to show.
    assert not shown
    return
  assert shown, 'the user was left without an answer'
  event('answered by a flagged agent' if flagged else 'answered at the end')
  if flagged:
    assert shown == flagged
  else:
    assert len(shown) == 1
  internal_words = _said(annotated, user_facing=False) - _said(
      annotated, user_facing=True
  )
  sent = '\n'.join(e.model_dump_json() for e in filtered)
  leaked = {word for word in internal_words if word in sent}
  assert not leaked or (not flagged and leaked <= set(shown))
  reloaded = [e for e in user_view(stored) if e.author != 'user']
  assert [e.model_dump() for e in reloaded] == [
      e.model_dump() for e in filtered
  ]
