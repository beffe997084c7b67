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

"""A drafting loop (drafter, reviewer) followed by a presenter.

    drafting_pipeline (SequentialAgent)
    ├── drafting_loop (LoopAgent, at most 3 rounds)   internal
    │   ├── drafter    writes state['draft'], revising after feedback
    │   └── reviewer   writes state['review']; calls exit_loop to approve
    └── presenter      shows the approved draft to the user

Without the fork the user watches every draft and every review go by as chat
messages, and the presenter's model re-reads them all. With it:

* Visibility is inferred: a loop's body is internal, so drafts and reviews
  carry ``is_user_facing=False`` and only the presenter speaks to the user.
* ``include_sources`` keeps requests small: the drafter sees the user's
  request and its own drafts and gets the feedback through ``{review?}``; the
  reviewer and the presenter see the user's messages and get the draft
  through ``{draft}``.

Run it: ``adk run contributing/samples/drafting_loop``. Offline it runs on a
scripted model; set ``GOOGLE_API_KEY`` to run it on Gemini.
"""

from __future__ import annotations

import re
import warnings

from google.adk.agents import LlmAgent
from google.adk.agents import LoopAgent
from google.adk.agents import SequentialAgent
from google.adk.models.llm_request import LlmRequest
from google.adk.tools import exit_loop
from google.genai import types
import scripted_model

# google-adk 2.13 deprecates SequentialAgent and LoopAgent in favour of
# Workflow; both are supported.
warnings.filterwarnings(
    'ignore', category=DeprecationWarning, message='.*(Sequential|Loop)Agent.*'
)

scripted_model.announce('drafting_loop')

_APPROVED = 'Approved.'
_TIME = re.compile(r'\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b', re.IGNORECASE)


def _subject(request: str) -> str:
  """What the announcement is about, from the user's request."""
  match = re.search(r'\bthat (.+?)[.!?]?$', request, re.IGNORECASE)
  return match.group(1) if match else 'we have news'


def _after_label(llm_request: LlmRequest, label: str) -> str:
  """The instruction line that starts with ``label``, without the label."""
  for line in scripted_model.instruction(llm_request).splitlines():
    if line.startswith(label):
      return line[len(label) :].strip()
  return ''


def _draft(llm_request: LlmRequest) -> str:
  """The drafter: a first draft, then revisions that answer the feedback.

  It revises its own latest draft when it can see it (``'self'``), so a
  follow-up request changes the tone without losing what was fixed before.
  """
  users = scripted_model.user_texts(llm_request)
  subject = _subject(users[0]) if users else 'we have news'
  time = _TIME.search(subject)
  headline = _TIME.sub('', subject).replace(' at ', ' ').strip(' ,')
  headline = headline[0].upper() + headline[1:]
  drafts = scripted_model.own_replies(llm_request)
  with_time = bool(drafts and time and time.group(0) in drafts[-1])
  if time and 'time' in _after_label(llm_request, 'Feedback:'):
    with_time = True
  draft = f'Big news: {headline}'
  draft += f', from {time.group(0)}!' if with_time else '!'
  if any('playful' in text.lower() for text in users[1:]):
    return draft + ' Come hungry, leave happy.'
  return draft + ' We look forward to seeing you.'


def _review(llm_request: LlmRequest) -> types.Content:
  """The reviewer: asks for the time until the draft has it, then approves."""
  users = scripted_model.user_texts(llm_request)
  draft = _after_label(llm_request, 'Draft:')
  wanted = _TIME.search(users[0]) if users else None
  if wanted and wanted.group(0) not in draft:
    return types.Content(
        role='model',
        parts=[
            types.Part(
                text=(
                    'Mention the time the user asked for'
                    f' ({wanted.group(0)}): guests need to know when to come.'
                )
            )
        ],
    )
  return types.Content(
      role='model',
      parts=[
          types.Part(text=_APPROVED),
          types.Part(
              function_call=types.FunctionCall(name='exit_loop', args={})
          ),
      ],
  )


def _present(llm_request: LlmRequest) -> str:
  """The presenter: hands the approved draft to the user."""
  return f'Here is your announcement:\n\n{_after_label(llm_request, "Draft:")}'


drafter = LlmAgent(
    name='drafter',
    model=scripted_model.model_for('drafter', _draft),
    instruction=(
        'Write a two-sentence announcement for what the user asks. If there'
        ' is feedback on your previous draft, revise the draft to address it.'
        '\nFeedback: {review?}'
    ),
    include_sources=['user', 'self'],
    output_key='draft',
)

reviewer = LlmAgent(
    name='reviewer',
    model=scripted_model.model_for('reviewer', _review),
    instruction=(
        'Review the draft against what the user asked for. If it is good,'
        f' answer "{_APPROVED}" and call the exit_loop tool; otherwise say in'
        ' one sentence what to change.\nDraft: {draft}'
    ),
    tools=[exit_loop],
    include_sources=['user'],
    output_key='review',
)

presenter = LlmAgent(
    name='presenter',
    model=scripted_model.model_for('presenter', _present),
    instruction=(
        'Give the user the approved announcement below, introduced in one'
        ' short sentence.\nDraft: {draft}'
    ),
    include_sources=['user'],
)

root_agent = SequentialAgent(
    name='drafting_pipeline',
    description='Drafts an announcement, has it reviewed, presents it.',
    sub_agents=[
        LoopAgent(
            name='drafting_loop',
            sub_agents=[drafter, reviewer],
            max_iterations=3,
        ),
        presenter,
    ],
)
