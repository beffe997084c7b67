"""Exports each upstream PR as one `git am`-able patch against upstream."""

from __future__ import annotations

import ast
import dataclasses
import os
import pathlib
import re
import shutil
import tempfile

from . import git
from . import lint
from . import pr_template
from . import queue
from . import workspace
from .errors import ForkBuildError
from .project import Project

UPSTREAM_TESTS_ENV_VAR = 'ADK_FORK_UPSTREAM_TESTS'

_AUTHOR = re.compile(r'^\s*([^<>]*[^<>\s])\s*<([^<>\s]+@[^<>\s]+)>\s*$')


def resolve_author(
    root: pathlib.Path, author: str | None = None
) -> dict[str, str]:
  """The identity an exported PR is written by, as git's environment.

  Args:
    root: The repository whose git configuration names the contributor.
    author: `Name <email>` from the command line; wins over the
      configuration.

  Returns:
    GIT_AUTHOR_* and GIT_COMMITTER_* variables for the contributor.

  Raises:
    ForkBuildError: If `author` is malformed, or neither it nor
      `git config user.name` / `user.email` names anyone.
  """
  if author is not None:
    match = _AUTHOR.match(author)
    if not match:
      raise ForkBuildError(
          f'--author {author!r} is not `Name <email>`; write it as, e.g.,'
          ' --author "Ada Lovelace <ada@example.com>".'
      )
    name, email = match.group(1), match.group(2)
  else:
    name = git.run(root, 'config', 'user.name', check=False).strip()
    email = git.run(root, 'config', 'user.email', check=False).strip()
    if not name or not email:
      raise ForkBuildError(
          'An exported PR needs its author, and git has no'
          f' {"user.name" if not name else "user.email"} configured in'
          f' {root}. Set it (`git config user.name "Your Name"`, `git config'
          ' user.email you@example.com`) or pass --author "Name <email>".'
      )
  return {
      'GIT_AUTHOR_NAME': name,
      'GIT_AUTHOR_EMAIL': email,
      'GIT_COMMITTER_NAME': name,
      'GIT_COMMITTER_EMAIL': email,
  }


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
    identity: dict[str, str], folder: pathlib.Path, pr: queue.PullRequest
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
          env=identity,
      )
      if git.run(folder, 'diff', '--name-only', '--diff-filter=U').strip():
        git.run(folder, 'cherry-pick', '--abort', check=False)
        raise ForkBuildError(
            f'PR {pr.id!r}: the PRs it depends on ({", ".join(pr.depends_on)})'
            f' do not apply together: {dependency!r} conflicts with the ones'
            ' before it. Make them independent.'
        )


def add_test_functions(upstream_text: str, additions_text: str) -> str:
  """Puts the test functions of `additions_text` into upstream's test file.

  The additions file is a module of its own (license, docstring, imports,
  then helpers and tests). What follows its imports is appended to
  upstream's file; an import upstream's file lacks at module level goes
  after its last top-level import (export then sorts them with isort).

  Args:
    upstream_text: Upstream's test file.
    additions_text: Our file of test functions for it.

  Returns:
    Upstream's file with the additions, ending with one newline.
  """
  additions = ast.parse(additions_text)
  lines = additions_text.splitlines()
  imports = []
  body_start = len(lines)
  for statement in additions.body:
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
      imports.append(
          '\n'.join(lines[statement.lineno - 1 : statement.end_lineno])
      )
      continue
    if (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    ):
      continue
    first = min(
        [statement.lineno]
        + [d.lineno for d in getattr(statement, 'decorator_list', [])]
    )
    body_start = first - 1
    break
  upstream = upstream_text.splitlines()
  tree = ast.parse(upstream_text)
  top_level_imports = [
      s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))
  ]
  # Only the module's own imports count: the same import inside one of
  # upstream's test functions does not bind the name for ours.
  present = {
      ' '.join((ast.get_source_segment(upstream_text, s) or '').split())
      for s in top_level_imports
  }
  missing = [
      text
      for text in imports
      if ' '.join(text.split()) not in present
      and text.strip() != 'from __future__ import annotations'
  ]
  if missing:
    last = max((s.end_lineno or s.lineno for s in top_level_imports), default=0)
    upstream[last:last] = missing
  body = '\n'.join(lines[body_start:]).strip('\n')
  return '\n'.join(upstream).rstrip('\n') + '\n\n\n' + body + '\n'


def _tests_base(
    identity: dict[str, str],
    folder: pathlib.Path,
    pr: queue.PullRequest,
    upstream_tests: pathlib.Path,
) -> str:
  """A branch on the PR's base that holds upstream's test files it adds to."""
  branch = f'upstream-tests/{pr.id}'
  git.run(folder, 'checkout', '-q', '-B', branch, _base(pr))
  for path in pr.upstream_test_additions:
    source = upstream_tests / path
    if not source.is_file():
      raise ForkBuildError(
          f'PR {pr.id!r}: {source} does not exist; point'
          f' {UPSTREAM_TESTS_ENV_VAR} (or --upstream-tests) at a checkout of'
          " upstream's repository that has its tests."
      )
    target = folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
  git.commit_all(folder, "upstream's test files this PR adds to\n", identity)
  return branch


def _export_one(
    project: Project,
    identity: dict[str, str],
    folder: pathlib.Path,
    pr: queue.PullRequest,
    commits: dict[str, str],
    upstream_tests: pathlib.Path | None = None,
) -> tuple[str, str]:
  """Builds the PR as one commit on its base; returns it as a mailbox patch.

  The base is pristine upstream, the PR it depends on (a stacked PR), or all
  the PRs it depends on, applied in the order `depends-on` lists them. With
  `upstream_tests`, a PR with `upstream-test-additions` adds its tests into
  upstream's test files, taken from there, instead of carrying `tests`.

  Returns:
    The patch, and the ref it applies to.
  """
  _prepare_base(identity, folder, pr)
  into_upstream = bool(pr.upstream_test_additions and upstream_tests)
  base = (
      _tests_base(identity, folder, pr, upstream_tests)
      if into_upstream and upstream_tests
      else _base(pr)
  )
  git.run(folder, 'checkout', '-q', '-B', f'pr/{pr.id}', base)
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
  for path in pr.modules + ([] if into_upstream else pr.tests):
    target = folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(project.root / path, target)
  if into_upstream:
    for path, ours in pr.upstream_test_additions.items():
      target = folder / path
      target.write_text(
          add_test_functions(
              target.read_text(encoding='utf-8'),
              (project.root / ours).read_text(encoding='utf-8'),
          ),
          encoding='utf-8',
      )
    # The imports ours adds go where upstream's isort check expects them.
    lint.sort_imports(
        project, [folder / path for path in pr.upstream_test_additions]
    )
  git.commit_all(
      folder,
      pr_template.render_message(
          pr,
          upstream_version=project.upstream_version,
          tests_into_upstream=into_upstream,
      ),
      identity,
  )
  return base, git.run(
      folder,
      'format-patch',
      '-1',
      '--stdout',
      '--no-signature',
      '--full-index',
      'HEAD',
  )


@dataclasses.dataclass
class Exported:
  """What export made of one PR: its patch file, or why there is none."""

  pr: queue.PullRequest
  path: pathlib.Path | None = None
  error: str | None = None
  base: str = ''
  """What the patch applies to: `upstream` (pristine, at the release the
  queue is cut against), `upstream+tests` (with upstream's test files it
  adds to) or the PRs it builds on."""


def export_each(
    project: Project,
    out: pathlib.Path,
    include_fork_only: bool = False,
    author: str | None = None,
    upstream_tests: pathlib.Path | None = None,
) -> list[Exported]:
  """Writes one patch per upstream PR into `out`, checked to apply.

  A PR that cannot be exported is reported in its result, and so is every
  PR that depends on it; the others are still written.

  Args:
    project: The project settings.
    out: The folder to write `NNNN-<pr id>.patch` files to.
    include_fork_only: Also export PRs whose status is `fork-only`.
    author: `Name <email>`; by default the repository's git identity.
    upstream_tests: A checkout of upstream's repository with its tests
      (default: ${UPSTREAM_TESTS_ENV_VAR} when set), for PRs whose tests go
      into upstream's test files.

  Returns:
    One result per exported PR, in manifest order.

  Raises:
    ForkBuildError: If the manifest is malformed, no author can be had, or
      a PR depends on one that is not exported.
  """
  identity = resolve_author(project.root, author)
  if upstream_tests is None and os.environ.get(UPSTREAM_TESTS_ENV_VAR):
    upstream_tests = pathlib.Path(os.environ[UPSTREAM_TESTS_ENV_VAR])
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
  results = []
  failed: set[str] = set()
  with tempfile.TemporaryDirectory() as tmp:
    folder = workspace.materialize(project, pathlib.Path(tmp) / 'work')
    commits = _patch_commits(folder)
    for number, pr in enumerate(prs, start=1):
      broken = [d for d in pr.depends_on if d in failed]
      if broken:
        failed.add(pr.id)
        results.append(
            Exported(
                pr,
                error=(
                    f'PR {pr.id!r} depends on {", ".join(broken)}, which'
                    ' could not be exported.'
                ),
            )
        )
        continue
      try:
        base, text = _export_one(
            project, identity, folder, pr, commits, upstream_tests
        )
      except ForkBuildError as e:
        failed.add(pr.id)
        git.run(folder, 'reset', '-q', '--hard', check=False)
        results.append(Exported(pr, error=str(e)))
        continue
      path = out / f'{number:04d}-{pr.id}.patch'
      path.write_text(text, encoding='utf-8')
      git.run(folder, 'checkout', '-q', '--detach', base)
      git.run(folder, 'apply', '--check', str(path.resolve()))
      results.append(
          Exported(
              pr,
              path=path,
              base=(
                  'upstream+tests'
                  if base.startswith('upstream-tests/')
                  else 'upstream'
                  if base == workspace.UPSTREAM_TAG
                  else base
              ),
          )
      )
  return results


def export(
    project: Project,
    out: pathlib.Path,
    include_fork_only: bool = False,
    author: str | None = None,
    upstream_tests: pathlib.Path | None = None,
) -> list[pathlib.Path]:
  """Writes one patch per upstream PR into `out`, checked to apply.

  Each applies to upstream's v2.13.0, or, for a PR with `depends-on`, on top
  of the patches of the PRs it builds on.

  Args:
    project: The project settings.
    out: The folder to write `NNNN-<pr id>.patch` files to.
    include_fork_only: Also export PRs whose status is `fork-only`.
    author: `Name <email>`; by default the repository's git identity.
    upstream_tests: A checkout of upstream's repository with its tests.

  Returns:
    The written files.

  Raises:
    ForkBuildError: If a PR does not apply to pristine upstream on its own,
      or no author can be had.
  """
  results = export_each(project, out, include_fork_only, author, upstream_tests)
  errors = [r.error for r in results if r.error]
  if errors:
    raise ForkBuildError('\n'.join(errors))
  return [r.path for r in results if r.path]
