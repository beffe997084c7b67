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

"""Source windows and exclusions: how much of each source a model sees.

``include_sources`` says *whose* messages an agent's model sees. This module
adds *how much*:

* ``SourceWindow(source, last=N, first=M, final_answers_only=...)`` is an
  ``include_sources`` entry that admits only some items of one source: its
  last N, its first M (both: the union), and optionally only its final
  answers (no tool calls, tool results, thoughts or streamed fragments).
* ``'*'`` is an entry that admits every source no other entry names: the
  user, the agent itself and every agent, including agents added to the tree
  later.
* ``LlmAgent.exclude_sources`` names sources never admitted. Alone it means
  ``['*']`` minus those names, so adding an agent to a tree does not mean
  editing every other agent's list.

Plain string entries keep exactly their meaning. The checks here run where the
fields are set (the agent's validators) and raise ``ValueError`` saying what
was wrong and how to fix it; a name that matches no agent can only be checked
once the tree is known (see ``google.adk.diagnostics``). The resolved
``SourcePolicy`` is computed once per agent, so a request only reads it. How
the history is filtered lives in
``google.adk.flows.llm_flows.context._source_windows``. This module is kept
free of flow imports so ``LlmAgent`` can use it at construction time.
"""

from __future__ import annotations

from collections.abc import Container
from collections.abc import Sequence
import dataclasses
from typing import Any
from typing import cast
from typing import Optional
from typing import Union

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import field_validator
from pydantic import model_validator

from ..features import experimental
from ..features import FeatureName
from ._include_sources import SELF_SOURCE
from ._include_sources import source_authors
from ._include_sources import validate_include_sources

ALL_SOURCES = '*'
"""Every source that no other entry names, including agents added later."""

_COUNT_FIELDS = ('last', 'first')


@experimental(FeatureName.SOURCE_WINDOWS)
class SourceWindow(BaseModel):
  """An ``include_sources`` entry that admits only some items of a source.

  An item is one event of the source, except that a function call and all
  its responses form one item, and consecutive transcription fragments of a
  live session form one item.

  Attributes:
    source: ``'user'``, ``'self'`` or an agent name, as in a plain entry.
    last: Admit only the last N items of the source.
    first: Admit only the first N items (e.g. the user's original request).
      With ``last`` too, the union of both.
    final_answers_only: Admit only the source's final answers: events that
      are complete (not streamed fragments), hold text and no tool call or
      result; their thought parts are dropped. ``last``/``first`` then count
      final answers.
  """

  model_config = ConfigDict(frozen=True, extra='forbid')

  source: str
  last: Optional[int] = None
  first: Optional[int] = None
  final_answers_only: bool = False

  def __init__(self, source: Any = None, /, **data: Any):
    # `source` may be given positionally: SourceWindow('planner', last=1).
    if source is not None:
      if 'source' in data:
        raise ValueError(
            'SourceWindow got the source twice: give it positionally,'
            " SourceWindow('planner', last=1), or as source=..., not both."
        )
      data['source'] = source
    super().__init__(**data)

  @field_validator('source', mode='before')
  @classmethod
  def _check_source(cls, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
      raise ValueError(
          "SourceWindow needs a source: 'user', 'self' or an agent name;"
          f' got {value!r}.'
      )
    if value == ALL_SOURCES:
      raise ValueError(
          "A window on '*' is not supported: it would count every source's"
          ' items together. Name the sources to window, e.g.'
          " SourceWindow('planner', last=1), beside '*'."
      )
    return value

  @field_validator(*_COUNT_FIELDS, mode='before')
  @classmethod
  def _check_count(cls, value: Any, info: Any) -> Optional[int]:
    # bool is an int in Python: last=True would silently mean last=1.
    if value is None:
      return None
    if isinstance(value, bool) or not isinstance(value, int):
      raise ValueError(
          f'SourceWindow {info.field_name} must be a whole number of items'
          f' (an int >= 0), got {value!r} ({type(value).__name__}). Write'
          f' e.g. {info.field_name}=1.'
      )
    if value < 0:
      raise ValueError(
          f'SourceWindow {info.field_name} must be >= 0, got {value}. To'
          f' take items from the other end use'
          f" {'first' if info.field_name == 'last' else 'last'}={-value}."
      )
    return value

  @field_validator('final_answers_only', mode='before')
  @classmethod
  def _check_flag(cls, value: Any) -> bool:
    if not isinstance(value, bool):
      raise ValueError(
          'SourceWindow final_answers_only must be True or False, got'
          f' {value!r}.'
      )
    return value

  @model_validator(mode='after')
  def _check_not_empty(self) -> SourceWindow:
    if self.last is None and self.first is None and not self.final_answers_only:
      raise ValueError(
          f'SourceWindow({self.source!r}) sets no window: it admits every'
          f' item of {self.source!r}, which is the plain entry'
          f' {self.source!r}. Write {self.source!r}, or set last=, first= or'
          ' final_answers_only=True.'
      )
    return self


SourceEntry = Union[str, SourceWindow]


@dataclasses.dataclass(frozen=True)
class _AllBut:
  """Every event author but ``excluded``, as ``'*'`` admits them: a container,
  ``author in admitted``."""

  excluded: frozenset[str]

  def __contains__(self, author: object) -> bool:
    return author not in self.excluded


@dataclasses.dataclass(frozen=True)
class SourcePolicy:
  """The resolved ``include_sources`` and ``exclude_sources`` of an agent.

  Attributes:
    names: The sources entries name (strings and window sources), in order.
    everyone: Whether ``'*'`` admits every source not named otherwise.
    excluded: The sources never admitted.
    windows: The window of each windowed source, by source name (``'self'``
      as written).
  """

  names: tuple[str, ...]
  everyone: bool
  excluded: tuple[str, ...]
  windows: dict[str, SourceWindow]
  # What `admitted` and `windows_by_author` resolved, by agent name: a
  # policy serves one agent, so requests only read this.
  _by_agent: dict[str, tuple[Container[str], dict[str, SourceWindow]]] = (
      dataclasses.field(default_factory=dict, compare=False, repr=False)
  )

  def admitted(self, agent_name: str) -> Container[str]:
    """Returns the event authors admitted when serving ``agent_name``."""
    return self._resolved(agent_name)[0]

  def windows_by_author(self, agent_name: str) -> dict[str, SourceWindow]:
    """Returns the windows keyed by event author (``'self'`` resolved)."""
    return self._resolved(agent_name)[1]

  def _resolved(
      self, agent_name: str
  ) -> tuple[Container[str], dict[str, SourceWindow]]:
    resolved = self._by_agent.get(agent_name)
    if resolved is None:
      resolved = (
          # A frozenset where it can be: requests test every event's author.
          _AllBut(frozenset(source_authors(self.excluded, agent_name)))
          if self.everyone
          else frozenset(source_authors(self.names, agent_name)),
          {
              (
                  agent_name if name == SELF_SOURCE and agent_name else name
              ): window
              for name, window in self.windows.items()
          },
      )
      self._by_agent[agent_name] = resolved
    return resolved


SourceSetting = Union[SourcePolicy, Sequence[str], None]
"""What a request reads for an agent: None (everything), the plain
``include_sources`` list, or a ``SourcePolicy``."""


def validate_source_entries(value: Any) -> Optional[list[SourceEntry]]:
  """Checks an ``include_sources`` value that may hold windows and ``'*'``.

  Args:
    value: None, or a list (tuple, set) of names and ``SourceWindow``s.

  Returns:
    None, or the entries as a new list in the order given.

  Raises:
    ValueError: For everything ``validate_include_sources`` rejects, for a
      dict that looks like a window, and for two entries on one source that
      disagree (a window and a plain entry, or two windows).
  """
  if value is None or isinstance(value, (str, bytes)):
    # None, or the error a bare string gets.
    validate_include_sources(value)
    return None
  if isinstance(value, (list, tuple, set, frozenset)) and any(
      isinstance(entry, SourceWindow) for entry in value
  ):
    names = validate_include_sources([_entry_name(entry) for entry in value])
    assert names is not None
    entries: list[SourceEntry] = list(value)
    _check_one_entry_per_windowed_source(entries)
    return entries
  for position, entry in enumerate(
      value if isinstance(value, (list, tuple)) else ()
  ):
    # Checked first: the plain-entry check would only say it is no string.
    if isinstance(entry, dict):
      raise ValueError(
          f'include_sources entry {position} is a dict ({entry!r}). Write a'
          " window as SourceWindow('planner', last=1), imported from"
          ' google.adk.agents.'
      )
  names = validate_include_sources(value)
  if names is None:
    return None
  return [*names]


def _entry_name(entry: Any) -> Any:
  return entry.source if isinstance(entry, SourceWindow) else entry


def _check_one_entry_per_windowed_source(entries: list[SourceEntry]) -> None:
  windowed: dict[str, SourceWindow] = {}
  plain = {entry for entry in entries if isinstance(entry, str)}
  for entry in entries:
    if not isinstance(entry, SourceWindow):
      continue
    if entry.source in plain:
      raise ValueError(
          f'include_sources has both {entry.source!r} and {entry!r}: the'
          ' plain entry admits every item, the window only some. Keep one of'
          ' them.'
      )
    earlier = windowed.get(entry.source)
    if earlier is not None and earlier != entry:
      raise ValueError(
          f'include_sources has two windows on {entry.source!r}: {earlier!r}'
          f' and {entry!r}. Merge them into one SourceWindow (last= and first='
          ' may both be set).'
      )
    windowed[entry.source] = entry


def validate_exclude_sources(value: Any) -> Optional[list[str]]:
  """Checks an ``exclude_sources`` value.

  Args:
    value: None, or a list (tuple, set) of source names.

  Returns:
    None when ``value`` is None, otherwise the names as a new list.

  Raises:
    ValueError: If ``value`` is a bare string, empty, not a collection of
      names, or holds a window, ``'*'`` or an entry that is not a non-empty
      string.
  """
  if value is None:
    return None
  if isinstance(value, (str, bytes)):
    raise ValueError(
        'exclude_sources must be a list of source names, not the string'
        f' {value!r}. Write exclude_sources=[{value!r}].'
    )
  if not isinstance(value, (list, tuple, set, frozenset)):
    raise ValueError(
        "exclude_sources must be a list of source names such as ['researcher']"
        f', or None to exclude nothing; got {type(value).__name__}.'
    )
  if not value:
    raise ValueError(
        'exclude_sources=[] excludes nothing. Use exclude_sources=None, or'
        " name the sources to leave out, such as ['researcher']."
    )
  names = list(value)
  for position, name in enumerate(names):
    if isinstance(name, SourceWindow):
      raise ValueError(
          f'exclude_sources entry {position} is a window ({name!r}): a'
          ' window says how much of a source to include, so it belongs in'
          f' include_sources. Write exclude_sources=[{name.source!r}] to'
          ' leave the source out entirely.'
      )
    if not isinstance(name, str) or not name.strip():
      raise ValueError(
          'exclude_sources entries must be non-empty strings:'
          f" 'user', 'self' or an agent name. Entry {position} is {name!r}."
      )
    if name == ALL_SOURCES:
      raise ValueError(
          "exclude_sources=['*'] would exclude every source. Set"
          ' include_sources to the sources to see instead.'
      )
  return names


def resolve_source_policy(
    include_sources: Optional[Sequence[SourceEntry]],
    exclude_sources: Optional[Sequence[str]],
) -> SourceSetting:
  """Checks the two fields together and resolves what a request reads.

  Args:
    include_sources: The validated ``include_sources``.
    exclude_sources: The validated ``exclude_sources``.

  Returns:
    None (no filtering: upstream's behaviour) or the plain list itself when
    neither windows, ``'*'`` nor exclusions are used, so those requests take
    exactly the path they took before; otherwise a ``SourcePolicy``.

  Raises:
    ValueError: If ``exclude_sources`` is set beside an ``include_sources``
      list without ``'*'`` (it would exclude nothing), or a source is both
      included and excluded.
  """
  if exclude_sources is None:
    if include_sources is None or all(
        isinstance(entry, str) and entry != ALL_SOURCES
        for entry in include_sources
    ):
      # Plain names only (just checked), kept as the caller's object.
      return cast(Optional[Sequence[str]], include_sources)
  names: list[str] = []
  windows: dict[str, SourceWindow] = {}
  for entry in include_sources if include_sources is not None else ():
    if isinstance(entry, SourceWindow):
      windows[entry.source] = entry
      names.append(entry.source)
    elif entry != ALL_SOURCES:
      names.append(entry)
  everyone = include_sources is None or ALL_SOURCES in include_sources
  excluded = tuple(dict.fromkeys(exclude_sources or ()))
  if excluded and not everyone:
    raise ValueError(
        f'exclude_sources={list(excluded)!r} excludes nothing beside'
        f' include_sources={list(include_sources or ())!r}, which admits only'
        " the sources it names. Add '*' to include_sources to admit every"
        ' other source, or drop exclude_sources and the names.'
    )
  both = [name for name in excluded if name in names]
  if both:
    raise ValueError(
        f'{both[0]!r} is both included (include_sources) and excluded'
        ' (exclude_sources). Remove it from one of them.'
    )
  return SourcePolicy(
      names=tuple(dict.fromkeys(names)),
      everyone=everyone,
      excluded=excluded,
      windows=windows,
  )


def source_policy_of(
    agent: Any,
) -> SourceSetting:
  """Returns what the request builder reads for ``agent``.

  The policy is resolved when the agent is built and kept with it; a value
  assigned later (assignments are not validated) is resolved here, which
  also rejects a bare string, as a request with one always did.

  Args:
    agent: The agent a request is built for (any node; None if it has no
      ``include_sources``).
  """
  include = getattr(agent, 'include_sources', None)
  exclude = getattr(agent, 'exclude_sources', None)
  cached = getattr(agent, '_source_policy', None)
  if cached is not None and cached[0] is include and cached[1] is exclude:
    return cast(SourceSetting, cached[2])
  if exclude is None and (include is None or isinstance(include, str)):
    # The plain and default paths; a bare string is caught downstream.
    return include
  policy = resolve_source_policy(
      validate_source_entries(include), validate_exclude_sources(exclude)
  )
  if policy is not None and not isinstance(policy, SourcePolicy):
    # Keep the caller's list object: nothing changes for the plain path.
    policy = include
  _remember(agent, include, exclude, policy)
  return policy


def _remember(agent: Any, include: Any, exclude: Any, policy: Any) -> None:
  try:
    setattr(agent, '_source_policy', (include, exclude, policy))
  except (AttributeError, TypeError, ValueError):
    # An object that takes no attributes resolves on each request.
    pass


def remember_source_policy(agent: Any) -> None:
  """Resolves and keeps the policy of a just-built agent (its validator)."""
  include = getattr(agent, 'include_sources', None)
  exclude = getattr(agent, 'exclude_sources', None)
  policy = resolve_source_policy(include, exclude)
  _remember(agent, include, exclude, policy)


def window_entries(agent: Any) -> list[SourceWindow]:
  """The ``SourceWindow`` entries of an agent's ``include_sources``."""
  return [
      entry
      for entry in getattr(agent, 'include_sources', None) or ()
      if isinstance(entry, SourceWindow)
  ]
