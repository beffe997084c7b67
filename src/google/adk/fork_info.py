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

"""Tells which build of google-adk is installed: upstream's or the fork.

The fork installs as `<upstream release>+<label>` (a PEP 440 local version),
so requirements such as `google-adk>=2.13` still hold while bug reports and
`adk --version` show which build is in use.
"""

from __future__ import annotations

from .version import __version__

UPSTREAM_VERSION, _, FORK_LABEL = __version__.partition('+')
"""The upstream release this build is made from, e.g. `2.13.0`; and the
fork's label, e.g. `fork.1` (empty for upstream's own build)."""


def is_fork() -> bool:
  """Returns whether this build carries the fork's patches."""
  return bool(FORK_LABEL)
