"""Fixtures for the build tooling's tests: a scratch copy of the repository."""

from __future__ import annotations

import pathlib
import shutil
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
  # adkfork is the repository's build tooling, not part of the package.
  sys.path.insert(0, str(REPO))

from adkfork import project as project_lib  # noqa: E402
from adkfork import upstream  # noqa: E402


@pytest.fixture
def repo_copy(tmp_path: pathlib.Path) -> pathlib.Path:
  """A copy of the parts of the repository the build reads."""
  target = tmp_path / 'repo'
  target.mkdir()
  shutil.copy(REPO / 'pyproject.toml', target)
  for folder in ('patches', 'src', 'tests'):
    shutil.copytree(
        REPO / folder,
        target / folder,
        ignore=shutil.ignore_patterns('__pycache__'),
    )
  return target


@pytest.fixture(scope='session')
def upstream_wheel() -> pathlib.Path:
  """The verified pristine wheel (downloaded once into the cache)."""
  return upstream.upstream_wheel(project_lib.load_project(REPO))
