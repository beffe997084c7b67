"""Gets the pinned upstream source distribution and checks its hash.

The wheel holds upstream's package; the sdist also holds upstream's own
pyproject.toml, whose `[tool.mypy]`, `[tool.ruff]`, `[tool.codespell]`,
`[tool.isort]` and `[tool.pyink]` settings are the ones upstream's checks
run with. The gate reads them from there rather than from a copy of ours.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import tomllib

from . import upstream
from .errors import ForkBuildError
from .project import Project

SDIST_ENV_VAR = 'ADK_FORK_UPSTREAM_SDIST'
_PIN_KEY = 'upstream-sdist-sha256'


_sha256 = upstream._sha256  # pylint: disable=protected-access


def _cache_dir() -> pathlib.Path:
  """The wheel's cache folder (`~/.cache/google-adk-fork/` by default)."""
  return upstream._cache_dir()  # pylint: disable=protected-access


def sdist_name(project: Project) -> str:
  return f'google_adk-{project.upstream_version}.tar.gz'


def sdist_sha256(project: Project) -> str:
  """The pinned sha256 of upstream's sdist, from `[tool.adkfork]`.

  Raises:
    ForkBuildError: If pyproject.toml does not pin it.
  """
  pyproject = project.root / 'pyproject.toml'
  table = (
      tomllib.loads(pyproject.read_text(encoding='utf-8'))
      .get('tool', {})
      .get('adkfork', {})
  )
  pin = table.get(_PIN_KEY)
  if not isinstance(pin, str) or len(pin) != 64:
    raise ForkBuildError(
        f'{pyproject} [tool.adkfork] has no {_PIN_KEY}: pin the sha256 the'
        f' package index lists for {sdist_name(project)}.'
    )
  return pin.lower()


def _how_to_supply(project: Project) -> str:
  return (
      'Download it (`pip download --no-deps --no-binary :all:'
      f' google-adk=={project.upstream_version}`) and point {SDIST_ENV_VAR}'
      ' at the file.'
  )


def _verified(project: Project, path: pathlib.Path, origin: str) -> None:
  expected = sdist_sha256(project)
  actual = _sha256(path)
  if actual != expected:
    raise ForkBuildError(
        f'{path} ({origin}) is not the pinned upstream sdist: expected'
        f' sha256 {expected} for {sdist_name(project)}, got {actual}. '
        + _how_to_supply(project)
    )


def _download(project: Project, cache: pathlib.Path) -> pathlib.Path:
  cache.mkdir(parents=True, exist_ok=True)
  name = sdist_name(project)
  with tempfile.TemporaryDirectory(dir=cache) as tmp:
    result = subprocess.run(
        [
            sys.executable,
            '-m',
            'pip',
            'download',
            '--no-deps',
            '--no-binary',
            ':all:',
            '--disable-pip-version-check',
            '--dest',
            tmp,
            f'google-adk=={project.upstream_version}',
        ],
        capture_output=True,
        text=True,
    )
    fetched = pathlib.Path(tmp) / name
    if result.returncode != 0 or not fetched.is_file():
      tail = '\n'.join((result.stderr or result.stdout).splitlines()[-5:])
      raise ForkBuildError(
          f'Could not download {name} from the package index:\n{tail}\n'
          + _how_to_supply(project)
      )
    _verified(project, fetched, 'downloaded')
    target = cache / name
    os.replace(fetched, target)
  return target


def upstream_sdist(project: Project) -> pathlib.Path:
  """Returns the verified upstream sdist: a local copy, the cache or pip's.

  Raises:
    ForkBuildError: If it cannot be had or its hash differs from the pin.
  """
  location = os.environ.get(SDIST_ENV_VAR)
  if location:
    path = pathlib.Path(location).expanduser()
    if path.is_dir():
      path = path / sdist_name(project)
    if not path.is_file():
      raise ForkBuildError(
          f'{SDIST_ENV_VAR}={location} does not hold {sdist_name(project)}. '
          + _how_to_supply(project)
      )
    _verified(project, path, 'local copy')
    return path
  cache = _cache_dir()
  cached = cache / sdist_name(project)
  if cached.is_file():
    if _sha256(cached) == sdist_sha256(project):
      return cached
    # A corrupt or foreign file in our own cache is not the user's data.
    cached.unlink()
  return _download(project, cache)


def unpack(sdist: pathlib.Path, target: pathlib.Path) -> None:
  """Unpacks the sdist's files (without its top folder) into `target`.

  Raises:
    ForkBuildError: If a member would land outside `target`.
  """
  target.mkdir(parents=True, exist_ok=True)
  with tarfile.open(sdist) as archive:
    for member in archive.getmembers():
      _, _, relative = member.name.partition('/')
      if not relative or not (member.isfile() or member.isdir()):
        continue
      if (
          relative.startswith('/')
          or '..' in pathlib.PurePosixPath(relative).parts
      ):
        raise ForkBuildError(f'{sdist}: unsafe member path {member.name!r}.')
      destination = target / relative
      if member.isdir():
        destination.mkdir(parents=True, exist_ok=True)
        continue
      destination.parent.mkdir(parents=True, exist_ok=True)
      source = archive.extractfile(member)
      assert source is not None
      destination.write_bytes(source.read())
