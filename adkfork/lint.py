"""Formats and lints with upstream's settings: pyink and isort, and pyflakes.

Our own files (the overlay, tests, samples, tooling) must be formatted as a
whole. In upstream files only the lines a patch adds are held to it, since
upstream's own lines are upstream's business. Ruff's pyflakes rules (unused
imports, undefined names) run on the overlay and on the lines patches add,
so a fork-only patch, which the gate never lints, is held to them too.
"""

from __future__ import annotations

import difflib
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from . import queue
from . import tree as tree_lib
from .errors import ForkBuildError
from .project import Project
from .project import to_package_path

OWN_FOLDERS = ('src', 'tests', 'contributing', 'adkfork', 'benchmarks')


def _tool(name: str) -> list[str]:
  found = shutil.which(name, path=str(pathlib.Path(sys.executable).parent))
  found = found or shutil.which(name)
  if not found:
    raise ForkBuildError(
        f'{name} is not installed; `pip install -r requirements/dev.txt`'
        ' installs the versions upstream pins.'
    )
  return [found]


def own_files(project: Project) -> list[pathlib.Path]:
  """Our Python files: not in hidden folders, not what git ignores.

  Virtual environments, benchmark outputs and caches may sit inside our
  folders; reformatting them would rewrite installed packages.
  """

  def ours(relative: tuple[str, ...]) -> bool:
    return '__pycache__' not in relative and not any(
        part.startswith('.') for part in relative
    )

  listed = subprocess.run(
      ['git', 'ls-files', '--cached', '--others', '--exclude-standard', '-z']
      + list(OWN_FOLDERS),
      cwd=project.root,
      capture_output=True,
      text=True,
  )
  if listed.returncode == 0:
    return [
        project.root / name
        for name in sorted(listed.stdout.split('\0'))
        if name.endswith('.py')
        and ours(pathlib.PurePosixPath(name).parts)
        and (project.root / name).is_file()
    ]
  # Not a git checkout (an sdist, a copy).
  return [
      path
      for folder in OWN_FOLDERS
      for path in sorted((project.root / folder).rglob('*.py'))
      if ours(path.relative_to(project.root).parts)
  ]


def _format_commands(project: Project, check: bool) -> list[list[str]]:
  config = str(project.root / 'pyproject.toml')
  mode = ['--check', '--diff'] if check else []
  return [
      _tool('isort') + ['--settings-path', config] + mode,
      _tool('pyink') + ['--config', config, '--quiet'] + mode,
  ]


_PYFLAKES = [
    'check',
    '--select',
    'F',
    '--no-cache',
    '--output-format',
    'concise',
]
_FINDING = re.compile(r'^(?P<path>.+?):(?P<line>\d+):\d+: (?P<text>.*)$', re.M)


def _pyflakes(paths: list[str]) -> list[tuple[str, int, str]]:
  """Ruff's pyflakes findings as (path, line, text)."""
  if not paths:
    return []
  result = subprocess.run(
      _tool('ruff') + _PYFLAKES + paths, capture_output=True, text=True
  )
  return [
      (found['path'], int(found['line']), found['text'])
      for found in _FINDING.finditer(result.stdout)
  ]


def sort_imports(project: Project, paths: list[pathlib.Path]) -> None:
  """Sorts the imports of `paths` with upstream's isort settings."""
  if paths:
    command = _format_commands(project, check=False)[0] + ['--quiet']
    subprocess.run(command + [str(p) for p in paths], check=True)


def format_files(project: Project, paths: list[pathlib.Path]) -> None:
  """Rewrites our own files in upstream's format."""
  if not paths:
    return
  for command in _format_commands(project, check=False):
    subprocess.run(command + [str(p) for p in paths], check=True)


def _line_changes(
    before: str, after: str
) -> list[tuple[str, int, int, int, int]]:
  return difflib.SequenceMatcher(
      None, before.splitlines(), after.splitlines(), autojunk=False
  ).get_opcodes()


def _added_lines(before: str, after: str) -> set[int]:
  """Line numbers (from 1) of `after` that are not in `before`."""
  added = set()
  for tag, _, _, j1, j2 in _line_changes(before, after):
    if tag in ('replace', 'insert'):
      added.update(range(j1 + 1, j2 + 1))
  return added


def _changed_lines(text: str, formatted: str) -> set[int]:
  """Line numbers of `text` that formatting changes or sits next to."""
  changed = set()
  for tag, i1, i2, _, _ in _line_changes(text, formatted):
    if tag in ('replace', 'delete'):
      changed.update(range(i1 + 1, i2 + 1))
    elif tag == 'insert':
      changed.update({i1, i1 + 1})
  return changed


def _hunk_problems(project: Project) -> list[str]:
  pristine, _ = tree_lib.pristine_files(project)
  patched = dict(pristine)
  touched = set()
  for patch in queue.read_queue(project):
    queue.apply_patch(patch, patched)
    touched.update(
        to_package_path(d.path) for d in patch.files if d.path.endswith('.py')
    )
  problems = []
  with tempfile.TemporaryDirectory() as tmp:
    for path in sorted(touched):
      before = pristine[path].decode('utf-8')
      after = patched[path].decode('utf-8')
      copy = pathlib.Path(tmp) / path
      copy.parent.mkdir(parents=True, exist_ok=True)
      copy.write_text(after, encoding='utf-8')
      added = _added_lines(before, after)
      for _, line, text in _pyflakes([str(copy)]):
        if line in added:
          problems.append(f'src/{path}:{line}, added by the queue: {text}')
      for command in _format_commands(project, check=False):
        subprocess.run(command + [str(copy)], check=True, capture_output=True)
      formatted = copy.read_text(encoding='utf-8')
      bad = sorted(added & _changed_lines(after, formatted))
      if bad:
        problems.append(
            f'src/{path}: lines {", ".join(map(str, bad))} added by the queue'
            ' are not formatted as upstream formats them (pyink/isort).'
        )
  return problems


def lint(project: Project) -> list[str]:
  """Returns formatting problems in our files and in the queue's hunks."""
  problems = []
  paths = [str(p) for p in own_files(project)]
  for command in _format_commands(project, check=True):
    result = subprocess.run(command + paths, capture_output=True, text=True)
    if result.returncode != 0:
      problems.append(
          f'{pathlib.Path(command[0]).name} would reformat our files (run'
          f' `python -m adkfork format`):\n{result.stdout}{result.stderr}'
      )
  overlay = [
      p for p in paths if pathlib.Path(p).is_relative_to(project.root / 'src')
  ]
  problems += [
      f'{path}:{line}: {text}' for path, line, text in _pyflakes(overlay)
  ]
  return problems + _hunk_problems(project)
