"""Exports each upstream PR as one `git am`-able patch against upstream."""

from __future__ import annotations

import pathlib
import shutil
import tempfile

from . import git
from . import queue
from . import workspace
from .errors import ForkBuildError
from .project import Project


def _patch_commits(folder: pathlib.Path) -> dict[str, str]:
  """Maps each patch file name to the workspace commit that carries it."""
  commits = {}
  for line in git.run(
      folder, 'log', '--format=%H %s', f'{workspace.UPSTREAM_TAG}..HEAD'
  ).splitlines():
    commit, _, subject = line.partition(' ')
    commits[subject] = commit
  return commits


def _export_one(
    project: Project,
    folder: pathlib.Path,
    pr: queue.PullRequest,
    commits: dict[str, str],
) -> str:
  """Builds the PR as one commit on top of pristine upstream; returns it."""
  git.run(folder, 'checkout', '-q', '-B', f'pr/{pr.id}', workspace.UPSTREAM_TAG)
  for name in pr.patches:
    git.run(folder, 'cherry-pick', '--no-commit', commits[name], check=False)
    if git.run(folder, 'diff', '--name-only', '--diff-filter=U').strip():
      git.run(folder, 'cherry-pick', '--abort', check=False)
      git.run(folder, 'reset', '-q', '--hard', check=False)
      raise ForkBuildError(
          f'PR {pr.id!r}: {name} does not apply to pristine upstream on its'
          ' own: it builds on an earlier patch. Make it independent, or'
          ' merge the two PRs in patches/upstream-prs.toml.'
      )
  for path in pr.modules + pr.tests:
    target = folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(project.root / path, target)
  git.run(folder, 'add', '-A')
  message = f'{pr.subject}\n\n{pr.body}'
  git.run(
      folder,
      'commit',
      '-q',
      '--cleanup=verbatim',
      '-F',
      '-',
      env=git.contributor_identity(project.root),
      input_text=message,
  )
  return git.run(
      folder,
      'format-patch',
      '-1',
      '--stdout',
      '--no-signature',
      '--full-index',
      'HEAD',
  )


def export(
    project: Project, out: pathlib.Path, include_fork_only: bool = False
) -> list[pathlib.Path]:
  """Writes one patch per upstream PR into `out`, checked to apply.

  Args:
    project: The project settings.
    out: The folder to write `NNNN-<pr id>.patch` files to.
    include_fork_only: Also export PRs whose status is `fork-only`.

  Returns:
    The written files.

  Raises:
    ForkBuildError: If a PR does not apply to pristine upstream on its own.
  """
  prs = [
      pr
      for pr in queue.read_manifest(project)
      if pr.for_upstream or include_fork_only
  ]
  out.mkdir(parents=True, exist_ok=True)
  written = []
  with tempfile.TemporaryDirectory() as tmp:
    folder = workspace.materialize(project, pathlib.Path(tmp) / 'work')
    commits = _patch_commits(folder)
    for number, pr in enumerate(prs, start=1):
      text = _export_one(project, folder, pr, commits)
      path = out / f'{number:04d}-{pr.id}.patch'
      path.write_text(text, encoding='utf-8')
      git.run(folder, 'checkout', '-q', '--detach', workspace.UPSTREAM_TAG)
      git.run(folder, 'apply', '--check', str(path.resolve()))
      written.append(path)
  return written
