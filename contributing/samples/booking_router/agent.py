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

"""The booking router: a classifier routes each message to a booker or an info agent.

    booking_router (SequentialAgent)
    ├── classifier   internal: its label goes to state['intent']
    └── front_desk   runs the agent the label names; speaks to the user
        ├── booker
        └── info

What the fork changes here, with no other configuration:

* ``include_sources`` keeps each model's request to whose messages it needs.
  The classifier sees only the latest user message. The booker sees the
  user's messages and its own replies, so it remembers the party size when
  the user only changes the time, but not the classifier's labels or the info
  agent's answers. The info agent sees the user and itself.
* Visibility is inferred: the classifier is the first step of a sequence, so
  its "booking" / "info" label is internal (``event.is_user_facing`` is
  False, and ``RunConfig(visibility_mode='filter')`` keeps it out of the
  client stream); the front desk's agents speak to the user.

Run it: ``adk run contributing/samples/booking_router`` (or ``adk web
contributing/samples``). Offline it runs on a scripted model; set
``GOOGLE_API_KEY`` to run it on Gemini.
"""

from __future__ import annotations

from typing import AsyncGenerator
import warnings

import booking_scripts
from google.adk.agents import BaseAgent
from google.adk.agents import LlmAgent
from google.adk.agents import SequentialAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events.event import Event
import scripted_model

# google-adk 2.13 deprecates SequentialAgent in favour of Workflow (see the
# booking_workflow sample); both are supported.
warnings.filterwarnings(
    'ignore', category=DeprecationWarning, message='.*SequentialAgent.*'
)

scripted_model.announce('booking_router')


class FrontDesk(BaseAgent):
  """Hands the turn to the agent the classifier's label names."""

  async def _run_async_impl(
      self, ctx: InvocationContext
  ) -> AsyncGenerator[Event, None]:
    intent = str(ctx.session.state.get('intent', '')).strip().lower()
    chosen = self.find_sub_agent('info' if 'info' in intent else 'booker')
    async for event in chosen.run_async(ctx):
      yield event


classifier = LlmAgent(
    name='classifier',
    model=scripted_model.model_for('classifier', booking_scripts.classify),
    instruction=booking_scripts.CLASSIFIER_INSTRUCTION,
    # The latest message from the user, and nothing else.
    include_contents='none',
    include_sources=['user'],
    output_key='intent',
)

booker = LlmAgent(
    name='booker',
    model=scripted_model.model_for('booker', booking_scripts.book),
    instruction=booking_scripts.BOOKER_INSTRUCTION,
    include_sources=['user', 'self'],
)

info = LlmAgent(
    name='info',
    model=scripted_model.model_for('info', booking_scripts.answer_question),
    instruction=booking_scripts.INFO_INSTRUCTION,
    include_sources=['user', 'self'],
)

root_agent = SequentialAgent(
    name='booking_router',
    description='Books tables at Trattoria Sole and answers questions.',
    sub_agents=[
        classifier,
        FrontDesk(name='front_desk', sub_agents=[booker, info]),
    ],
)
