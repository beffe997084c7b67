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

"""A research team whose writer takes only part of each source (windows).

    research_team (SequentialAgent)
    ├── planner      plans the next revision from the user's latest message
    ├── researcher   calls the search tool, then reports what it found
    └── writer       revises the guide for the user

Over a long session the writer's history fills with every plan, every search
call and result, and every message the user sent. It needs much less, and
its ``include_sources`` says so with source windows (fork-only, see
docs/include-sources.md#windows-how-much-of-each-source):

* ``SourceWindow('user', first=1, last=1)``: the user's original request and
  latest message;
* ``SourceWindow('planner', last=1)``: only the latest plan;
* ``SourceWindow('researcher', final_answers_only=True)``: every finding,
  without the researcher's search calls and results.

The planner and the researcher keep upstream's default history.
``scripts/demo`` runs this sample for 10 turns and compares the writer's
request with upstream's and with the plain list
``['user', 'planner', 'researcher']``.

Run it: ``adk run contributing/samples/research_team``. Offline it runs on a
scripted model; set ``GOOGLE_API_KEY`` to run it on Gemini.
"""

from __future__ import annotations

import re
from typing import Any
import warnings

from google.adk.agents import LlmAgent
from google.adk.agents import SequentialAgent
from google.adk.agents import SourceWindow
from google.adk.models.llm_request import LlmRequest
from google.genai import types
import scripted_model

# google-adk 2.13 deprecates SequentialAgent in favour of Workflow; both are
# supported.
warnings.filterwarnings(
    'ignore', category=DeprecationWarning, message='.*SequentialAgent.*'
)

scripted_model.announce('research_team')

WRITER_SOURCES = [
    SourceWindow('user', first=1, last=1),
    SourceWindow('planner', last=1),
    SourceWindow('researcher', final_answers_only=True),
]
"""The writer's windows: what ``scripts/demo`` calls "fork, windows"."""

_PLAN = re.compile(r'\bPlan (\d+):')
_FINDING = re.compile(r'\bFinding (\d+):')


def search(query: str) -> dict[str, Any]:
  """Searches building guides and grant schemes.

  Args:
    query: What to look for.

  Returns:
    The sources found, with a short excerpt of each.
  """
  return {
      'query': query,
      'results': [
          {
              'title': site,
              'excerpt': (
                  'Installers report that most 1930s brick houses need'
                  ' cavity-wall insulation and larger radiators before a'
                  ' heat pump runs efficiently.'
              ),
          }
          for site in ('Energy saving guide', 'Installers forum')
      ],
  }


def _latest_user_text(llm_request: LlmRequest) -> str:
  texts = scripted_model.user_texts(llm_request)
  return texts[-1] if texts else ''


def _plan(llm_request: LlmRequest) -> str:
  """The planner: one plan per user message, for the latest one."""
  turn = len(scripted_model.user_texts(llm_request))
  ask = _latest_user_text(llm_request).rstrip('.?!')
  return (
      f'Plan {turn}: the user asks: "{ask}". 1. Research it. 2. Revise the'
      ' section of the guide it concerns, keeping what earlier revisions'
      ' settled. 3. Check that the guide still answers the original request.'
  )


def _research(llm_request: LlmRequest) -> types.Content | str:
  """The researcher: a search for the latest message, then its finding."""
  last = llm_request.contents[-1] if llm_request.contents else None
  result = next(
      (
          part.function_response.response
          for part in (last.parts or [] if last else [])
          if part.function_response
      ),
      None,
  )
  if result is None:
    return types.Content(
        role='model',
        parts=[
            types.Part(
                function_call=types.FunctionCall(
                    name='search',
                    args={'query': _latest_user_text(llm_request)},
                )
            )
        ],
    )
  turn = len(scripted_model.user_texts(llm_request))
  titles = '; '.join(item['title'] for item in result.get('results', []))
  return (
      f'Finding {turn}: two sources ({titles}) agree that the house needs'
      ' insulating first and may need larger radiators.'
  )


def _write(llm_request: LlmRequest) -> str:
  """The writer: revises the guide from the plan and findings it sees."""
  text = scripted_model.request_text(llm_request)
  plans = _PLAN.findall(text)
  findings = set(_FINDING.findall(text))
  ask = _latest_user_text(llm_request).rstrip('.?!').lower()
  return (
      f'Here is the revised guide (following plan {plans[-1] if plans else "-"}'
      f', drawing on {len(findings)} findings). It now covers: {ask}.'
      ' Insulate first, size the heat pump to the insulated house, and check'
      ' the radiators before you buy.'
  )


planner = LlmAgent(
    name='planner',
    model=scripted_model.model_for('planner', _plan),
    instruction=(
        'You plan the next revision of a guide the user is writing with'
        ' you. In three numbered steps, say what to research and what to'
        " change for the user's latest message."
    ),
)

researcher = LlmAgent(
    name='researcher',
    model=scripted_model.model_for('researcher', _research),
    instruction=(
        "Search for what the planner's latest plan needs, then report what"
        ' you found in one or two sentences, naming your sources.'
    ),
    tools=[search],
)

writer = LlmAgent(
    name='writer',
    model=scripted_model.model_for('writer', _write),
    instruction=(
        "Revise the user's guide following the latest plan and the"
        " researcher's findings. Keep to the user's original request."
    ),
    include_sources=WRITER_SOURCES,
)

root_agent = SequentialAgent(
    name='research_team',
    description='Plans, researches and writes a guide with the user.',
    sub_agents=[planner, researcher, writer],
)
