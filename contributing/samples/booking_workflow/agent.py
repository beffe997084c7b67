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

"""The booking router as a google-adk 2.13 Workflow.

    START ─> classifier ─> route_by_intent ─┬─ "booking" ─> booker
                                            └─ "info" ────> info

The classifier writes its label to ``state['intent']``; ``route_by_intent``
reads it from state and emits it as the route.

An LlmAgent in a Workflow runs single-turn, and since 2.8 its
``include_contents`` defaults to ``'none'``: it sees its node input, or, with
none (a route function passes none on), the user's latest message only. A
booker that sees only "Can we make it 8pm instead?" has forgotten the party
size. What the fork changes here:

* ``include_sources`` says whose messages each model sees, across turns. The
  booker and the info agent see the user's messages and their own replies,
  never the classifier's label (it is in state, for the route); the
  classifier sees the latest user message alone. A node that sets
  ``include_sources`` keeps the conversation (``include_contents='default'``)
  unless it sets ``include_contents`` itself.
* Visibility is inferred from the graph: nodes with an outgoing edge
  (``classifier``, ``route_by_intent``) are internal; the terminal nodes,
  ``booker`` and ``info``, speak to the user.

Run it: ``adk run contributing/samples/booking_workflow``. Offline it runs on
a scripted model; set ``GOOGLE_API_KEY`` to run it on Gemini.
"""

from __future__ import annotations

import booking_scripts
from google.adk.agents import LlmAgent
from google.adk.events.event import Event
from google.adk.workflow import START
from google.adk.workflow import Workflow
import scripted_model

scripted_model.announce('booking_workflow')


def route_by_intent(intent: str) -> Event:
  """Follows the edge named by the classifier's label (bound from state)."""
  return Event(route='info' if 'info' in intent.lower() else 'booking')


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

root_agent = Workflow(
    name='booking_workflow',
    description='Books tables at Trattoria Sole and answers questions.',
    edges=[
        (START, classifier, route_by_intent),
        (route_by_intent, {'booking': booker, 'info': info}),
    ],
)
