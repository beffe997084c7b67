"""Materializes the patched tree as a git repository, and refreshes patches/.

The workspace (`.fork/work/` by default) holds upstream's repository layout,
`src/google/adk/...`. Its first commit is the pristine release (tagged
`upstream`); then one commit per patch, whose subject is the patch file name
and whose body is the patch header, carrying the new modules of the PR the
patch belongs to. Amending, adding, reordering or dropping commits there and
running refresh is how the queue is changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pathlib
import re
import shutil

from . import git
from . import queue
from . import tree as tree_lib
from .errors import ForkBuildError
from .project import Project
from .project import to_package_path

UPSTREAM_TAG = 'upstream'
_STATE_FILE = 'adkfork-state.json'
_PATCH_NAME = re.compile(r'^\d{4}-[A-Za-z0-9._-]+\.patch$')
_OVERLAY_SUBJECT = 'overlay: modules no patch carries'


def _digest(data: bytes) -> str:
  return hashlib.sha256(data).hexdigest()


def _repo_snapshot(project: Project) -> dict[str, str]:
  """Hashes of what refresh may overwrite: patch files, series, overlay."""
  snapshot = {}
  for path in sorted(project.patches_dir.glob('*.patch')):
    snapshot[f'patches/{path.name}'] = _digest(path.read_bytes())
  if project.series_file.is_file():
    snapshot['patches/series'] = _digest(project.series_file.read_bytes())
  for repo_path in queue.overlay_files(project):
    snapshot[repo_path] = _digest((project.root / repo_path).read_bytes())
  return snapshot


def default_dir(project: Project) -> pathlib.Path:
  return project.work_dir / 'work'


def _write(folder: pathlib.Path, files: dict[str, bytes], paths) -> None:
  for path in paths:
    target = folder / 'src' / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(files[path])


def _commit(folder: pathlib.Path, message: str) -> None:
  git.commit_all(folder, message, git.TOOL_IDENTITY)


def _modules_by_patch(
    project: Project, series: list[str]
) -> tuple[dict[str, list[str]], list[str]]:
  """Assigns each overlay module to the first patch of its PR."""
  overlay = queue.overlay_files(project)
  by_patch: dict[str, list[str]] = {}
  placed = set()
  try:
    prs = queue.read_manifest(project)
  except ForkBuildError:
    prs = []
  for pr in prs:
    first = next((p for p in series if p in pr.patches), None)
    if first is None:
      continue
    for module in pr.modules:
      if module in overlay and module not in placed:
        by_patch.setdefault(first, []).append(module)
        placed.add(module)
  return by_patch, [m for m in overlay if m not in placed]


def _pending(project: Project, folder: pathlib.Path) -> bool:
  """Whether the workspace holds work that patches/ or src/ do not have."""
  if git.run(folder, 'status', '--porcelain').strip():
    return True
  try:
    result = refresh(project, folder, dry_run=True)
  except ForkBuildError:
    return True
  return bool(result.changed)


def materialize(
    project: Project, folder: pathlib.Path | None = None, force: bool = False
) -> pathlib.Path:
  """Writes the patched tree as a git repository, one commit per patch.

  Args:
    project: The project settings.
    folder: Where to write it; `.fork/work/` by default.
    force: Replace a workspace with unrefreshed changes, keeping it aside as
      `<folder>.bak-N` rather than deleting it.

  Returns:
    The workspace folder.

  Raises:
    ForkBuildError: If the folder holds work not yet refreshed (without
      `force`), or a patch does not apply.
  """
  folder = folder or default_dir(project)
  if folder.exists():
    is_workspace = (folder / '.git' / _STATE_FILE).is_file()
    if is_workspace and not _pending(project, folder):
      shutil.rmtree(folder)
    elif not force:
      raise ForkBuildError(
          f'{folder} holds changes that are not in patches/ yet (or is not a'
          ' workspace). Run `python -m adkfork refresh` to keep them, or'
          ' pass --force to move it aside and start over.'
      )
    else:
      number = 1
      while folder.with_name(f'{folder.name}.bak-{number}').exists():
        number += 1
      backup = folder.with_name(f'{folder.name}.bak-{number}')
      folder.rename(backup)
      print(f'Moved the old workspace to {backup}')
  files, _ = tree_lib.pristine_files(project)
  folder.mkdir(parents=True)
  git.run(folder, 'init', '-q')
  _write(folder, files, sorted(files))
  _commit(
      folder,
      f'google-adk {project.upstream_version} (pristine)\n\n'
      f'Unpacked from {project.upstream_wheel}\n'
      f'sha256 {project.upstream_sha256}\n',
  )
  git.run(folder, 'tag', UPSTREAM_TAG)
  series = queue.read_series(project)
  modules, unplaced = _modules_by_patch(project, series)
  for name in series:
    patch = queue.read_patch(project, name)
    queue.apply_patch(patch, files)
    _write(folder, files, [to_package_path(d.path) for d in patch.files])
    for module in modules.get(name, []):
      target = folder / module
      target.parent.mkdir(parents=True, exist_ok=True)
      target.write_bytes((project.root / module).read_bytes())
    _commit(folder, f'{name}\n\n{patch.header}')
  if unplaced:
    for module in unplaced:
      target = folder / module
      target.parent.mkdir(parents=True, exist_ok=True)
      target.write_bytes((project.root / module).read_bytes())
    _commit(
        folder,
        f'{_OVERLAY_SUBJECT}\n\nNew modules that no PR in'
        ' patches/upstream-prs.toml assigns to a patch.\n',
    )
  state = {'repo': _repo_snapshot(project)}
  (folder / '.git' / _STATE_FILE).write_text(
      json.dumps(state, indent=1), encoding='utf-8'
  )
  return folder


@dataclasses.dataclass
class RefreshResult:
  """What refresh wrote (or would write): repository paths to bytes/None."""

  writes: dict[str, bytes | None]
  changed: list[str]


def _message(folder: pathlib.Path, commit: str) -> tuple[str, str]:
  raw = git.run(folder, 'cat-file', 'commit', commit)
  _, _, message = raw.partition('\n\n')
  subject, _, body = message.partition('\n')
  return subject, body[1:] if body.startswith('\n') else body


def _slug(text: str) -> str:
  return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')[:50] or 'change'


def _patch_text(
    folder: pathlib.Path, commit: str, subject: str, body: str, paths
) -> str:
  header = body
  if not queue.parse_header_fields(header).get('Description'):
    header = f'Description: {subject}\n' + header
  diff = git.run(
      folder,
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--full-index',
      '-U3',
      f'{commit}^',
      commit,
      '--',
      *paths,
  )
  return header + queue.HEADER_END + diff


def _collect(project: Project, folder: pathlib.Path) -> dict[str, bytes | None]:
  """Reads the workspace into the patches/ and src/ files it stands for."""
  upstream_paths = set(
      git.run(folder, 'ls-tree', '-r', '--name-only', UPSTREAM_TAG).split('\n')
  ) - {''}
  if git.run(folder, 'rev-list', '--merges', f'{UPSTREAM_TAG}..HEAD').strip():
    raise ForkBuildError(
        f'{folder}: the history after `{UPSTREAM_TAG}` has merges; the queue'
        ' is linear, so rebase instead.'
    )
  commits = git.run(
      folder, 'rev-list', '--reverse', f'{UPSTREAM_TAG}..HEAD'
  ).split()
  names, texts = [], {}
  for commit in commits:
    changes = git.run(
        folder, 'diff-tree', '-r', '--no-commit-id', '--name-status', commit
    ).splitlines()
    touched = []
    for change in changes:
      status, _, path = change.partition('\t')
      if path in upstream_paths:
        if status != 'M':
          raise ForkBuildError(
              f'{folder}: commit {commit[:12]} {status} {path}: upstream'
              ' files may only be modified, never deleted.'
          )
        touched.append(path)
    if not touched:
      continue
    subject, body = _message(folder, commit)
    name = subject.strip()
    if not _PATCH_NAME.match(name):
      name = f'{len(names) + 1:04d}-{_slug(subject)}.patch'
    if name in texts:
      raise ForkBuildError(
          f'{folder}: two commits are named {name}; give one another subject.'
      )
    names.append(name)
    texts[name] = _patch_text(folder, commit, subject, body, touched)
  writes: dict[str, bytes | None] = {
      f'patches/{name}': text.encode('utf-8') for name, text in texts.items()
  }
  writes['patches/series'] = ''.join(f'{n}\n' for n in names).encode('utf-8')
  for old in project.patches_dir.glob('*.patch'):
    writes.setdefault(f'patches/{old.name}', None)
  head_paths = set(
      git.run(folder, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n')
  ) - {''}
  for path in sorted(head_paths - upstream_paths):
    if path.startswith('src/'):
      writes[path] = (folder / path).read_bytes()
  for path in queue.overlay_files(project):
    writes.setdefault(path, None)
  return writes


def refresh(
    project: Project, folder: pathlib.Path | None = None, dry_run=False
) -> RefreshResult:
  """Regenerates patches/ (and the overlay in src/) from the workspace.

  Args:
    project: The project settings.
    folder: The workspace; `.fork/work/` by default.
    dry_run: Compute what would change without writing anything.

  Returns:
    What was (or would be) written, and which paths change.

  Raises:
    ForkBuildError: If the workspace is missing, has uncommitted changes, or
      a file changed in the repository since materialize would be
      overwritten.
  """
  folder = folder or default_dir(project)
  state_file = folder / '.git' / _STATE_FILE
  if not state_file.is_file():
    raise ForkBuildError(
        f'{folder} is not a workspace; run `python -m adkfork materialize`.'
    )
  if not dry_run and git.run(folder, 'status', '--porcelain').strip():
    raise ForkBuildError(
        f'{folder} has uncommitted changes: commit them (amend the patch'
        ' commit they belong to, or make a new one) and refresh again.'
    )
  recorded = json.loads(state_file.read_text(encoding='utf-8'))['repo']
  current = _repo_snapshot(project)
  writes = _collect(project, folder)
  changed = []
  for path, data in writes.items():
    now = current.get(path)
    wanted = None if data is None else _digest(data)
    if now == wanted or wanted == recorded.get(path):
      # Nothing to do, or only the repository changed it: its version stands.
      continue
    if now != recorded.get(path):
      raise ForkBuildError(
          f'{path} changed in the repository since the workspace was'
          ' materialized, and refresh would overwrite it. Keep one version:'
          ' carry the edit into the workspace (or revert it in the'
          ' repository), then refresh again.'
      )
    changed.append(path)
  if not dry_run:
    for path in changed:
      target = project.root / path
      if writes[path] is None:
        target.unlink()
      else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(writes[path])
    # The workspace's versions are now the common base: a later edit on
    # either side is measured from them.
    base = {
        path: _digest(data) for path, data in writes.items() if data is not None
    }
    state_file.write_text(
        json.dumps({'repo': base}, indent=1), encoding='utf-8'
    )
  return RefreshResult(writes=writes, changed=changed)
