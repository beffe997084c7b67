"""Materialize, refresh and export: the contributor's patch workflow."""

from __future__ import annotations

import pathlib
import subprocess

import pytest

from adkfork import export
from adkfork import git
from adkfork import project as project_lib
from adkfork import tree
from adkfork import workspace
from adkfork.errors import ForkBuildError


def _snapshot(repo: pathlib.Path) -> dict[str, bytes]:
  return {
      p.relative_to(repo).as_posix(): p.read_bytes()
      for folder in ('patches', 'src')
      for p in sorted((repo / folder).rglob('*'))
      if p.is_file()
  }


def _commit_all(folder: pathlib.Path, *args: str) -> None:
  git.run(folder, 'add', '-A')
  git.run(folder, 'commit', '-q', *args, env=git.TOOL_IDENTITY)


def _amend_version_patch(folder: pathlib.Path, line: str) -> None:
  """Edits version.py in the workspace and folds it into its patch commit."""
  version_py = folder / 'src/google/adk/version.py'
  version_py.write_text(version_py.read_text() + line)
  _commit_all(folder, '--amend', '--no-edit')


def _pristine_upstream_repo(
    project: project_lib.Project, folder: pathlib.Path
) -> pathlib.Path:
  """A git repository laid out like upstream's at the pinned release."""
  pristine, _ = tree.pristine_files(project)
  for path, data in pristine.items():
    target = folder / 'src' / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
  git.run(folder, 'init', '-q')
  _commit_all(folder, '-m', 'v2.13.0')
  return folder


def test_materialize_then_refresh_leaves_the_queue_byte_identical(minimal_repo):
  project = project_lib.load_project(minimal_repo)
  before = _snapshot(minimal_repo)

  folder = workspace.materialize(project)
  result = workspace.refresh(project)

  assert result.changed == []
  assert _snapshot(minimal_repo) == before
  log = git.run(folder, 'log', '--format=%s', '--reverse').splitlines()
  assert log[0].startswith('google-adk 2.13.0 (pristine)')
  assert log[1:] == project.series_file.read_text().split()


def test_amending_a_patch_commit_rewrites_that_patch(minimal_repo):
  project = project_lib.load_project(minimal_repo)
  folder = workspace.materialize(project)
  _amend_version_patch(folder, '# amended\n')

  result = workspace.refresh(project)

  assert result.changed == ['patches/0001-fork-version-label.patch']
  patch = (minimal_repo / 'patches/0001-fork-version-label.patch').read_text()
  assert '+# amended\n' in patch
  assert patch.startswith('Description: Label the installed package')


def test_a_new_commit_becomes_a_new_patch_and_its_new_module_overlay(
    minimal_repo,
):
  project = project_lib.load_project(minimal_repo)
  folder = workspace.materialize(project)
  runners = folder / 'src/google/adk/runners.py'
  runners.write_text(runners.read_text() + '\n# touched\n')
  (folder / 'src/google/adk/brand_new.py').write_text('VALUE = 1\n')
  _commit_all(folder, '-m', 'Add a thing', '-m', 'Forwarded: not yet sent')

  result = workspace.refresh(project)

  assert 'patches/0002-add-a-thing.patch' in result.changed
  assert (minimal_repo / 'patches/series').read_text().split() == [
      '0001-fork-version-label.patch',
      '0002-add-a-thing.patch',
  ]
  text = (minimal_repo / 'patches/0002-add-a-thing.patch').read_text()
  assert text.startswith('Description: Add a thing\nForwarded: not yet sent')
  assert 'brand_new' not in text  # New modules are overlay, not patch.
  assert (
      minimal_repo / 'src/google/adk/brand_new.py'
  ).read_text() == 'VALUE = 1\n'


def test_refresh_never_overwrites_a_patch_edited_in_the_repository(
    minimal_repo,
):
  project = project_lib.load_project(minimal_repo)
  folder = workspace.materialize(project)
  _amend_version_patch(folder, '# workspace edit\n')
  patch_file = minimal_repo / 'patches/0001-fork-version-label.patch'
  hand_edit = patch_file.read_text().replace(
      'Label the', 'Hand-edited: label the'
  )
  patch_file.write_text(hand_edit)

  with pytest.raises(ForkBuildError, match='changed in the repository'):
    workspace.refresh(project)

  assert patch_file.read_text() == hand_edit


def test_refresh_keeps_a_module_edited_only_in_the_repository(minimal_repo):
  project = project_lib.load_project(minimal_repo)
  workspace.materialize(project)
  module = minimal_repo / 'src/google/adk/fork_info.py'
  edited = module.read_text() + '# edited in the repository\n'
  module.write_text(edited)

  result = workspace.refresh(project)

  assert result.changed == []
  assert module.read_text() == edited
  # Nothing in the workspace is unsaved, so it may be replaced.
  workspace.materialize(project)


def test_materialize_keeps_unrefreshed_work(minimal_repo):
  project = project_lib.load_project(minimal_repo)
  folder = workspace.materialize(project)
  (folder / 'src/google/adk/version.py').write_text('# uncommitted\n')

  with pytest.raises(ForkBuildError, match='not in patches/ yet'):
    workspace.materialize(project)
  workspace.materialize(project, force=True)

  backup = folder.with_name('work.bak-1')
  assert (backup / 'src/google/adk/version.py').read_text() == '# uncommitted\n'


# Export needs an author; these tests must not depend on the machine's git
# identity.
_AUTHOR = 'Test Contributor <contributor@example.com>'


def test_export_makes_patches_that_apply_to_pristine_upstream(
    minimal_repo, tmp_path
):
  project = project_lib.load_project(minimal_repo)

  written = export.export(
      project, tmp_path / 'prs', include_fork_only=True, author=_AUTHOR
  )

  assert [p.name for p in written] == ['0001-fork-version-label.patch']
  text = written[0].read_text()
  assert (
      'Subject: [PATCH] chore: label the build as the google-adk fork' in text
  )
  assert (
      '### Testing Plan' in text and 'tests/unittests/test_fork_info.py' in text
  )
  assert 'From: Test Contributor <contributor@example.com>' in text
  # Apply it the way an upstream maintainer would: `git am` on v2.13.0.
  upstream_repo = _pristine_upstream_repo(project, tmp_path / 'adk-python')
  git.run(upstream_repo, 'am', '-q', str(written[0]), env=git.TOOL_IDENTITY)
  assert (upstream_repo / 'tests/unittests/test_fork_info.py').is_file()
  assert (upstream_repo / 'src/google/adk/fork_info.py').is_file()
  assert '+fork.' in (upstream_repo / 'src/google/adk/version.py').read_text()
  assert (
      subprocess.run(
          ['git', 'log', '--format=%s', '-1'],
          cwd=upstream_repo,
          capture_output=True,
          text=True,
      ).stdout.strip()
      == 'chore: label the build as the google-adk fork'
  )


def test_export_skips_fork_only_changes_by_default(minimal_repo, tmp_path):
  project = project_lib.load_project(minimal_repo)

  assert export.export(project, tmp_path / 'prs', author=_AUTHOR) == []


def test_stacked_pr_applies_on_top_of_the_pr_it_depends_on(repo_copy, tmp_path):
  project = project_lib.load_project(repo_copy)

  written = {
      p.name: p
      for p in export.export(
          project, tmp_path / 'prs', include_fork_only=True, author=_AUTHOR
      )
  }

  stack = [
      next(n for n in written if n.endswith(f'-{pr_id}.patch'))
      for pr_id in (
          'event-visibility-field',
          'event-visibility-storage',
          'event-visibility-graphs',
          'event-visibility',
          'did-you-mean',
          'tool-visibility',
          'visibility-filter',
      )
  ]
  upstream_repo = _pristine_upstream_repo(project, tmp_path / 'adk-python')
  # A stacked PR is sent after the ones it builds on: they apply as a series.
  for name in stack:
    git.run(
        upstream_repo, 'am', '-q', str(written[name]), env=git.TOOL_IDENTITY
    )
  assert (upstream_repo / 'src/google/adk/events/user_view.py').is_file()


def test_pr_stacked_on_several_prs_applies_after_all_of_them(
    repo_copy, tmp_path
):
  project = project_lib.load_project(repo_copy)

  written = {
      p.name: p
      for p in export.export(
          project, tmp_path / 'prs', include_fork_only=True, author=_AUTHOR
      )
  }

  upstream_repo = _pristine_upstream_repo(project, tmp_path / 'adk-python')
  # A PR with two dependencies is sent after both: they apply as a series,
  # and the stacked one would not apply to either dependency alone.
  for suffix in (
      '-include-sources-node-input',
      '-history-filter',
      '-include-sources',
      '-event-visibility-field',
      '-event-visibility-storage',
      '-event-visibility-graphs',
      '-event-visibility',
      '-diagnostics',
  ):
    name = next(n for n in written if n.endswith(f'{suffix}.patch'))
    git.run(
        upstream_repo, 'am', '-q', str(written[name]), env=git.TOOL_IDENTITY
    )
  assert (upstream_repo / 'src/google/adk/diagnostics/_checks.py').is_file()
