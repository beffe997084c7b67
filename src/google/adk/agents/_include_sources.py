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

"""Validation of ``LlmAgent.include_sources``.

``include_sources`` names whose messages an agent's model sees: ``'user'`` for
what the human typed, ``'self'`` for the agent's own earlier turns, and any
other string for the agent of that name. How the history is filtered lives in
``google.adk.flows.llm_flows.context._source_filter``; this module only checks
the setting itself, and is kept free of flow imports so ``LlmAgent`` can use it
at construction time.

Names that match no agent are not rejected here: an agent is built before the
tree it ends up in, so at construction time there is nothing to check a name
against.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

USER_SOURCE = 'user'
"""Messages the human typed (author ``user``, not a posted-back tool result)."""

SELF_SOURCE = 'self'
"""The agent's own earlier model turns and tool traffic."""

RESERVED_SOURCE_NAMES = frozenset({USER_SOURCE, SELF_SOURCE})

_EXAMPLE = "['user', 'self']"


def validate_include_sources(value: Any) -> list[str] | None:
  """Checks an ``include_sources`` value.

  Args:
    value: The value to check: None, or a list (tuple, set) of source names.

  Returns:
    None when ``value`` is None, otherwise the names as a new list in the order
    given. Duplicates are kept; they do not change what is included.

  Raises:
    ValueError: If ``value`` is a bare string, is not a collection of names, is
      empty, or holds an entry that is not a non-empty string.
  """
  if value is None:
    return None
  if isinstance(value, (str, bytes)):
    # A string is iterable, so without this check 'user' would quietly become
    # the sources 'u', 's', 'e' and 'r'.
    raise ValueError(
        'include_sources must be a list of source names, not the string'
        f' {value!r}. Write include_sources=[{value!r}] to include only that'
        ' source.'
    )
  if not isinstance(value, (list, tuple, set, frozenset)):
    raise ValueError(
        'include_sources must be a list of source names such as'
        f' {_EXAMPLE}, or None to include every source; got'
        f' {type(value).__name__}.'
    )
  if not value:
    raise ValueError(
        'include_sources=[] would hide every message, including the'
        " user's. Use include_sources=None to include every source, or"
        f' list the sources to include, such as {_EXAMPLE}.'
    )
  names = list(value)
  for position, name in enumerate(names):
    if not isinstance(name, str) or not name.strip():
      raise ValueError(
          'include_sources entries must be non-empty strings: '
          f'{USER_SOURCE!r}, {SELF_SOURCE!r} or an agent name. Entry'
          f' {position} is {name!r}.'
      )
  return names


def source_authors(names: Iterable[str], agent_name: str) -> set[str]:
  """Maps source names onto the event authors they stand for.

  ``'self'`` is the agent's own name; every other name is an author as it is.
  """
  authors = set(names)
  if SELF_SOURCE in authors:
    authors.discard(SELF_SOURCE)
    if agent_name:
      authors.add(agent_name)
  return authors
