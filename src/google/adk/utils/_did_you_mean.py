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

"""The "Did you mean ...?" of the fork's messages about a misspelt setting.

A wrong tool level, an unknown keyword, a source name that matches no agent
and a state key nothing produces are each refused or reported with the
closest known value, found and worded here, so every message proposes a fix
the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
import difflib
from typing import Any


def closest_match(word: Any, known: Iterable[str]) -> str | None:
  """The one of ``known`` that ``word`` most likely misspells, if any.

  Args:
    word: What was written; anything but a string matches nothing.
    known: The values it may have meant.

  Returns:
    The closest of ``known`` (``difflib``'s default cutoff, 0.6), or None.
  """
  if not isinstance(word, str):
    return None
  matches = difflib.get_close_matches(word, list(known), n=1)
  return matches[0] if matches else None


def did_you_mean(
    word: Any, known: Iterable[str], *, shown: Callable[[str], str] = repr
) -> str:
  """``"Did you mean 'x'? "`` for the closest match of ``word``, else ``''``.

  The sentence ends with a space, so a message puts it before the next
  sentence of its fix.

  Args:
    word: What was written.
    known: The values it may have meant.
    shown: How the match is written in the sentence; quoted by default.

  Returns:
    The sentence, or an empty string when nothing is close.
  """
  match = closest_match(word, known)
  return '' if match is None else f'Did you mean {shown(match)}? '
