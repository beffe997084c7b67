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


def _base(pr: queue.PullRequest) -> str:
  if len(pr.depends_on) > 1:
    return f'base/{pr.id}'
  return f'pr/{pr.depends_on[0]}' if pr.depends_on else workspace.UPSTREAM_TAG


def _prepare_base(
    project: Project, folder: pathlib.Path, pr: queue.PullRequest
) -> None:
  """Builds the base of a PR stacked on several PRs: all of them, in order.

  The first dependency's branch, plus the commits of each further dependency
  that it does not already hold (a shared ancestor PR is applied once).
  """
  if len(pr.depends_on) <= 1:
    return
  first, *others = pr.depends_on
  git.run(folder, 'checkout', '-q', '-B', _base(pr), f'pr/{first}')
  for dependency in others:
    missing = git.run(
        folder, 'rev-list', '--reverse', f'{_base(pr)}..pr/{dependency}'
    ).split()
    for commit in missing:
      git.run(
          folder,
          'cherry-pick',
          '--allow-empty',
          commit,
          check=False,
          env=git.contributor_identity(project.root),
      )
      if git.run(folder, 'diff', '--name-only', '--diff-filter=U').strip():
        git.run(folder, 'cherry-pick', '--abort', check=False)
        raise ForkBuildError(
            f'PR {pr.id!r}: the PRs it depends on ({", ".join(pr.depends_on)})'
            f' do not apply together: {dependency!r} conflicts with the ones'
            ' before it. Make them independent.'
        )


def _export_one(
    project: Project,
    folder: pathlib.Path,
    pr: queue.PullRequest,
    commits: dict[str, str],
) -> str:
  """Builds the PR as one commit on its base; returns it as a mailbox patch.

  The base is pristine upstream, the PR it depends on (a stacked PR), or all
  the PRs it depends on, applied in the order `depends-on` lists them.
  """
  _prepare_base(project, folder, pr)
  git.run(folder, 'checkout', '-q', '-B', f'pr/{pr.id}', _base(pr))
  for name in pr.patches:
    git.run(folder, 'cherry-pick', '--no-commit', commits[name], check=False)
    if git.run(folder, 'diff', '--name-only', '--diff-filter=U').strip():
      git.run(folder, 'cherry-pick', '--abort', check=False)
      git.run(folder, 'reset', '-q', '--hard', check=False)
      raise ForkBuildError(
          f'PR {pr.id!r}: {name} does not apply to {_base(pr)}: it builds on'
          ' an earlier patch. Make it independent, declare the PR it builds'
          ' on with `depends-on` in patches/upstream-prs.toml, or merge the'
          ' two PRs.'
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

  Each applies to upstream's v2.13.0, or, for a PR with `depends-on`, on top
  of the patch of the PR it builds on.

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
  exported = {pr.id for pr in prs}
  for pr in prs:
    for dependency in pr.depends_on:
      if dependency not in exported:
        raise ForkBuildError(
            f'PR {pr.id!r} depends on {dependency!r}, which is not exported'
            ' (a fork-only PR cannot carry an upstream one).'
        )
  out.mkdir(parents=True, exist_ok=True)
  written = []
  with tempfile.TemporaryDirectory() as tmp:
    folder = workspace.materialize(project, pathlib.Path(tmp) / 'work')
    commits = _patch_commits(folder)
    for number, pr in enumerate(prs, start=1):
      text = _export_one(project, folder, pr, commits)
      path = out / f'{number:04d}-{pr.id}.patch'
      path.write_text(text, encoding='utf-8')
      git.run(folder, 'checkout', '-q', '--detach', _base(pr))
      git.run(folder, 'apply', '--check', str(path.resolve()))
      written.append(path)
  return written
