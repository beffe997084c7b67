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

"""The diagnostics a ``Runner`` logs when it first runs a tree.

The checks run once per root object: a runner builds a context per invocation
and a server commonly builds a runner per request, so a per-invocation check
would repeat on every turn. Each finding is also logged at most once per
process for a root of the same name, so a tree rebuilt per request is not
reported again. Nothing here raises or changes the run: a failure inside a
check is logged at debug level and the run goes on.
"""

from __future__ import annotations

import logging
from typing import Any
import weakref

from . import _diagnostic
from ..agents._include_sources import already_checked
from ..agents._include_sources import warn_unknown_include_sources
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

logger = logging.getLogger('google_adk.' + __name__)

# Roots already checked, by id; agents are unhashable, and the weak reference
# drops the entry when the tree is collected so a reused id is checked again.
_checked_roots: dict[int, weakref.ref[Any]] = {}
_reported: set[tuple[str, Diagnostic]] = set()

# Unknown include_sources names are logged by warn_unknown_include_sources,
# which the include_sources feature runs at the same point; logging them here
# as well would report each name twice.
_LOGGED_ELSEWHERE = frozenset({_diagnostic.UNKNOWN_INCLUDE_SOURCE})

# A finding that may be intended is logged at INFO; one that fails the run or
# very likely misbehaves at WARNING. An error is not logged at ERROR because
# the run goes on, and the application may seed the state it needs.
_LEVELS = {
    Severity.ERROR: logging.WARNING,
    Severity.WARNING: logging.WARNING,
    Severity.INFO: logging.INFO,
}


def report_at_run_start(root: Any) -> None:
  """Logs the diagnostics of a tree the first time a Runner runs it.

  Args:
    root: The root agent or node the Runner runs. None is ignored.
  """
  if root is None:
    return
  warn_unknown_include_sources(root)
  try:
    if already_checked(root, _checked_roots):
      return
    from . import check_agent_tree

    diagnostics = check_agent_tree(root)
  except Exception:  # pylint: disable=broad-except
    # A bug in a check must never break a run.
    logger.debug('Diagnostics failed for %r.', root, exc_info=True)
    return
  for diagnostic in diagnostics:
    key = (root.name, diagnostic)
    if diagnostic.code in _LOGGED_ELSEWHERE or key in _reported:
      continue
    _reported.add(key)
    logger.log(
        _LEVELS[diagnostic.severity],
        '%s %s [%s] %s Fix: %s',
        diagnostic.severity.value.upper(),
        diagnostic.code,
        diagnostic.agent,
        diagnostic.message,
        diagnostic.hint,
    )
