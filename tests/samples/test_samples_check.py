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

"""Every sample agent passes `adk check` with no warning and no error."""

from __future__ import annotations

import json
import pathlib

from click.testing import CliRunner
from google.adk.cli.cli_tools_click import main

_SAMPLES = (
    pathlib.Path(__file__).resolve().parents[2] / 'contributing' / 'samples'
)
_NAMED_SAMPLES = {
    'booking_router',
    'drafting_loop',
    'booking_workflow',
    'research_team',
}


def test_samples_have_no_warnings_or_errors():
  folders = sorted(
      path.parent for path in _SAMPLES.glob('*/agent.py') if path.is_file()
  )
  assert _NAMED_SAMPLES <= {folder.name for folder in folders}

  problems = {}
  for folder in folders:
    result = CliRunner().invoke(
        main, ['check', '--format', 'json', str(folder)], catch_exceptions=False
    )
    assert result.exit_code in (0, 1), result.stderr
    found = [
        d
        for d in json.loads(result.stdout)['diagnostics']
        if d['severity'] in ('error', 'warning')
    ]
    if found:
      problems[folder.name] = found
  assert problems == {}
