"""Runs git with settings fixed, so generated diffs are the same everywhere."""

from __future__ import annotations

import os
import pathlib
import subprocess

from .errors import ForkBuildError

# A user's git configuration must not change the bytes of a generated patch.
_FIXED_CONFIG = (
    'core.quotepath=off',
    'core.autocrlf=false',
    'diff.noprefix=false',
    'diff.mnemonicprefix=false',
    'diff.renames=false',
    'diff.algorithm=myers',
    'diff.context=3',
    'commit.gpgsign=false',
    'tag.gpgsign=false',
    'init.defaultBranch=main',
    'advice.detachedHead=false',
)
TOOL_IDENTITY = {
    'GIT_AUTHOR_NAME': 'adkfork',
    'GIT_AUTHOR_EMAIL': 'adkfork@localhost',
    'GIT_COMMITTER_NAME': 'adkfork',
    'GIT_COMMITTER_EMAIL': 'adkfork@localhost',
    'GIT_AUTHOR_DATE': '2026-01-01T00:00:00+00:00',
    'GIT_COMMITTER_DATE': '2026-01-01T00:00:00+00:00',
}


def run(
    folder: pathlib.Path,
    *args: str,
    env: dict[str, str] | None = None,
    check: bool = True,
    input_text: str | None = None,
) -> str:
  """Runs `git ARGS` in a folder and returns its standard output.

  Raises:
    ForkBuildError: If git is missing, or exits non-zero while `check`.
  """
  command = ['git']
  for setting in _FIXED_CONFIG:
    command += ['-c', setting]
  command += list(args)
  try:
    result = subprocess.run(
        command,
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        input=input_text,
    )
  except FileNotFoundError as e:
    raise ForkBuildError(
        'git is not installed; the contributor tooling needs it.'
    ) from e
  if check and result.returncode != 0:
    raise ForkBuildError(
        f'`git {" ".join(args)}` failed in {folder}:\n{result.stderr.strip()}'
    )
  return result.stdout


def commit_all(
    folder: pathlib.Path, message: str, identity: dict[str, str]
) -> None:
  """Commits the whole work tree, empty or not, with `message` verbatim."""
  run(folder, 'add', '-A')
  run(
      folder,
      'commit',
      '-q',
      '--allow-empty',
      '--cleanup=verbatim',
      '-F',
      '-',
      env=identity,
      input_text=message,
  )
