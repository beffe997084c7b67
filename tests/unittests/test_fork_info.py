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

"""The installed google-adk is the fork, and says so."""

from __future__ import annotations

import importlib.metadata
import pathlib
import subprocess
import sys
import tomllib

import google.adk
from google.adk import fork_info
from packaging.version import Version

_PYPROJECT = pathlib.Path(__file__).parents[2] / 'pyproject.toml'


def _expected_version() -> str:
  settings = tomllib.loads(_PYPROJECT.read_text())['tool']['adkfork']
  return f'{settings["upstream-version"]}+{settings["local-version"]}'


def test_distribution_version_carries_the_fork_label():
  installed = importlib.metadata.version('google-adk')

  assert installed == _expected_version()
  assert google.adk.__version__ == installed
  assert Version(installed).local == fork_info.FORK_LABEL


def test_fork_version_satisfies_upstream_requirements():
  # Other packages pin `google-adk>=X`; a local version must still meet it.
  from packaging.specifiers import SpecifierSet

  assert Version(google.adk.__version__) in SpecifierSet(
      f'>={fork_info.UPSTREAM_VERSION}'
  )


def test_overlay_module_is_part_of_the_installed_package():
  package_dir = pathlib.Path(google.adk.__file__).parent

  assert pathlib.Path(fork_info.__file__).parent == package_dir
  assert fork_info.is_fork()
  assert fork_info.UPSTREAM_VERSION == _expected_version().split('+')[0]


def test_adk_version_command_prints_the_fork_version():
  adk = pathlib.Path(sys.executable).parent / 'adk'

  result = subprocess.run(
      [str(adk), '--version'], capture_output=True, text=True, check=True
  )

  assert _expected_version() in result.stdout
