"""Fixtures for checks against real servers and pristine upstream.

``postgres_server`` starts a throwaway PostgreSQL server from the operating
system's packages (Debian: ``postgresql``; ``scripts/install-test-services``
installs it) in a temporary folder, listening on a loopback port, and stops it
at the end of the session. Without the server binaries the tests that use it
skip, except under CI (``CI`` set), where they fail.

``upstream_python``, an interpreter with pristine google-adk 2.13.0, comes
from ``tests/conftest.py``, shared with the samples' parity test.
"""

from __future__ import annotations

from collections.abc import Iterator
import dataclasses
import glob
import os
from pathlib import Path
import pwd
import shutil
import subprocess
import tempfile
import uuid

from _adk_process import free_port
import pytest

_REPO = Path(__file__).resolve().parents[2]
_SERVER_TIMEOUT_S = 120
_INSTALL_HINT = (
    'Install the PostgreSQL server binaries with scripts/install-test-services'
    ' (Debian/Ubuntu: apt-get install postgresql) or put pg_ctl on PATH.'
)


def _missing(reason: str) -> None:
  """Skips outside CI; under CI a missing service is a failure."""
  if os.environ.get('CI'):
    pytest.fail(f'{reason} {_INSTALL_HINT}', pytrace=False)
  pytest.skip(f'{reason} {_INSTALL_HINT}')


def _postgres_bin_dir() -> Path | None:
  on_path = shutil.which('pg_ctl')
  if on_path:
    return Path(on_path).resolve().parent
  found = sorted(
      glob.glob('/usr/lib/postgresql/*/bin/pg_ctl'),
      key=lambda p: int(Path(p).parts[-3])
      if Path(p).parts[-3].isdigit()
      else 0,
  )
  return Path(found[-1]).parent if found else None


@dataclasses.dataclass(frozen=True)
class PostgresServer:
  """A running server; ``new_database()`` returns a SQLAlchemy async URL."""

  bin_dir: Path
  port: int

  def new_database(self) -> str:
    name = 'adk_' + uuid.uuid4().hex[:12]
    subprocess.run(
        [
            str(self.bin_dir / 'createdb'),
            '--host=127.0.0.1',
            f'--port={self.port}',
            '--username=postgres',
            name,
        ],
        check=True,
        capture_output=True,
        timeout=_SERVER_TIMEOUT_S,
    )
    return f'postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}'


@pytest.fixture(scope='session')
def postgres_server() -> Iterator[PostgresServer]:
  bin_dir = _postgres_bin_dir()
  if bin_dir is None:
    _missing('PostgreSQL is not installed (no pg_ctl).')
  # The server refuses to run as root: run it as an unprivileged user.
  as_user: list[str] = []
  owner = None
  if os.geteuid() == 0:
    for name in ('postgres', 'nobody'):
      try:
        owner = pwd.getpwnam(name)
        break
      except KeyError:
        continue
    if owner is None or not shutil.which('runuser'):
      _missing('Running as root, and no unprivileged user to run postgres.')
    as_user = ['runuser', '-u', owner.pw_name, '--']
  root = Path(tempfile.mkdtemp(prefix='adk-postgres-'))
  data, log = root / 'data', root / 'server.log'
  if owner is not None:
    os.chown(root, owner.pw_uid, owner.pw_gid)
  port = free_port()

  def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        as_user + list(command),
        capture_output=True,
        text=True,
        timeout=_SERVER_TIMEOUT_S,
        check=False,
    )

  try:
    initdb = run(
        str(bin_dir / 'initdb'),
        f'--pgdata={data}',
        '--username=postgres',
        '--auth=trust',
        '--encoding=UTF8',
        '--no-sync',
    )
    if initdb.returncode != 0:
      _missing(f'initdb failed:\n{initdb.stdout}{initdb.stderr}')
    started = run(
        str(bin_dir / 'pg_ctl'),
        f'--pgdata={data}',
        f'--log={log}',
        '--wait',
        f'--timeout={_SERVER_TIMEOUT_S}',
        # Loopback only, sockets in the temp folder, no fsync: a test server.
        f'--options=-h 127.0.0.1 -p {port} -k {root} -F',
        'start',
    )
    if started.returncode != 0:
      server_log = log.read_text(errors='replace') if log.exists() else ''
      _missing(
          f'pg_ctl start failed:\n{started.stdout}{started.stderr}{server_log}'
      )
    yield PostgresServer(bin_dir=bin_dir, port=port)
  finally:
    if (data / 'postmaster.pid').exists():
      run(str(bin_dir / 'pg_ctl'), f'--pgdata={data}', '-m', 'fast', 'stop')
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def child_env() -> dict[str, str]:
  """The environment for a child interpreter.

  No Google credentials or ADK feature switches (a test session may have set
  some), and nothing that points the child at this source tree.
  """
  env = {
      key: value
      for key, value in os.environ.items()
      if not key.startswith(('GOOGLE_', 'GEMINI_', 'ADK_'))
      and key not in ('PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP')
  }
  env['PYTHONWARNINGS'] = 'ignore'
  return env
