"""Makes sure the tests exercise the installed fork, never the source folder.

This file is in no package, so pytest puts this folder on ``sys.path``: the
fork-only test folders import the helper they share, ``_scripted``, from here.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

_REPO = pathlib.Path(__file__).resolve().parent.parent


def pytest_configure(config):
  import google.adk

  location = pathlib.Path(google.adk.__file__).parent
  if location.resolve() == (_REPO / 'src' / 'google' / 'adk').resolve():
    raise pytest.UsageError(
        'google.adk was imported from the overlay folder src/, not from the'
        ' installed fork. Install it (`pip install .` or `pip install -e .`)'
        ' and do not put src/ on sys.path.'
    )


@pytest.fixture(scope='session')
def upstream_python() -> str:
  """An interpreter that imports pristine google-adk 2.13.0.

  ``$ADK_UPSTREAM_PYTHON`` when set (``scripts/test`` sets it), otherwise the
  pristine environment ``python -m adkfork upstream-venv`` makes once.
  """
  configured = os.environ.get('ADK_UPSTREAM_PYTHON')
  if configured:
    return configured
  result = subprocess.run(
      [sys.executable, '-m', 'adkfork', 'upstream-venv'],
      cwd=_REPO,
      capture_output=True,
      text=True,
      timeout=900,
      check=False,
  )
  assert result.returncode == 0, result.stderr
  return result.stdout.strip()
