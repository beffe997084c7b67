"""Runs an ``adk`` server command (``api_server``, ``web``) as a real process.

Shared by the tests that check the installed console script, uvicorn and the
server end to end: the server listens on a free loopback port, its output goes
to a log file that a failure prints, and it is stopped when the block ends.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import os
from pathlib import Path
import shutil
import socket
import subprocess
import sys
import time

import httpx
import pytest

_STARTUP_TIMEOUT_S = 120
_SHUTDOWN_TIMEOUT_S = 15


def adk_command() -> list[str]:
  """The ``adk`` console script when installed, else the CLI module."""
  script = Path(sys.executable).with_name(
      'adk.exe' if os.name == 'nt' else 'adk'
  )
  if script.exists():
    return [str(script)]
  found = shutil.which('adk', path=str(Path(sys.executable).parent))
  if found:
    return [found]
  return [sys.executable, '-m', 'google.adk.cli']


def free_port() -> int:
  with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
    sock.bind(('127.0.0.1', 0))
    return sock.getsockname()[1]


@contextlib.contextmanager
def serving(
    arguments: list[str], *, workdir: Path, env: dict[str, str] | None = None
) -> Iterator[str]:
  """Runs ``adk <arguments> --host=127.0.0.1 --port=N`` until the block ends.

  Args:
    arguments: The subcommand and its options, without host and port.
    workdir: The process's working directory; its log is written there.
    env: Variables to set on top of the test's environment, from which the
      model credentials are removed so that nothing reaches a real model.

  Yields:
    The server's base URL, once ``/list-apps`` answers.
  """
  port = free_port()
  log_path = workdir / f'adk_{arguments[0]}.log'
  process_env = {
      k: v
      for k, v in os.environ.items()
      if k != 'PYTHONSTARTUP' and not k.startswith(('GOOGLE_', 'GEMINI_'))
  }
  process_env['PYTHONWARNINGS'] = 'ignore::DeprecationWarning'
  process_env.update(env or {})
  with log_path.open('wb') as log:
    process = subprocess.Popen(
        adk_command() + arguments + ['--host=127.0.0.1', f'--port={port}'],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=workdir,
        env=process_env,
    )
  try:
    base_url = f'http://127.0.0.1:{port}'
    _wait_until_serving(process, base_url, log_path, arguments[0])
    yield base_url
  finally:
    process.terminate()
    try:
      process.wait(timeout=_SHUTDOWN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
      process.kill()
      process.wait(timeout=_SHUTDOWN_TIMEOUT_S)


def _wait_until_serving(
    process: subprocess.Popen[bytes], base_url: str, log_path: Path, name: str
) -> None:
  deadline = time.monotonic() + _STARTUP_TIMEOUT_S
  while time.monotonic() < deadline:
    if process.poll() is not None:
      pytest.fail(
          f'adk {name} exited with {process.returncode}:\n'
          + log_path.read_text(errors='replace')
      )
    try:
      if httpx.get(f'{base_url}/list-apps', timeout=2).status_code == 200:
        return
    except httpx.TransportError:
      pass
    time.sleep(0.2)
  pytest.fail(
      f'adk {name} did not answer within {_STARTUP_TIMEOUT_S}s:\n'
      + log_path.read_text(errors='replace')
  )
