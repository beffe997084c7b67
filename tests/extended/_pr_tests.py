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

"""The PR test modules whose helpers the extended tests reuse.

Loaded by path under private names, so pytest does not collect their tests a
second time.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

_UNITTESTS = pathlib.Path(__file__).resolve().parents[1] / 'unittests'


def _load(relative: str) -> ModuleType:
  path = _UNITTESTS / relative
  spec = importlib.util.spec_from_file_location(f'_pr_{path.stem}', path)
  assert spec is not None and spec.loader is not None, path
  module = importlib.util.module_from_spec(spec)
  # Pydantic resolves the models' postponed annotations through sys.modules.
  sys.modules[spec.name] = module
  spec.loader.exec_module(module)
  return module


# The fuller include_sources tests (and their helpers) live beside these.
include_sources = _load('../extended/test_include_sources_agents.py')
inference = _load('agents/test_visibility_inference.py')
workflow_visibility = _load('workflow/test_workflow_visibility.py')
state_keys = _load('diagnostics/test_state_key_diagnostics.py')
visibility_filter = _load('runners/test_visibility_filter.py')
