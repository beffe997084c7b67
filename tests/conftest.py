"""Makes sure the tests exercise the installed fork, never the source folder."""

from __future__ import annotations

import pathlib

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
