"""The one error type the build and the tooling raise for bad input."""

from __future__ import annotations


class ForkBuildError(Exception):
  """Something in the repository or the environment stops the build.

  The message always says what was wrong and how to fix it; the backend and
  the command line print it without a traceback.
  """
