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

"""The finding a diagnostic check reports, its severities, and the error a
``Runner`` raises for a tree whose findings it refuses."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


class Severity(str, enum.Enum):
  """How sure a check is that something goes wrong at run time."""

  ERROR = 'error'
  """The run fails as configured unless the application works around it."""
  WARNING = 'warning'
  """The tree very likely does not behave as its author intended."""
  INFO = 'info'
  """Worth knowing; the check cannot tell whether it is intended."""

  @property
  def rank(self) -> int:
    """Sorts errors first, then warnings, then infos."""
    return list(Severity).index(self)


@dataclasses.dataclass(frozen=True)
class Diagnostic:
  """One finding about an agent tree, stated in terms of what will happen.

  .. warning::
    This feature is **experimental** and its API may change in future
    releases.

  Attributes:
    severity: How sure the check is that this is a mistake.
    code: The stable code of the check, such as ``'ADK-D104'``. A code keeps
      its meaning and is never reused.
    agent: The name of the agent or workflow node the finding is about.
    message: What will happen at run time, in plain words.
    hint: How to fix it.
  """

  severity: Severity
  code: str
  agent: str
  message: str
  hint: str

  def to_dict(self) -> dict[str, Any]:
    """Returns the diagnostic as JSON-ready data."""
    return {
        'severity': self.severity.value,
        'code': self.code,
        'agent': self.agent,
        'message': self.message,
        'hint': self.hint,
    }


class AgentConfigurationError(ValueError):
  """A ``Runner`` refuses a tree whose settings would silently misbehave.

  A ``ValueError``, as building a runner raised before, whose text is the
  findings' messages and fixes.

  Attributes:
    diagnostics: The findings, each an error.
  """

  def __init__(self, diagnostics: list[Diagnostic]):
    self.diagnostics = list(diagnostics)
    super().__init__(
        ' '.join(f'{d.message} {d.hint}' for d in self.diagnostics)
    )
