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

"""How the scripted model answers the booking samples' agents.

Shared by ``booking_router`` (a SequentialAgent) and ``booking_workflow`` (the
same router as a Workflow). Each function reads only the request, as a model
would: the booker books from the details it can see in the conversation and
in its instruction, so a booker that is not shown the user's messages asks
for them again.
"""

from __future__ import annotations

import dataclasses
import re

from google.adk.models.llm_request import LlmRequest
import scripted_model

RESTAURANT = 'Trattoria Sole'

CLASSIFIER_INSTRUCTION = (
    f'You route messages for {RESTAURANT}. Answer with exactly one word:'
    ' "booking" if the latest user message asks to make or change a table'
    ' reservation, otherwise "info".'
)
INFO_INSTRUCTION = (
    f'You answer questions about {RESTAURANT}: open Tuesday to Sunday, 5pm to'
    ' 11pm, closed on Mondays; a third of the menu is vegetarian and most'
    ' pasta can be made vegan; public parking on Via Roma. Answer in one or'
    ' two friendly sentences.'
)
BOOKER_INSTRUCTION = (
    f'You take table reservations for {RESTAURANT}. You need the party size,'
    ' the day and the time. Ask for whatever is missing; once you have all'
    ' three, confirm the booking in one sentence that states them. If the'
    ' guest changes a detail, confirm the updated booking.'
)

_NUMBERS = {
    'one': 1,
    'two': 2,
    'three': 3,
    'four': 4,
    'five': 5,
    'six': 6,
    'seven': 7,
    'eight': 8,
}
_NUMBER_WORDS = {n: w for w, n in _NUMBERS.items()}
_PARTY = re.compile(
    r'\b(?:for|party of|table for)\s+(\d+|' + '|'.join(_NUMBERS) + r')\b',
    re.IGNORECASE,
)
_DAY = re.compile(
    r'\b(today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday'
    r'|saturday|sunday)\b',
    re.IGNORECASE,
)
_TIME = re.compile(r'\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b', re.IGNORECASE)
_BOOKING_WORDS = re.compile(
    r'\b(book|table|reserv\w*|instead|move|change|people)\b', re.IGNORECASE
)


@dataclasses.dataclass
class _Booking:
  party: int | None = None
  day: str | None = None
  time: str | None = None

  def update(self, text: str) -> bool:
    """Takes the details a text mentions; returns whether it had any."""
    found = False
    if match := _PARTY.search(text):
      word = match.group(1).lower()
      self.party = int(word) if word.isdigit() else _NUMBERS[word]
      found = True
    if match := _DAY.search(text):
      self.day = match.group(1).lower()
      found = True
    if match := _TIME.search(text):
      hour, minutes, half = match.groups()
      self.time = f'{int(hour)}{":" + minutes if minutes else ""}{half.lower()}'
      found = True
    return found

  def missing(self) -> list[str]:
    return [
        what
        for what, value in (
            ('how many people', self.party),
            ('which day', self.day),
            ('what time', self.time),
        )
        if value is None
    ]

  def describe(self) -> str:
    party = _NUMBER_WORDS.get(self.party, str(self.party))
    return f'a table for {party} {self.day} at {self.time}'


def _latest_user_text(llm_request: LlmRequest) -> str:
  texts = scripted_model.user_texts(llm_request)
  return texts[-1] if texts else ''


def classify(llm_request: LlmRequest) -> str:
  """The classifier: "booking" or "info" for the latest user message."""
  latest = _latest_user_text(llm_request)
  if _BOOKING_WORDS.search(latest) or _TIME.search(latest):
    return 'booking'
  return 'info'


def answer_question(llm_request: LlmRequest) -> str:
  """The info agent: answers the latest question from what it knows."""
  latest = _latest_user_text(llm_request).lower()
  if not latest:
    return (
        f'Happy to help with anything about {RESTAURANT}: what would you like'
        ' to know?'
    )
  if 'vegetarian' in latest or 'vegan' in latest:
    return (
        'Yes: about a third of our menu is vegetarian, and the kitchen can'
        ' make most pasta dishes vegan.'
    )
  if any(word in latest for word in ('open', 'hours', 'close', 'monday')):
    return "We're open Tuesday to Sunday, 5pm to 11pm, and closed on Mondays."
  if 'park' in latest:
    return 'There is a public car park two minutes away on Via Roma.'
  return (
      f'{RESTAURANT} is at 12 Harbour Street. I can also book you a table'
      ' whenever you like.'
  )


def book(llm_request: LlmRequest) -> str:
  """The booker: books from the details it sees; asks for what is missing.

  It reads only the conversation it is given: a booker shown the latest
  message alone has forgotten the party size and the day.
  """
  booking = _Booking()
  already_confirmed = any(
      'booked' in reply for reply in scripted_model.own_replies(llm_request)
  )
  for reply in scripted_model.own_replies(llm_request):
    booking.update(reply)
  changed = False
  for text in scripted_model.user_texts(llm_request):
    changed = booking.update(text)
  missing = booking.missing()
  if len(missing) == 3:
    return (
        'I would be glad to book a table for you. For how many people, and'
        ' for which day and time?'
    )
  if missing:
    return f'Happy to book that. Could you tell me {" and ".join(missing)}?'
  if already_confirmed and changed:
    return f'Done: I have changed your booking to {booking.describe()}.'
  return f'You are booked: {booking.describe()}. See you then!'
