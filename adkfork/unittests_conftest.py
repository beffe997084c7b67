"""A stand-in for upstream's tests/unittests/conftest.py, for the gate.

Upstream's unit tests run beside a conftest that the release's sdist does not
ship. The gate copies this file to `tests/unittests/conftest.py` of the tree
it tests, so a PR's tests meet the same conditions they will meet upstream:

- for the whole session, fake Google credentials and project settings, work
  in progress and experimental features enabled without warnings, and the
  Gemini Developer API (not Vertex AI) selected; the previous values come
  back when the session ends;
- an `env_variables` fixture that runs a test once per backend (Gemini
  Developer API and Vertex AI) when the test asks for it, unless the test
  parametrizes it itself;
- every test fails if it leaves a `mock.patch(...).start()` running, since
  such a patch leaks into every later test.

`ADK_UPSTREAM_CONFTEST` names the real file instead, for contributors who
have it.
"""

from __future__ import annotations

import os
from typing import Iterator
from unittest import mock

import pytest

_SESSION_SETTINGS = {
    'GOOGLE_API_KEY': 'fake_google_api_key',
    'GOOGLE_CLOUD_PROJECT': 'fake_google_cloud_project',
    'GOOGLE_CLOUD_LOCATION': 'fake_google_cloud_location',
    'ADK_ALLOW_WIP_FEATURES': 'true',
    'ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS': 'true',
}
_BACKENDS = {
    'GOOGLE_AI': {'GOOGLE_GENAI_USE_ENTERPRISE': '0'},
    'VERTEX': {'GOOGLE_GENAI_USE_ENTERPRISE': '1'},
}
_saved_environment: dict[str, str | None] = {}


def _apply(settings: dict[str, str]) -> dict[str, str | None]:
  """Sets environment variables; returns what they were before."""
  previous = {name: os.environ.get(name) for name in settings}
  os.environ.update(settings)
  return previous


def _restore(previous: dict[str, str | None]) -> None:
  for name, value in previous.items():
    if value is None:
      os.environ.pop(name, None)
    else:
      os.environ[name] = value


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
  del session  # The settings are process-wide.
  # Modules read these at import time, before any fixture runs.
  _saved_environment.update(
      _apply({**_SESSION_SETTINGS, **_BACKENDS['GOOGLE_AI']})
  )


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
  del session
  _restore(_saved_environment)
  _saved_environment.clear()


def _parametrizes_itself(metafunc: pytest.Metafunc, name: str) -> bool:
  return any(
      mark.args and mark.args[0] == name
      for mark in metafunc.definition.iter_markers('parametrize')
  )


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
  name = 'env_variables'
  if name in metafunc.fixturenames and not _parametrizes_itself(metafunc, name):
    metafunc.parametrize(name, list(_BACKENDS), indirect=True)


@pytest.fixture
def env_variables(request: pytest.FixtureRequest) -> Iterator[None]:
  """Selects one backend (`GOOGLE_AI` or `VERTEX`) for the test."""
  previous = _apply({**_SESSION_SETTINGS, **_BACKENDS[request.param]})
  yield
  _restore(previous)


def _started_patches() -> list[object] | None:
  # unittest.mock keeps the patches started with start() and not yet
  # stopped in this list (the one patch.stopall() empties). It is private:
  # without it the check cannot run, and tests are not failed for that.
  return getattr(getattr(mock, '_patch', None), '_active_patches', None)


def _name_of(patcher: object) -> str:
  target = getattr(patcher, 'target', None)
  attribute = getattr(patcher, 'attribute', None)
  if target is None or attribute is None:
    in_dict = getattr(patcher, 'in_dict', None)
    return f'patch.dict({type(in_dict).__name__})'
  return f'{getattr(target, "__name__", repr(target))}.{attribute}'


@pytest.fixture(autouse=True)
def _fail_on_unstopped_patches(
    request: pytest.FixtureRequest,
) -> Iterator[None]:
  """Fails a test that leaves a started mock patch in place.

  Conftest autouse fixtures are torn down after the test's own teardown
  (teardown methods, addCleanup, the mocker fixture), so anything still
  started here was forgotten.
  """
  started = _started_patches()
  if started is None:
    yield
    return
  before = list(started)
  yield
  # Patchers compare by identity; `before` keeps them alive meanwhile.
  leaked = [patcher for patcher in started if patcher not in before]
  if not leaked:
    return
  names = ', '.join(_name_of(patcher) for patcher in leaked)
  for patcher in reversed(leaked):
    try:
      patcher.stop()  # type: ignore[attr-defined]
    except Exception:  # pylint: disable=broad-exception-caught
      pass  # Undo as many as possible; the failure below says what leaked.
  pytest.fail(
      f'{request.node.nodeid} left {len(leaked)} started mock patch(es)'
      f' in place: {names}. Stop each patch the test starts (addCleanup,'
      ' a teardown, the mocker fixture, or patch() as a context manager or'
      ' decorator). They have been stopped for the tests that follow.',
      pytrace=False,
  )
