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


"""The keywords a workflow node ignored when it was built.

pydantic ignores a keyword a node's model does not have (an agent forbids
it instead), so ``Workflow(..., visibilty='internal')`` builds and the setting
never applies. ``BaseNode`` calls ``note_ignored_keywords`` when it is built
so that diagnostics (ADK-D112) and the ``Runner`` can name such keywords;
``unknown_keyword_message`` is the one wording of an unknown keyword, whether
a class ignored or refused it. Apart from ``google.adk.diagnostics`` so that
building a node imports no checks.
"""

from __future__ import annotations

import inspect
from typing import Any
from typing import Callable
from typing import Iterable

import pydantic

from ..utils._did_you_mean import closest_match
from ..utils._did_you_mean import did_you_mean


def note_ignored_keywords(
    cls: type[Any], data: Any, handler: Callable[[Any], Any]
) -> Any:
  """Builds a node and remembers the keywords its model ignored.

  The body of ``BaseNode``'s wrap validator. A model that forbids extra
  keywords (every agent) refuses them, in the words every door uses
  (``unknown_keyword_message``) rather than pydantic's "Extra inputs are not
  permitted"; only models that ignore them are looked at afterwards.

  Args:
    cls: The node class being built.
    data: The keywords it is built with.
    handler: pydantic's validation of ``data``.

  Returns:
    The node.

  Raises:
    ValueError: Naming each unknown keyword and its closest known one, when
      unknown keywords are all that is wrong; pydantic's error otherwise.
  """
  try:
    node = handler(data)
  except pydantic.ValidationError as error:
    refused = _refused_keywords(error)
    if not refused:
      raise
    known = known_keywords(cls)
    name = data.get('name') if isinstance(data, dict) else None
    raise ValueError(
        ' '.join(
            ' '.join(
                unknown_keyword_message(
                    cls.__name__,
                    name if isinstance(name, str) else None,
                    keyword,
                    known,
                )
            )
            for keyword in refused
        )
    ) from None
  if isinstance(data, dict) and cls.model_config.get('extra') in (
      None,
      'ignore',
  ):
    known = known_keywords(cls)
    ignored = tuple(key for key in data if key not in known)
    if ignored:
      node._ignored_keywords = ignored
  return node


def _refused_keywords(error: pydantic.ValidationError) -> list[str]:
  """The unknown keywords a model refused, when they are all its errors."""
  keywords = [
      item['loc'][0]
      for item in error.errors()
      if item['type'] == 'extra_forbidden' and len(item['loc']) == 1
  ]
  if len(keywords) != error.error_count():
    return []
  return [str(keyword) for keyword in keywords]


def ignored_keywords(node: Any) -> tuple[str, ...]:
  """The keywords ``node`` ignored when it was built, in the order given."""
  return getattr(node, '_ignored_keywords', None) or ()


def known_keywords(cls: type) -> list[str]:
  """The keywords ``cls`` takes: its fields, their aliases, its parameters."""
  names: set[str] = set()
  for field_name, field in getattr(cls, 'model_fields', {}).items():
    names.add(field_name)
    if isinstance(field.alias, str):
      names.add(field.alias)
  parameters: Iterable[inspect.Parameter]
  try:
    # The class's own __init__, which a node such as FunctionNode defines.
    parameters = inspect.signature(getattr(cls, '__init__')).parameters.values()
  except (TypeError, ValueError):
    parameters = ()
  names.update(
      p.name
      for p in parameters
      if p.name != 'self'
      and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
  )
  return sorted(name for name in names if not name.startswith('_'))


def unknown_keyword_message(
    kind: str,
    name: str | None,
    keyword: str,
    known: Iterable[str],
    *,
    ignored: bool = False,
) -> tuple[str, str]:
  """What an unknown keyword does, and the fix: the one wording of it.

  Args:
    kind: The class the keyword was given to, such as ``'Workflow'``.
    name: The agent's or node's name, if known.
    keyword: The keyword.
    known: The keywords the class takes, for the closest match.
    ignored: Whether the class ignored it (else it refused it).

  Returns:
    The message and the hint.
  """
  who = f'{kind} {name!r}' if name else kind
  effect = (
      'ignores it, so the setting has no effect' if ignored else 'refuses it'
  )
  message = f'{who} has no keyword {keyword!r} and {effect}.'
  return message, f'{did_you_mean(keyword, known)}Fix the keyword or remove it.'


def is_near_miss(keyword: str, known: Iterable[str]) -> bool:
  """Whether ``keyword`` looks like a misspelling of one of ``known``."""
  return closest_match(keyword, known) is not None
