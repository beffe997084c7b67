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

"""Finds the checks of this package and runs them on a tree.

Each check lives in a module of this package named ``_check_<topic>``, which
defines ``CODES``, the codes it reports, and ``check(root)``, which returns
its findings. A check reads the tree only: it builds nothing, calls no model
and changes no agent. Keeping each topic in its own module lets a check be
added or removed without touching the others.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterator

from ..workflow._base_node import _walk_static_nodes
from ..workflow._base_node import BaseNode
from ._diagnostic import Diagnostic

_CHECK_MODULE_PREFIX = '_check_'


def check_modules() -> list[ModuleType]:
  """Imports and returns the check modules, in name order."""
  package = importlib.import_module(__package__)
  names = sorted(
      info.name
      for info in pkgutil.iter_modules(package.__path__)
      if info.name.startswith(_CHECK_MODULE_PREFIX)
  )
  return [importlib.import_module(f'{__package__}.{name}') for name in names]


def all_codes() -> tuple[str, ...]:
  """Returns every code a check can report, sorted."""
  return tuple(sorted(code for m in check_modules() for code in m.CODES))


def run_checks(root: BaseNode) -> list[Diagnostic]:
  """Runs every check on the tree under ``root``.

  Args:
    root: The root agent or workflow.

  Returns:
    The findings, once each: errors first, then warnings, then infos, each
    group by code.
  """
  findings = [
      finding for module in check_modules() for finding in module.check(root)
  ]
  unique = list(dict.fromkeys(findings))
  return sorted(unique, key=lambda f: (f.severity.rank, f.code))


def walk(root: BaseNode) -> Iterator[BaseNode]:
  """Yields the agents and nodes of a tree, root first."""
  yield from _walk_static_nodes(root)


def quote_names(names: list[str]) -> str:
  """Returns ``'a'``, ``'a' and 'b'`` or ``'a', 'b' and 'c'``."""
  quoted = [repr(name) for name in names]
  if len(quoted) <= 1:
    return ''.join(quoted)
  return ', '.join(quoted[:-1]) + ' and ' + quoted[-1]
