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

"""The diagnostics a ``Runner`` logs when it is built.

Only a tree that uses the settings the checks are mostly about, an agent's
``include_sources`` or an explicit ``visibility``, is checked: an app that uses
neither logs exactly what it logged before. Such mistakes are otherwise
silent at run time (an ``include_sources`` typo hides a peer's messages
without an error), which is why they are worth a log line when the runner is
built rather than only on request with ``adk check``.

Each finding is logged once per runner. A server that builds a runner per
request would repeat the same lines on every request, so the most recent
findings are remembered, up to a bound, and not logged again. Nothing here
raises or changes the run: a failure inside a check is logged at debug level.
Each record carries its ``Diagnostic`` as the ``adk_diagnostic`` attribute.
"""

from __future__ import annotations

import collections
import logging
from typing import Any
from typing import Hashable

from ._checks import run_checks
from ._checks import walk
from ._diagnostic import Diagnostic
from ._diagnostic import Severity

logger = logging.getLogger('google_adk.' + __name__)

# A finding that may be intended is logged at INFO; one that fails the run or
# very likely misbehaves at WARNING. An error is not logged at ERROR because
# the run goes on, and the application may seed the state it needs.
_LEVELS = {
    Severity.ERROR: logging.WARNING,
    Severity.WARNING: logging.WARNING,
    Severity.INFO: logging.INFO,
}

_MAX_REMEMBERED = 256
_recently_logged: collections.OrderedDict[Hashable, None] = (
    collections.OrderedDict()
)


def run_start_findings(root: Any) -> list[Diagnostic]:
  """The findings a Runner built for ``root`` logs: none for a tree that
  uses neither ``include_sources`` nor ``visibility``.

  Args:
    root: The root agent or node of the runner. None has none.

  Returns:
    The findings, errors first; none when a check fails (logged at debug
    level), since a bug in a check must never break building a runner.
  """
  try:
    if root is None or not _uses_checked_settings(root):
      return []
    return list(run_checks(root))
  except Exception:  # pylint: disable=broad-except
    logger.debug('Diagnostics failed for %r.', root, exc_info=True)
    return []


def log_tree_diagnostics(root: Any) -> None:
  """Logs the diagnostics of the tree a Runner runs, if it uses the settings.

  Args:
    root: The root agent or node of the runner. None is ignored.
  """
  for diagnostic in run_start_findings(root):
    if logged_recently((root.name, diagnostic)):
      continue
    logger.log(
        _LEVELS[diagnostic.severity],
        '%s %s [%s] %s Fix: %s',
        diagnostic.severity.value.upper(),
        diagnostic.code,
        diagnostic.agent,
        diagnostic.message,
        diagnostic.hint,
        # For handlers that show findings their own way, such as adk run.
        extra={'adk_diagnostic': diagnostic},
    )


def logged_recently(key: Hashable) -> bool:
  """Whether ``key`` was logged recently; records it as logged now.

  A server that builds a runner, or loads an app, per request would repeat
  the same lines on every request; the most recent keys are remembered, up
  to a bound.
  """
  if key in _recently_logged:
    _recently_logged.move_to_end(key)
    return True
  _recently_logged[key] = None
  if len(_recently_logged) > _MAX_REMEMBERED:
    _recently_logged.popitem(last=False)
  return False


def _uses_checked_settings(root: Any) -> bool:
  return any(
      getattr(node, 'include_sources', None) is not None
      or getattr(node, 'exclude_sources', None) is not None
      or getattr(node, 'visibility', None) is not None
      for node in walk(root)
  )
