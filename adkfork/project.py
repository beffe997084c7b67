"""Reads the fork's settings and locates the parts of the repository."""

from __future__ import annotations

import dataclasses
import pathlib
import re
import tomllib

from .errors import ForkBuildError

# Upstream's repository paths that the fork may touch, and how they map into
# the installed package: `src/google/adk/x.py` installs as `google/adk/x.py`.
PACKAGE_PREFIX = 'src/google/adk/'
TESTS_PREFIX = 'tests/unittests/'

_REQUIRED_KEYS = (
    'upstream-version',
    'upstream-wheel',
    'upstream-sha256',
    'local-version',
)
_LOCAL_LABEL = re.compile(r'^[a-z0-9]+(\.[a-z0-9]+)*$')


@dataclasses.dataclass(frozen=True)
class Project:
  """The fork's repository and its `[tool.adkfork]` settings."""

  root: pathlib.Path
  upstream_version: str
  upstream_wheel: str
  upstream_sha256: str
  local_version: str

  @property
  def version(self) -> str:
    """The version the fork installs as, e.g. `2.13.0+fork.1`."""
    return f'{self.upstream_version}+{self.local_version}'

  @property
  def patches_dir(self) -> pathlib.Path:
    return self.root / 'patches'

  @property
  def series_file(self) -> pathlib.Path:
    return self.patches_dir / 'series'

  @property
  def manifest_file(self) -> pathlib.Path:
    return self.patches_dir / 'upstream-prs.toml'

  @property
  def overlay_dir(self) -> pathlib.Path:
    """The folder whose files are added to the upstream tree (`src/`)."""
    return self.root / 'src'

  @property
  def work_dir(self) -> pathlib.Path:
    """The git-ignored folder for everything the tooling generates."""
    return self.root / '.fork'


def load_project(root: pathlib.Path | str | None = None) -> Project:
  """Reads `[tool.adkfork]` from the repository's pyproject.toml.

  Args:
    root: The repository root; defaults to the folder holding this package.

  Returns:
    The project settings.

  Raises:
    ForkBuildError: If pyproject.toml is missing a setting or has a bad one.
  """
  root = pathlib.Path(root) if root else pathlib.Path(__file__).parent.parent
  pyproject = root / 'pyproject.toml'
  try:
    settings = tomllib.loads(pyproject.read_text(encoding='utf-8'))
  except (OSError, tomllib.TOMLDecodeError) as e:
    raise ForkBuildError(f'Cannot read {pyproject}: {e}') from e
  table = settings.get('tool', {}).get('adkfork', {})
  missing = [key for key in _REQUIRED_KEYS if not table.get(key)]
  if missing:
    raise ForkBuildError(
        f'{pyproject} [tool.adkfork] is missing {", ".join(missing)}: the'
        ' build needs the pinned upstream release (version, wheel file name,'
        ' sha256) and the local version label.'
    )
  if not _LOCAL_LABEL.match(table['local-version']):
    raise ForkBuildError(
        f'{pyproject} [tool.adkfork] local-version'
        f' {table["local-version"]!r} is not a PEP 440 local version label:'
        ' use lowercase letters and digits separated by dots, e.g. "fork.1".'
    )
  return Project(
      root=root,
      upstream_version=table['upstream-version'],
      upstream_wheel=table['upstream-wheel'],
      upstream_sha256=table['upstream-sha256'].lower(),
      local_version=table['local-version'],
  )


def to_package_path(repo_path: str) -> str:
  """Maps an upstream repository path to its path inside the wheel.

  Args:
    repo_path: A path such as `src/google/adk/version.py`.

  Returns:
    The installed path, such as `google/adk/version.py`.

  Raises:
    ForkBuildError: If the path is outside the google.adk package.
  """
  if not repo_path.startswith(PACKAGE_PREFIX):
    raise ForkBuildError(
        f'{repo_path} is outside {PACKAGE_PREFIX}: patches and overlay'
        ' modules may only change the google.adk package.'
    )
  return repo_path[len('src/') :]
