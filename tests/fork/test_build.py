"""The build: pinned artifact, queue, add-only overlay, wheel metadata."""

from __future__ import annotations

import os
import pathlib
import zipfile

import pytest

from adkfork import backend
from adkfork import check
from adkfork import project as project_lib
from adkfork import queue
from adkfork import tree
from adkfork import upstream
from adkfork.errors import ForkBuildError


def _load(repo: pathlib.Path) -> project_lib.Project:
  return project_lib.load_project(repo)


def test_hash_mismatch_stops_the_build_and_says_how_to_fix_it(
    repo_copy, tmp_path, monkeypatch
):
  project = _load(repo_copy)
  fake = tmp_path / project.upstream_wheel
  fake.write_bytes(b'not the release')
  monkeypatch.setenv(upstream.WHEEL_ENV_VAR, str(fake))

  with pytest.raises(ForkBuildError) as error:
    tree.build_tree(project)

  message = str(error.value)
  assert f'expected sha256 {project.upstream_sha256}' in message
  assert upstream.WHEEL_ENV_VAR in message
  assert 'pip download' in message


def test_missing_local_artifact_names_the_expected_file(
    repo_copy, tmp_path, monkeypatch
):
  project = _load(repo_copy)
  monkeypatch.setenv(upstream.WHEEL_ENV_VAR, str(tmp_path / 'nowhere'))

  with pytest.raises(ForkBuildError, match=project.upstream_wheel):
    tree.build_tree(project)


def test_local_copy_builds_offline(repo_copy, upstream_wheel, monkeypatch):
  monkeypatch.setenv(upstream.WHEEL_ENV_VAR, str(upstream_wheel.parent))
  monkeypatch.setenv(upstream.CACHE_ENV_VAR, '/nonexistent-cache')

  package = tree.build_tree(_load(repo_copy))

  assert 'google/adk/fork_info.py' in package.overlay_paths


def test_overlay_may_not_shadow_an_upstream_file(repo_copy):
  shadow = repo_copy / 'src/google/adk/runners.py'
  shadow.write_text('# would silently replace upstream code\n')

  with pytest.raises(ForkBuildError, match='exists upstream'):
    tree.build_tree(_load(repo_copy))


def test_version_patch_and_pyproject_must_agree(repo_copy):
  pyproject = repo_copy / 'pyproject.toml'
  text = pyproject.read_text()
  local = _load(repo_copy).local_version
  pyproject.write_text(text.replace(f'"{local}"', '"fork.999"'))

  with pytest.raises(ForkBuildError, match='Change both together'):
    tree.build_tree(_load(repo_copy))


def test_series_must_list_every_patch_and_nothing_else(repo_copy):
  (repo_copy / 'patches' / '0099-stray.patch').write_text('Description: x\n')
  with (repo_copy / 'patches' / 'series').open('a') as series:
    series.write('0098-missing.patch\n')

  problems = check.check(_load(repo_copy), round_trip=False)

  assert any('0098-missing.patch, which does not exist' in p for p in problems)
  assert any('0099-stray.patch is not listed' in p for p in problems)


def test_a_patch_is_numbered_by_its_place_in_the_series(repo_copy):
  patches = repo_copy / 'patches'
  series = (patches / 'series').read_text().split()
  last = series[-1]
  (patches / last).rename(patches / ('0001' + last[4:]))
  (patches / 'series').write_text(
      '\n'.join([*series[:-1], '0001' + last[4:]]) + '\n'
  )

  problems = check.check(_load(repo_copy), round_trip=False)

  place = len(series)
  assert any(
      f'0001{last[4:]} is patch {place} of the queue; name it'
      f' {place:04d}{last[4:]}'
      in p
      for p in problems
  ), problems


def test_check_passes_on_the_repository_queue(repo_copy):
  assert check.check(_load(repo_copy)) == []


def test_wheel_metadata_equals_upstream_but_for_the_version(
    repo_copy, upstream_wheel, tmp_path, monkeypatch
):
  monkeypatch.chdir(repo_copy)
  project = _load(repo_copy)

  name = backend.build_wheel(str(tmp_path))

  assert name == f'google_adk-{project.version}-py3-none-any.whl'
  with zipfile.ZipFile(tmp_path / name) as fork, zipfile.ZipFile(
      upstream_wheel
  ) as pristine:
    fork_info = f'google_adk-{project.version}.dist-info/'
    upstream_info = f'google_adk-{project.upstream_version}.dist-info/'
    fork_metadata = fork.read(fork_info + 'METADATA').decode()
    upstream_metadata = pristine.read(upstream_info + 'METADATA').decode()
    assert fork_metadata == upstream_metadata.replace(
        f'Version: {project.upstream_version}\n',
        f'Version: {project.version}\n',
        1,
    )
    assert fork_metadata != upstream_metadata
    assert fork.read(fork_info + 'entry_points.txt') == pristine.read(
        upstream_info + 'entry_points.txt'
    )
    upstream_package = {
        n for n in pristine.namelist() if not n.startswith(upstream_info)
    }
    fork_package = {n for n in fork.namelist() if not n.startswith(fork_info)}
    overlay = {
        project_lib.to_package_path(p) for p in queue.overlay_files(project)
    }
    assert 'google/adk/fork_info.py' in overlay
    assert fork_package == upstream_package | overlay


def test_editable_tree_links_overlay_modules_back_to_the_source(
    repo_copy, tmp_path, monkeypatch
):
  monkeypatch.chdir(repo_copy)

  backend.build_editable(str(tmp_path))

  editable = repo_copy / '.fork' / 'editable' / 'google' / 'adk'
  link = editable / 'fork_info.py'
  assert link.is_symlink()
  assert link.resolve() == (repo_copy / 'src/google/adk/fork_info.py').resolve()
  # Patched upstream files are copies, read-only so an edit fails loudly.
  assert '+fork.' in (editable / 'version.py').read_text()
  assert not os.access(editable / 'version.py', os.W_OK) or os.getuid() == 0
  assert (editable / 'version.py').stat().st_mode & 0o222 == 0


def test_dev_ui_edits_are_in_the_built_bundle(repo_copy):
  files = tree.build_tree(_load(repo_copy)).files
  index = files['google/adk/cli/browser/index.html'].decode()
  bundles = [
      data.decode()
      for path, data in files.items()
      if path.startswith('google/adk/cli/browser/main-')
  ]

  assert 'adk-fork/user-view.js' in index
  assert [b.count('"adk-internal"') for b in bundles] == [1]
  assert 'google/adk/cli/browser/adk-fork/user-view.css' in files


@pytest.mark.parametrize(
    'find, message',
    [
        ('text the bundle does not contain', 'occurs 0 times'),
        ('function', r'occurs \d+ times'),
    ],
)
def test_dev_ui_edit_that_no_longer_applies_stops_the_build(
    repo_copy, find, message
):
  edits = repo_copy / 'patches' / 'dev-ui.toml'
  text = edits.read_text()
  first_find = text.index("find = '''") + len("find = '''")
  end = text.index("'''", first_find)
  edits.write_text(text[:first_find] + find + text[end:])

  with pytest.raises(ForkBuildError, match=message) as raised:
    tree.build_tree(_load(repo_copy))
  assert 'event-row-classes' in str(raised.value)


def test_dev_ui_edits_may_only_touch_the_dev_ui(repo_copy):
  edits = repo_copy / 'patches' / 'dev-ui.toml'
  edits.write_text(
      edits.read_text().replace(
          'file = "src/google/adk/cli/browser/index.html"',
          'file = "src/google/adk/runners.py"',
      )
  )

  with pytest.raises(ForkBuildError, match='only for the compiled dev UI'):
    tree.build_tree(_load(repo_copy))
