# Copyright 2026 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.


"""How the CLI's doors show a configuration error: one message, no traceback.

``google.adk.diagnostics._configuration_errors.describe`` words the error;
this module only decides how each door shows it: ``adk run`` prints it and
exits with 78, the API server answers the app's requests with it as JSON and
logs it once per app, ``adk check`` prints it instead of a guess about the
folder. Errors that are not about configuration pass through unchanged.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sys
import traceback
from typing import Any
from typing import Awaitable
from typing import Callable
from typing import Iterator
from typing import TYPE_CHECKING

import click

from ..diagnostics._configuration_errors import describe
from ..diagnostics._run_start import logged_recently

if TYPE_CHECKING:
  from fastapi import FastAPI

logger = logging.getLogger('google_adk.' + __name__)

# EX_CONFIG of sysexits.h: the app cannot run as configured. Not 1, a run
# that failed, and not 2, with which `adk run` tells a script that a run
# paused for the client's input.
EXIT_CONFIGURATION_ERROR = 78
# The fault is the app's, on the server, not the request's: a client cannot
# fix it by changing the request, and retrying does not help. The JSON detail
# says what the operator must fix.
HTTP_STATUS = 500


def exits_on_configuration_error(
    command: Callable[..., Any],
) -> Callable[..., Any]:
  """Makes a CLI command print a configuration error and exit with 78.

  The traceback is written to the command's log, and with ``--log_level
  debug`` to stderr as well.

  Args:
    command: The click command's function.

  Returns:
    The wrapped function.
  """

  @functools.wraps(command)
  def wrapper(*args: Any, **kwargs: Any) -> Any:
    try:
      return command(*args, **kwargs)
    except Exception as error:  # pylint: disable=broad-except
      message = describe(error)
      if message is None:
        raise
      logger.error('Configuration error: %s', message, exc_info=True)
      if str(kwargs.get('log_level', '')).lower() == 'debug':
        traceback.print_exception(error)
      click.secho(f'Error: {message}', fg='red', err=True)
      sys.exit(EXIT_CONFIGURATION_ERROR)

  return wrapper


@contextlib.contextmanager
def http_configuration_errors(app_name: str) -> Iterator[None]:
  """Turns a configuration error into an HTTP error with the message.

  The app's requests then answer ``{"detail": message}`` with status 500
  instead of a plain-text ``Internal Server Error``, and the server log holds
  the message once per app (a failed load is retried on every request).

  Args:
    app_name: The app being loaded or given a runner.

  Raises:
    fastapi.HTTPException: For a configuration error.
  """
  try:
    yield
  except Exception as error:  # pylint: disable=broad-except
    message = describe(error)
    if message is None:
      raise
    _log_once(app_name, message, error)
    from fastapi import HTTPException

    raise HTTPException(status_code=HTTP_STATUS, detail=message) from error


def load_error_text(error: Exception, folder: str) -> str:
  """What ``adk check`` prints for a folder whose agent does not load.

  Args:
    error: What loading raised.
    folder: The agent folder.

  Returns:
    The configuration error's message; for another error, the error itself,
    and what the folder must hold only when no agent was found in it.
  """
  message = describe(error)
  if message is not None:
    return f'Error: the agent in {folder} cannot run: {message}'
  text = f'Error: cannot load the agent in {folder}: {error}'
  # The loader raises a ValueError only when it finds no agent; an agent
  # module's own error reaches here as another type.
  if isinstance(error, ValueError):
    text += (
        '\nThe folder must hold an agent.py (or __init__.py, or'
        ' root_agent.yaml) that defines root_agent or an App, as for `adk run`.'
    )
  return text


def add_app_findings_route(
    app: FastAPI, get_runner: Callable[[str], Awaitable[Any]]
) -> None:
  """Adds ``GET /dev/apps/{app_name}/findings`` to the dev server.

  The dev UI shows an app's problems when the app is opened, not only when
  a message is sent: an app that cannot run answers status 500 with the
  message as ``detail`` (as its other requests do), one that runs answers
  the findings its ``Runner`` logs when built (``include_sources`` and
  ``visibility`` mistakes), each as ``Diagnostic.to_dict()``.

  Args:
    app: The FastAPI app of ``adk web``.
    get_runner: Loads an app's runner, raising as the server does for an
      app that cannot run.
  """
  from ..diagnostics._run_start import run_start_findings

  @app.get('/dev/apps/{app_name}/findings')
  async def get_app_findings(app_name: str) -> list[dict[str, Any]]:
    runner = await get_runner(app_name)
    root = getattr(runner, 'agent', None)
    return [finding.to_dict() for finding in run_start_findings(root)]


def _log_once(app_name: str, message: str, error: Exception) -> None:
  if logged_recently((app_name, message)):
    return
  logger.error('App %r cannot run: %s', app_name, message, exc_info=error)
