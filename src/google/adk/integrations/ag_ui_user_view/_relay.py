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

"""The Runner's events, through the run's view on their way to ag-ui-adk.

ag-ui-adk makes the Runner and reads its events itself, with no hook between
the two, so the adapter wraps the ``run_async`` of the Runner it makes
(``UserViewADKAgent._create_runner``): each event goes to the run's
``_RunView`` first, which sends nested and internal agents' work as sub-agent
runs and hands the rest on to ag-ui-adk's translator.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
import contextlib
import functools
from typing import Any

from ...events._event_records import progress_of
from ...events.event import Event
from ...runners import Runner
from ._message_forms import _CLIENT_MESSAGE_ID_KEY
from ._run_view import _RunView


def _relaying(runner: Runner, view: _RunView) -> Runner:
  """``runner``, its ``run_async`` passing its events through ``view``."""
  run_async = runner.run_async

  @functools.wraps(run_async)
  async def relayed(**kwargs: Any) -> AsyncGenerator[Event, None]:
    # The user's event tells which turn the run answers; ag-ui-adk does not
    # ask for it, so it goes no further.
    swallow_user_event = not kwargs.get('yield_user_message')
    kwargs['yield_user_message'] = True
    new_message = kwargs.get('new_message')
    if view.client_message_id and any(
        part.text for part in (new_message.parts if new_message else None) or ()
    ):
      kwargs['state_delta'] = {
          **(kwargs.get('state_delta') or {}),
          _CLIENT_MESSAGE_ID_KEY: view.client_message_id,
      }
    first = True
    async with contextlib.aclosing(run_async(**kwargs)) as events:
      async for event in events:
        if first and event.author == 'user':
          first = False
          view.turn_started(event)
          if swallow_user_event:
            continue
        first = False
        update = progress_of(event)
        if update is not None:
          await view.relay(update)
          continue
        branch_run = view.branch_run(event)
        if branch_run is not None:
          await view.relay_branch_work(*branch_run, event)
          if not (event.actions.state_delta or event.actions.artifact_delta):
            continue
          # ag-ui-adk still sends what the event changes.
          event = event.model_copy(update={'content': None})
        else:
          await view.finish_answered_runs(event)
          rest = await view.relay_internal_work(event)
          if rest is None:
            continue
          event = rest
        translated = view.for_translator(event)
        if translated is not None:
          yield translated
    await view.finish_internal_run()

  # Runner is a plain class: the instance attribute shadows the method.
  runner.run_async = relayed  # type: ignore[method-assign]
  return runner
