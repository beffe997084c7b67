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


"""Configuration errors: the one message a user gets for a wrong setting.

A wrong setting stops an app in one of three places: building an agent
(pydantic refuses an unknown keyword or a bad value), building a function
node (Python refuses an unknown keyword), or building the ``Runner``, which
refuses a tree whose settings would silently do something else
(``raise_on_configuration_errors``). ``describe`` turns any of them into one
message naming the agent, the setting, the value and the fix; every door
(``adk run``, ``adk api_server``, ``adk web``, ``adk check``) shows that
message, so a typo reads the same wherever the user meets it.
"""

from __future__ import annotations

import re
from typing import Any
from typing import Iterator

from ._diagnostic import AgentConfigurationError
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

__all__ = [
    'AgentConfigurationError',
    'describe',
    'raise_on_configuration_errors',
]

# Python's wording for a call with a keyword the function does not take.
_UNEXPECTED_KEYWORD = re.compile(
    r'(?P<kind>\w+)\.__init__\(\) got an unexpected keyword argument'
    r" '(?P<keyword>\w+)'"
)


def raise_on_configuration_errors(root: Any) -> None:
  """Raises for settings the ``Runner`` must not run with.

  Called when a ``Runner`` is built, the first moment the tree is known: a
  ``SourceWindow`` or ``exclude_sources`` naming nothing in the tree (ADK-D104
  errors) and a misspelt keyword a workflow node ignored (ADK-D112 errors).

  Raises:
    AgentConfigurationError: Naming each agent, setting and fix.
  """
  from ._check_keywords import check as check_keywords
  from ._check_source_windows import unknown_names_if_any

  errors = unknown_names_if_any(root) + [
      finding
      for finding in _safely(check_keywords, root)
      if finding.severity is Severity.ERROR
  ]
  if errors:
    raise AgentConfigurationError(errors)


def describe(error: BaseException) -> str | None:
  """Returns the user's message for a configuration error, else None.

  Looks through the error and its causes (a loader wraps the agent module's
  error in its own) for a refused agent tree, a refused tool visibility, a
  pydantic ``ValidationError`` raised building an agent or node, or an
  unknown keyword given to a node.

  Args:
    error: Any exception.

  Returns:
    One or two sentences: the agent, the setting, the value and the fix.
    None for an error that is not about configuration.
  """
  from ..tools._tool_visibility import ToolVisibilityError

  for cause in _chain(error):
    if isinstance(cause, AgentConfigurationError):
      return str(cause)
    if isinstance(cause, ToolVisibilityError):
      return f'{cause}{_where(cause)}'
    message = _describe_validation_error(cause) or _describe_type_error(cause)
    if message:
      return message
  return None


def _chain(error: BaseException) -> Iterator[BaseException]:
  seen = set()
  current: BaseException | None = error
  while current is not None and id(current) not in seen:
    seen.add(id(current))
    yield current
    current = current.__cause__ or current.__context__


def _describe_validation_error(error: BaseException) -> str | None:
  import pydantic

  if not isinstance(error, pydantic.ValidationError):
    return None
  built = _model_being_built(error)
  if built is None:
    return None
  model, data = built
  from ..workflow._ignored_keywords import known_keywords
  from ..workflow._ignored_keywords import unknown_keyword_message

  kind = type(model).__name__
  name = data.get('name') if isinstance(data.get('name'), str) else None
  sentences: list[str] = []
  for item in error.errors():
    field = '.'.join(str(part) for part in item['loc'])
    if item['type'] == 'extra_forbidden':
      sentences.extend(
          unknown_keyword_message(
              kind, name, field, known_keywords(type(model))
          )
      )
      continue
    who = f'{kind} {name!r}' if name else kind
    reason = item['msg'].removeprefix('Value error, ')
    if not field:
      # A check of the whole agent: its input is every keyword it was given,
      # and its text may already name the agent.
      sentences.append(
          reason if reason.startswith(kind) else f'{who}: {reason}'
      )
      continue
    sentences.append(
        f'{who}: {field}={item.get("input")!r} is not valid: {reason}'
    )
  return ' '.join(sentences) + _where(error)


def _model_being_built(
    error: BaseException,
) -> tuple[Any, dict[str, Any]] | None:
  """The agent or node whose construction raised ``error``, and its keywords.

  pydantic's ``BaseModel.__init__`` is the innermost Python frame of such an
  error; its locals hold the half-built model and the keywords it was given.
  """
  from ..apps.app import App
  from ..workflow._base_node import BaseNode

  for frame, _ in reversed(_frames(error)):
    model = frame.f_locals.get('self')
    data = frame.f_locals.get('data')
    if isinstance(model, (BaseNode, App)) and isinstance(data, dict):
      return model, data
  return None


def _describe_type_error(error: BaseException) -> str | None:
  if not isinstance(error, TypeError):
    return None
  match = _UNEXPECTED_KEYWORD.search(str(error))
  if match is None:
    return None
  cls = _node_class(match.group('kind'))
  if cls is None:
    return None
  from ..workflow._ignored_keywords import known_keywords
  from ..workflow._ignored_keywords import unknown_keyword_message

  message, hint = unknown_keyword_message(
      cls.__name__, None, match.group('keyword'), known_keywords(cls)
  )
  return f'{message} {hint}{_where(error)}'


def _node_class(name: str) -> type | None:
  """The agent or node class called ``name``, if there is one."""
  from ..workflow._base_node import BaseNode

  pending = [BaseNode]
  while pending:
    cls = pending.pop()
    if cls.__name__ == name:
      return cls
    pending.extend(cls.__subclasses__())
  return None


def _where(error: BaseException) -> str:
  """`` (at agent.py:12)``: the innermost line of the app's own code."""
  import os

  import pydantic

  library = (
      os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
      os.path.dirname(os.path.abspath(pydantic.__file__)),
  )
  for frame, line in reversed(_frames(error)):
    path = frame.f_code.co_filename
    if not path.startswith('<') and not os.path.abspath(path).startswith(
        library
    ):
      return f' (at {path}:{line})'
  return ''


def _frames(error: BaseException) -> list[tuple[Any, int]]:
  """The frames an error passed through, outermost first, with their lines."""
  frames = []
  traceback = error.__traceback__
  while traceback is not None:
    frames.append((traceback.tb_frame, traceback.tb_lineno))
    traceback = traceback.tb_next
  return frames


def _safely(check: Any, root: Any) -> list[Diagnostic]:
  try:
    return list(check(root))
  except Exception:  # pylint: disable=broad-except
    # A root that is not a node tree has nothing to check.
    return []
