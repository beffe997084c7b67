"""Gets the pinned upstream wheel and checks it is the one we pinned."""

from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import sys
import tempfile
import zipfile

from .errors import ForkBuildError
from .project import Project

# Where a local copy of the upstream wheel can be named, for offline builds.
WHEEL_ENV_VAR = 'ADK_FORK_UPSTREAM_WHEEL'
WHEEL_CONFIG_SETTING = 'upstream-wheel'
CACHE_ENV_VAR = 'ADK_FORK_CACHE'


def _sha256(path: pathlib.Path) -> str:
  digest = hashlib.sha256()
  with path.open('rb') as f:
    for block in iter(lambda: f.read(1 << 20), b''):
      digest.update(block)
  return digest.hexdigest()


def _cache_dir() -> pathlib.Path:
  if os.environ.get(CACHE_ENV_VAR):
    return pathlib.Path(os.environ[CACHE_ENV_VAR])
  base = os.environ.get('XDG_CACHE_HOME') or pathlib.Path.home() / '.cache'
  return pathlib.Path(base) / 'google-adk-fork'


def _how_to_supply(project: Project) -> str:
  return (
      f'Download {project.upstream_wheel} (google-adk=='
      f'{project.upstream_version} from the package index, e.g. `pip download'
      f' --no-deps --only-binary :all: google-adk=={project.upstream_version}`)'
      f' and point {WHEEL_ENV_VAR} at it, or pass it as the PEP 517 config'
      f' setting `{WHEEL_CONFIG_SETTING}` (pip install .'
      f' --config-settings {WHEEL_CONFIG_SETTING}=PATH).'
  )


def _verified(
    project: Project, path: pathlib.Path, origin: str
) -> pathlib.Path:
  actual = _sha256(path)
  if actual != project.upstream_sha256:
    raise ForkBuildError(
        f'{path} ({origin}) is not the pinned upstream release:'
        f' expected sha256 {project.upstream_sha256} for'
        f' {project.upstream_wheel}, got {actual}. '
        + _how_to_supply(project)
    )
  return path


def _from_local_copy(project: Project, location: str) -> pathlib.Path:
  path = pathlib.Path(location).expanduser()
  if path.is_dir():
    path = path / project.upstream_wheel
  if not path.is_file():
    raise ForkBuildError(
        f'{location} (from {WHEEL_ENV_VAR} or the `{WHEEL_CONFIG_SETTING}`'
        f' config setting) does not hold {project.upstream_wheel}. '
        + _how_to_supply(project)
    )
  return _verified(project, path, 'local copy')


def _download(project: Project, cache: pathlib.Path) -> pathlib.Path:
  """Fetches the wheel by name with pip, so pip's index settings apply."""
  cache.mkdir(parents=True, exist_ok=True)
  with tempfile.TemporaryDirectory(dir=cache) as tmp:
    command = [
        sys.executable,
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary',
        ':all:',
        '--disable-pip-version-check',
        '--dest',
        tmp,
        f'google-adk=={project.upstream_version}',
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    fetched = pathlib.Path(tmp) / project.upstream_wheel
    if result.returncode != 0 or not fetched.is_file():
      tail = '\n'.join((result.stderr or result.stdout).splitlines()[-5:])
      raise ForkBuildError(
          f'Could not download {project.upstream_wheel} (sha256'
          f' {project.upstream_sha256}) from the package index:\n{tail}\n'
          + _how_to_supply(project)
      )
    _verified(project, fetched, 'downloaded')
    target = cache / project.upstream_wheel
    os.replace(fetched, target)
  return target


def needs_download(
    project: Project, config_settings: dict[str, str] | None = None
) -> bool:
  """Whether `upstream_wheel` will have to fetch the wheel from the index."""
  if (config_settings or {}).get(WHEEL_CONFIG_SETTING) or os.environ.get(
      WHEEL_ENV_VAR
  ):
    return False
  cached = _cache_dir() / project.upstream_wheel
  return not (cached.is_file() and _sha256(cached) == project.upstream_sha256)


def upstream_wheel(
    project: Project, config_settings: dict[str, str] | None = None
) -> pathlib.Path:
  """Returns the path of the verified upstream wheel, fetching it if needed.

  A local copy named by the config setting or the environment wins; then the
  cache; then the package index.

  Args:
    project: The project settings with the pin.
    config_settings: PEP 517 config settings, if any.

  Returns:
    A path to a wheel whose sha256 matches the pin.

  Raises:
    ForkBuildError: If the artifact is missing or its hash differs.
  """
  location = (config_settings or {}).get(WHEEL_CONFIG_SETTING) or (
      os.environ.get(WHEEL_ENV_VAR)
  )
  if location:
    return _from_local_copy(project, location)
  cache = _cache_dir()
  cached = cache / project.upstream_wheel
  if cached.is_file():
    if _sha256(cached) == project.upstream_sha256:
      return cached
    # A corrupt or foreign file in our own cache is not the user's data.
    cached.unlink()
  return _download(project, cache)


def read_upstream(wheel: pathlib.Path) -> dict[str, bytes]:
  """Reads every file of the upstream wheel into memory.

  Args:
    wheel: The verified upstream wheel.

  Returns:
    A mapping from the wheel's paths (`google/adk/...` and the dist-info
    files) to their bytes.
  """
  with zipfile.ZipFile(wheel) as archive:
    return {
        info.filename: archive.read(info)
        for info in archive.infolist()
        if not info.is_dir()
    }


UPSTREAM_PYTHON_ENV_VAR = 'ADK_UPSTREAM_PYTHON'
_VENV_MARKER = 'adkfork-upstream.sha256'


def _venv_python(venv: pathlib.Path) -> pathlib.Path:
  if os.name == 'nt':
    return venv / 'Scripts' / 'python.exe'
  return venv / 'bin' / 'python'


def _dependency_pins(python: str) -> str:
  """``name==version`` for what ``python``'s environment has, but google-adk.

  Local versions (``+...``) are left out: the index does not have them.
  """
  listed = subprocess.run(
      [
          python,
          '-c',
          (
              'import importlib.metadata as m\n'
              'for d in m.distributions():\n'
              '  print(d.metadata["Name"], d.version)'
          ),
      ],
      capture_output=True,
      text=True,
      check=True,
  ).stdout.split('\n')
  pins = set()
  for line in listed:
    name, _, version = line.partition(' ')
    if (
        name
        and name.lower() not in ('google-adk', 'pip')
        and '+' not in version
    ):
      pins.add(f'{name}=={version}')
  return ''.join(f'{pin}\n' for pin in sorted(pins))


def _pip_install(python: pathlib.Path, *args: str) -> str | None:
  """Runs pip install; returns the tail of its output on failure."""
  result = subprocess.run(
      [
          str(python),
          '-m',
          'pip',
          'install',
          '--quiet',
          '--disable-pip-version-check',
          *args,
      ],
      capture_output=True,
      text=True,
  )
  if result.returncode == 0:
    return None
  return '\n'.join((result.stderr or result.stdout).splitlines()[-5:])


def upstream_venv(
    project: Project, *, dependencies_of: str | None = None
) -> pathlib.Path:
  """Returns the python of a virtual environment with pristine upstream.

  Benchmarks and cross-version tests compare the fork with exactly the
  release it patches: the environment, ``.venv-upstream-<version>/`` at the
  top of the repository, holds the verified upstream wheel. It is made on
  first use and reused while its marker names the pinned sha256 and, with
  `dependencies_of`, what that interpreter has installed.

  Args:
    project: The project settings with the pin.
    dependencies_of: An interpreter (normally the fork's) whose installed
      distributions, at their versions, are installed beside upstream, so
      that only google-adk differs between the two: libraries import what is
      installed (google-genai imports aiohttp and Pillow when they are
      there), and a process with more modules pays more for each garbage
      collection. If they cannot all be installed, upstream's own
      dependencies are pinned to their versions; failing that, resolved
      afresh.

  Returns:
    The path of the environment's python interpreter.

  Raises:
    ForkBuildError: If the wheel cannot be had or the install fails.
  """
  venv = project.root / f'.venv-upstream-{project.upstream_version}'
  python = _venv_python(venv)
  marker = venv / _VENV_MARKER
  pins = _dependency_pins(dependencies_of) if dependencies_of else ''
  made_for = project.upstream_sha256 + '\n'
  if pins:
    made_for += hashlib.sha256(pins.encode()).hexdigest() + '\n'
  if python.is_file() and marker.is_file() and marker.read_text() == made_for:
    return python
  wheel = upstream_wheel(project)
  print(
      f'making {venv.name}/ with pristine google-adk {project.upstream_version}'
      + (' and the same other distributions as this one' if pins else ''),
      file=sys.stderr,
  )
  result = subprocess.run(
      [sys.executable, '-m', 'venv', '--clear', str(venv)],
      capture_output=True,
      text=True,
  )
  failure = result.stderr if result.returncode else None
  if failure is None and pins:
    with tempfile.TemporaryDirectory() as tmp:
      pinned = pathlib.Path(tmp) / 'pins.txt'
      pinned.write_text(pins)
      failure = _pip_install(python, str(wheel), '-r', str(pinned))
      if failure is not None:
        failure = _pip_install(python, str(wheel), '-c', str(pinned))
    if failure is not None:
      failure = _pip_install(python, str(wheel))
  elif failure is None:
    failure = _pip_install(python, str(wheel))
  if failure is not None:
    raise ForkBuildError(
        f'Could not set up pristine google-adk {project.upstream_version}'
        f' in {venv}:\n{failure}'
    )
  marker.write_text(made_for)
  return python


def upstream_python(project: Project) -> str:
  """The interpreter to compare the fork with: pristine upstream.

  ``ADK_UPSTREAM_PYTHON`` names one explicitly; otherwise it is the
  environment ``upstream_venv`` makes, with dependencies pinned to those of
  the interpreter running this code.

  Args:
    project: The project settings with the pin.

  Returns:
    The path of a python interpreter that imports pristine upstream.

  Raises:
    ForkBuildError: If ``ADK_UPSTREAM_PYTHON`` is not an interpreter, or the
      environment cannot be made.
  """
  configured = os.environ.get(UPSTREAM_PYTHON_ENV_VAR)
  if configured:
    if not os.access(configured, os.X_OK):
      raise ForkBuildError(
          f'{UPSTREAM_PYTHON_ENV_VAR}={configured} is not an executable'
          ' python interpreter; unset it to have one made.'
      )
    return configured
  return str(upstream_venv(project, dependencies_of=sys.executable))
