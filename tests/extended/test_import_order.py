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


"""Every module the fork adds or patches imports first in a fresh interpreter.

Clients import ADK modules in any order (ag-ui-adk imports
``google.adk.tools.base_tool`` before anything else), so a cycle between a
patched module and a new one only shows when that module comes first.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

_FIRST_IMPORTS = [
    'google.adk.tools.base_tool',
    'google.adk.tools.function_tool',
    'google.adk.tools._tool_visibility',
    'google.adk.events.user_view',
    'google.adk.events._visibility_metadata',
    'google.adk.sessions._visibility_storage',
    'google.adk.sessions._earlier_visibility_rows',
    'google.adk.sessions.schemas.v0',
    'google.adk.events.event',
    'google.adk.agents.llm_agent',
    'google.adk.agents.visibility',
    'google.adk.agents.run_config',
    'google.adk.runners',
    'google.adk.cli.api_server',
]


@pytest.mark.parametrize('module', _FIRST_IMPORTS)
def test_module_imports_first(module: str):
  result = subprocess.run(
      [sys.executable, '-c', f'import {module}'],
      capture_output=True,
      text=True,
      timeout=120,
      check=False,
  )

  assert result.returncode == 0, result.stderr
