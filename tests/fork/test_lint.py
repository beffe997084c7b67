"""Which files `python -m adkfork format` and `lint` treat as ours."""

from __future__ import annotations

import pathlib
import subprocess

from adkfork import lint
from adkfork import project as project_lib


def _plant(root: pathlib.Path) -> None:
  for name in (
      'benchmarks/suite.py',
      'benchmarks/.venv-upstream/lib/site-packages/dep.py',
      'benchmarks/results/generated.py',
  ):
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text('x = 1\n')


def _own(root: pathlib.Path) -> set[str]:
  project = project_lib.load_project(root)
  return {path.relative_to(root).as_posix() for path in lint.own_files(project)}


def test_in_a_checkout_git_ignored_files_are_not_ours(
    repo_copy: pathlib.Path,
):
  _plant(repo_copy)
  (repo_copy / '.gitignore').write_text('/benchmarks/results/\n')
  subprocess.run(['git', 'init', '-q'], cwd=repo_copy, check=True)

  own = _own(repo_copy)

  assert 'benchmarks/suite.py' in own
  assert 'benchmarks/results/generated.py' not in own
  assert not any('.venv-upstream' in name for name in own)
  assert 'src/google/adk/fork_info.py' in own


def test_outside_a_checkout_hidden_folders_are_skipped(
    repo_copy: pathlib.Path,
):
  _plant(repo_copy)

  own = _own(repo_copy)

  assert 'benchmarks/suite.py' in own
  assert not any('.venv-upstream' in name for name in own)
  assert 'src/google/adk/fork_info.py' in own


def test_pyflakes_findings_name_the_file_and_line(tmp_path: pathlib.Path):
  module = tmp_path / 'module.py'
  module.write_text('import os\nimport sys\n\nprint(sys.argv, missing)\n')

  findings = lint._pyflakes([str(module)])

  assert [(line, text.split()[0]) for _, line, text in findings] == [
      (1, 'F401'),
      (4, 'F821'),
  ]
  assert all(path == str(module) for path, _, _ in findings)
