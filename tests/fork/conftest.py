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
  for folder in ('patches', 'src', 'tests', 'contributing'):
    shutil.copytree(
        REPO / folder,
        target / folder,
        ignore=shutil.ignore_patterns('__pycache__'),
    )
  return target


_FIRST_PATCH = '0001-fork-version-label.patch'


@pytest.fixture
def minimal_repo(tmp_path: pathlib.Path) -> pathlib.Path:
  """A repository whose queue is only the version-label patch.

  The workflow tests need a queue that does not change as features land.
  """
  target = tmp_path / 'minimal'
  for path in (
      'pyproject.toml',
      f'patches/{_FIRST_PATCH}',
      'src/google/adk/fork_info.py',
      'tests/unittests/test_fork_info.py',
  ):
    (target / path).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / path, target / path)
  (target / 'patches/series').write_text(f'{_FIRST_PATCH}\n')
  manifest = (REPO / 'patches/upstream-prs.toml').read_text()
  second_start = manifest.index('[[pr]]', manifest.index('[[pr]]') + 1)
  (target / 'patches/upstream-prs.toml').write_text(manifest[:second_start])
  return target


@pytest.fixture(scope='session')
def upstream_wheel() -> pathlib.Path:
  """The verified pristine wheel (downloaded once into the cache)."""
  return upstream.upstream_wheel(project_lib.load_project(REPO))
