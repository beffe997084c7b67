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

"""Serves an ADK app through ag-ui-adk, sending the client the user's view.

ag-ui-adk (the AG-UI middleware CopilotKit frontends talk to) never reads
``Event.is_user_facing``. Its ``run_config_factory`` can put a run in
``visibility_mode='filter'``, which keeps internal agents' text out of the live
stream, but the history it sends (the ``MESSAGES_SNAPSHOT`` at the end of a run
and ``POST /agents/state``) is built from the stored session events, which keep
everything: a classifier's label comes back as an assistant message.

Here all three send ``google.adk.events.user_view.user_view`` of the events,
and the state the client receives (``STATE_DELTA``, ``STATE_SNAPSHOT``,
``/agents/state``) leaves out what internal agents wrote (agents run as tools
included), except the keys named in ``client_state_keys``::

  agent = UserViewADKAgent(adk_agent=root_agent, app_name='demo', user_id='u1',
                           emit_messages_snapshot=True,
                           client_state_keys=['cart'])
  app = FastAPI()
  add_user_view_fastapi_endpoint(app, agent, '/')

* ``UserViewADKAgent`` is an ``ADKAgent`` whose runs are in filter mode (its
  ``run_config_factory``, or ag-ui-adk's default, still makes the RunConfig)
  and whose ``MESSAGES_SNAPSHOT`` is rebuilt from the user's view of the
  session.
* ``add_user_view_fastapi_endpoint`` is ``add_adk_fastapi_endpoint`` with
  ``/agents/state`` reading the user's view of the session.

A turn reaches the client as one assistant message (its text and its tool
cards, as ``google.adk.events.user_messages`` draws them), live and in the
history, and an agent run as a tool as a sub-agent run: ``SUBAGENT_*`` events
and tool calls attributed to it by ``subagentRunId``, as much of it as
``nested_progress`` (``'hidden'``, ``'minimal'``, the default, or ``'full'``)
allows.

The session keeps every event in full; only what is sent to the client
changes. ag-ui-adk 0.11.0 has no hook for the history it sends, so besides
subclassing ``ADKAgent`` the adapter relies on a few of its internals, named
where they are used. ``docs/ag-ui.md`` describes the change proposed to
ag-ui-adk that would make this package unnecessary.

One concept a module:

- ``_agent``: ``UserViewADKAgent``, where the others meet ag-ui-adk's run.
- ``_endpoint``: ``add_user_view_fastapi_endpoint``, the FastAPI routes.
- ``_session_reads``: the user's view of the session for a client's reads.
- ``_history``: the AG-UI messages of a stored session.
- ``_run_view``: one run's live stream, with its sub-agent runs.
- ``_relay``: the Runner's events, through the run's view.
- ``_message_forms``: the ids and texts a message has live and in the history.
- ``_filter_mode``: a run's RunConfig and RUN_ERROR in filter mode.
- ``_ag_ui_adk``: what the adapter takes from ag-ui-adk and FastAPI.
"""

from __future__ import annotations

from ._agent import UserViewADKAgent
from ._endpoint import add_user_view_fastapi_endpoint

__all__ = [
    'UserViewADKAgent',
    'add_user_view_fastapi_endpoint',
]
