"""A pytest plugin the gate loads into a PR's test run.

It makes two promises of the run hold, and fails the run loudly when one
cannot:

- `google.adk` is imported from the tree under test (named by
  `ADKFORK_GATE_TREE`), not from the pristine package installed beside it;
- nothing reaches the network: connections to anything but the loopback
  interface and name lookups of anything but local names raise OSError.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import pathlib
import socket

import pytest

TREE_ENV_VAR = 'ADKFORK_GATE_TREE'
_LOCAL_NAMES = frozenset({'localhost', 'localhost.localdomain', ''})


def _is_local(host: object) -> bool:
  if isinstance(host, bytes):
    host = host.decode('ascii', 'replace')
  if not isinstance(host, str):
    return False
  if host.lower() in _LOCAL_NAMES:
    return True
  try:
    return ipaddress.ip_address(host.split('%')[0]).is_loopback
  except ValueError:
    return False


def _refuse(what: str) -> OSError:
  return OSError(f'network access is off in the gate: {what}')


def _block_network() -> None:
  real_connect = socket.socket.connect
  real_connect_ex = socket.socket.connect_ex
  real_getaddrinfo = socket.getaddrinfo

  def connect(self: socket.socket, address: object) -> None:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(
        address[0] if isinstance(address, tuple) else address
    ):
      raise _refuse(f'connect to {address!r}')
    real_connect(self, address)  # type: ignore[arg-type]

  def connect_ex(self: socket.socket, address: object) -> int:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(
        address[0] if isinstance(address, tuple) else address
    ):
      raise _refuse(f'connect to {address!r}')
    return real_connect_ex(self, address)  # type: ignore[arg-type]

  def getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    if host is not None and not _is_local(host):
      raise socket.gaierror(
          socket.EAI_NONAME, f'network access is off in the gate: {host!r}'
      )
    return real_getaddrinfo(host, *args, **kwargs)

  socket.socket.connect = connect  # type: ignore[method-assign]
  socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
  socket.getaddrinfo = getaddrinfo


def pytest_configure(config: pytest.Config) -> None:
  del config
  tree = os.environ.get(TREE_ENV_VAR)
  if not tree:
    raise pytest.UsageError(f'{TREE_ENV_VAR} is not set: run by the gate.')
  # Locate without importing: google.adk must first be imported after the
  # conftest has set up the environment, as in upstream's runs.
  spec = importlib.util.find_spec('google.adk')
  if spec is None or not spec.origin:
    raise pytest.UsageError('google.adk cannot be imported in the gate run.')
  location = pathlib.Path(spec.origin).resolve()
  source = (pathlib.Path(tree) / 'src').resolve()
  if not location.is_relative_to(source):
    raise pytest.UsageError(
        f'google.adk was imported from {location}, not from the tree under'
        f' test ({source}): the tests would check the wrong code. Put'
        f' {source} first on PYTHONPATH.'
    )
  _block_network()
