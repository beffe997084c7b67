"""Runs upstream's pull request checks on every PR of the queue.

For each PR in `patches/upstream-prs.toml` that is meant for upstream, on
pristine upstream (unpacked from the pinned sdist, with upstream's own
pyproject.toml) plus the PRs it depends on:

1. the exported patches of its dependencies, then its own, apply with
   `git am`;
2. its size (lines added plus deleted) is within upstream's limits;
3. it adds no mypy error under upstream's settings (the errors of the base
   and of the PR are compared without line numbers, as upstream's
   mypy-new-errors workflow does);
4. pyink, isort, ruff and codespell, at upstream's pins and settings, find
   nothing in the files it adds or changes;
5. its tests pass in the PR's tree beside an upstream-like conftest, with no
   network;
6. its description follows upstream's PR template.

The exported patches, with the pytest summary filled in, are written to the
output folder. Any finding makes the gate fail.
"""

from __future__ import annotations

import collections
import dataclasses
import fnmatch
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

from . import export as export_lib
from . import git
from . import pr_template
from . import queue
from . import upstream
from . import upstream_sdist
from . import workspace
from .errors import ForkBuildError
from .project import Project

SIZE_LIMIT = 1000
"""The most changed lines of a PR in no wave; a wave sets its own."""
SIZE_NEEDS_REASON = 600
CONFTEST_ENV_VAR = 'ADK_UPSTREAM_CONFTEST'
GATE_VENV = '.venv-gate'
_PRISTINE_TAG = 'pristine'
_VENV_MARKER = 'adkfork-gate.sha256'
_TEST_TIMEOUT_SECONDS = 20 * 60
_CONFTEST_PATH = 'tests/unittests/conftest.py'
_HERE = pathlib.Path(__file__).resolve().parent

# `path:line: error: ...`, `path:line:column: error: ...`, and the
# `path:line:column:end_line:end_column:` form of --show-error-end.
_POSITION = re.compile(r'^([^:\n]+):\d+(?::\d+){0,3}: ')
# Messages that quote a line number ("already defined on line 12") move
# with unrelated edits, like the position does.
_LINE_IN_MESSAGE = re.compile(r'\bline \d+\b')
# mypy lists the members of a Literal union in an order that can differ
# between a cold and an incremental run; the order carries no meaning.
_LITERAL = re.compile(r'Literal\[([^\[\]]*)\]')


@dataclasses.dataclass
class PrResult:
  """What the gate found for one PR."""

  pr: queue.PullRequest
  failures: list[str] = dataclasses.field(default_factory=list)
  added: int | None = None
  deleted: int | None = None
  new_mypy_errors: list[str] | None = None
  lint_findings: int | None = None
  test_summary: str | None = None

  @property
  def size(self) -> int | None:
    if self.added is None or self.deleted is None:
      return None
    return self.added + self.deleted

  @property
  def ok(self) -> bool:
    return not self.failures


# -- Pure rules (tested on their own in tests/fork/test_gate.py). --


def strip_positions(line: str) -> str:
  """A mypy error line without its line (and column) numbers."""
  line = _POSITION.sub(r'\1: ', line.rstrip('\n'), count=1)
  line = _LITERAL.sub(
      lambda match: f'Literal[{", ".join(sorted(match.group(1).split(", ")))}]',
      line,
  )
  return _LINE_IN_MESSAGE.sub('line N', line)


def mypy_errors(output: str) -> list[str]:
  """The `error:` lines of mypy's output, positions stripped."""
  return [
      strip_positions(line)
      for line in output.splitlines()
      if ': error: ' in line
  ]


def new_errors(base: list[str], changed: list[str]) -> list[str]:
  """Errors of `changed` beyond those of `base`, counting repeats.

  An error the PR repeats (the same message in the same file once more)
  counts as new, though upstream's `comm`-based check would miss it.
  """
  extra = collections.Counter(changed) - collections.Counter(base)
  return sorted(extra.elements())


def parse_numstat(numstat: str) -> tuple[int, int]:
  """Sums `git diff --numstat` output into (added, deleted) lines.

  Binary files (`-` counts) count as nothing.
  """
  added = deleted = 0
  for line in numstat.splitlines():
    parts = line.split('\t')
    if len(parts) < 3:
      continue
    if parts[0].isdigit():
      added += int(parts[0])
    if parts[1].isdigit():
      deleted += int(parts[1])
  return added, deleted


def size_problem(
    pr: queue.PullRequest,
    size: int,
    waves: dict[int, queue.Wave] | None = None,
) -> str | None:
  """Why a PR of `size` changed lines is too big, or None.

  A PR in a wave is held to the wave's `max-lines`, not to `SIZE_LIMIT`:
  the first wave is what a maintainer merges as it is, the feature wave is
  each feature whole.
  """
  wave = (waves or {}).get(pr.wave) if pr.wave is not None else None
  if wave is not None and size > wave.max_lines:
    return (
        f"size: {size} changed lines, over wave {wave.number}'s limit of"
        f' {wave.max_lines}: split the PR, or move it to another wave.'
    )
  if wave is None and size > SIZE_LIMIT:
    return (
        f'size: {size} changed lines, over the limit of {SIZE_LIMIT}: split'
        ' the PR.'
    )
  if size > SIZE_NEEDS_REASON and not pr.size_reason:
    return (
        f'size: {size} changed lines, over {SIZE_NEEDS_REASON}: split the PR,'
        ' or say in `size-reason` why it cannot be split.'
    )
  return None


def wave_problems(
    prs: list[queue.PullRequest], waves: dict[int, queue.Wave]
) -> dict[str, list[str]]:
  """What breaks the wave rules, by PR id.

  Every PR that is sent belongs to a declared wave, and builds only on PRs
  sent in the same or an earlier wave; a wave holds at most its `max-prs`.
  """
  wave_of = {pr.id: pr.wave for pr in prs}
  problems: dict[str, list[str]] = {}
  for pr in prs:
    if pr.wave is None or pr.wave not in waves:
      problems.setdefault(pr.id, []).append(
          'wave: not in a declared wave (`wave` ='
          f' {pr.wave!r}): give it'
          ' one, or mark it `status = "fork-only"` with `fork-only-reason`.'
      )
      continue
    later = [
        d
        for d in pr.depends_on
        if wave_of.get(d) is None or wave_of[d] > pr.wave
    ]
    if later:
      problems.setdefault(pr.id, []).append(
          f'wave: in wave {pr.wave} but builds on {", ".join(later)}, which'
          ' is not sent by then: send them first, or move this PR to their'
          ' wave.'
      )
    limit = waves[pr.wave].max_prs
    members = [other.id for other in prs if other.wave == pr.wave]
    if limit is not None and len(members) > limit:
      problems.setdefault(pr.id, []).append(
          f'wave: {len(members)} PRs in wave {pr.wave}'
          f' ({", ".join(members)}); it holds at most {limit}.'
      )
  return problems


def description_problems(pr: queue.PullRequest) -> list[str]:
  """What keeps the PR's description from following upstream's template."""
  if not pr.uses_template:
    return [
        'description: free text in `body`; give `issue`, `problem`,'
        " `solution`, `testing` and `e2e` instead (upstream's PR template)."
    ]
  if pr.issue is None and not pr.no_issue:
    return [
        'description: no `issue`: name the upstream issue the PR fixes, or'
        ' say in `no-issue` why none exists.'
    ]
  problems = []
  for name in _BODY_FIELDS:
    text = getattr(pr, name)
    match = _FORK_WORD.search(text)
    if match:
      line = text[: match.start()].count('\n') + 1
      problems.append(
          f'description: `{name.replace("_", "-")}` mentions the fork (line'
          f' {line}: {match.group(0)!r}); a body upstream reads stands on'
          ' its own: name the file or the figure, not where it lives here.'
      )
  return problems


# The manifest fields that end up in the PR's body.
_BODY_FIELDS = (
    'no_issue',
    'problem',
    'solution',
    'testing',
    'e2e',
    'docs',
    'size_reason',
    'upstream_tests',
)
_FORK_WORD = re.compile(r'\bfork(?:-only|ed|s)?\b|\badkfork\b', re.IGNORECASE)


def pytest_summary(output: str) -> str | None:
  """pytest's final summary line (`3 passed in 1.20s`), without `=` rules."""
  for line in reversed(output.splitlines()):
    text = line.strip().strip('=').strip()
    if re.search(r'\bin [\d.]+s\b', text) and re.search(
        r'\d+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed)'
        r'|no tests ran',
        text,
    ):
      return text
  return None


def dependency_order(
    pr: queue.PullRequest, by_id: dict[str, queue.PullRequest]
) -> list[str]:
  """The PRs under `pr`, each after the ones it builds on, each once."""
  order: list[str] = []

  def visit(pr_id: str) -> None:
    for dependency in by_id[pr_id].depends_on:
      visit(dependency)
      if dependency not in order:
        order.append(dependency)

  visit(pr.id)
  return order


# -- Environment. --


def _venv_python(venv: pathlib.Path) -> pathlib.Path:
  if os.name == 'nt':
    return venv / 'Scripts' / 'python.exe'
  return venv / 'bin' / 'python'


def _gate_venv_key(project: Project, requirements: list[pathlib.Path]) -> str:
  digest = hashlib.sha256(project.upstream_sha256.encode())
  for path in requirements:
    digest.update(path.read_bytes())
  return digest.hexdigest()


def gate_python(project: Project) -> pathlib.Path:
  """The python of `.venv-gate/`, made once.

  It holds pristine upstream with the dependency versions of the running
  interpreter (the fork's venv), the test requirements and upstream's
  check tools at upstream's pins (requirements/gate.txt). It is remade when
  the pin or the requirement files change.

  Raises:
    ForkBuildError: If the environment cannot be made.
  """
  requirements = project.root / 'requirements'
  files = [requirements / 'gate.txt', requirements / 'test.txt']
  venv = project.root / GATE_VENV
  python = _venv_python(venv)
  marker = venv / _VENV_MARKER
  key = _gate_venv_key(project, files)
  if (
      python.is_file()
      and marker.is_file()
      and marker.read_text().strip() == key
  ):
    return python
  wheel = upstream.upstream_wheel(project)
  print(f'== making {GATE_VENV}/ (once)', flush=True)
  result = subprocess.run(
      [sys.executable, '-m', 'venv', '--clear', str(venv)],
      capture_output=True,
      text=True,
  )
  if result.returncode:
    raise ForkBuildError(f'Could not make {venv}: {result.stderr.strip()}')
  install = [str(wheel), '-r', str(files[0])]
  with tempfile.TemporaryDirectory() as tmp:
    constraints = pathlib.Path(tmp) / 'constraints.txt'
    # pylint: disable-next=protected-access
    constraints.write_text(upstream._dependency_pins(sys.executable))
    # pylint: disable-next=protected-access
    failure = upstream._pip_install(python, *install, '-c', str(constraints))
  if failure is not None:
    print(
        "the fork's dependency versions do not install beside the gate"
        f' tools; resolving afresh:\n{failure}',
        flush=True,
    )
    # pylint: disable-next=protected-access
    failure = upstream._pip_install(python, *install)
  if failure is not None:
    raise ForkBuildError(f'Could not set up {venv}:\n{failure}')
  marker.write_text(key + '\n')
  return python


def _conftest_text() -> tuple[str, str]:
  """The conftest to run PR tests beside, and where it comes from."""
  configured = os.environ.get(CONFTEST_ENV_VAR)
  if configured:
    path = pathlib.Path(configured).expanduser()
    try:
      return path.read_text(encoding='utf-8'), str(path)
    except OSError as e:
      raise ForkBuildError(
          f'{CONFTEST_ENV_VAR}={configured} cannot be read: {e}. Point it at'
          " upstream's tests/unittests/conftest.py, or unset it to use the"
          ' stand-in in adkfork/unittests_conftest.py.'
      ) from e
  path = _HERE / 'unittests_conftest.py'
  return path.read_text(encoding='utf-8'), 'adkfork/unittests_conftest.py'


# -- The pristine repository and the PR trees. --


def _pristine_repo(project: Project, folder: pathlib.Path) -> None:
  """Makes `folder` a git repository of upstream's sdist, tagged."""
  if folder.exists():
    shutil.rmtree(folder)
  upstream_sdist.unpack(upstream_sdist.upstream_sdist(project), folder)
  git.run(folder, 'init', '-q')
  git.run(folder, 'add', '-A')
  git.run(
      folder,
      'commit',
      '-q',
      '-m',
      f'google-adk {project.upstream_version} (pristine sdist)',
      env=git.TOOL_IDENTITY,
  )
  git.run(folder, 'tag', _PRISTINE_TAG)


def _git_am(
    folder: pathlib.Path, patch: pathlib.Path, identity: dict[str, str]
) -> str | None:
  """Applies a mailbox patch with `git am`; returns git's complaint if any."""
  result = subprocess.run(
      ['git', '-c', 'commit.gpgsign=false', 'am', '-q', str(patch)],
      cwd=folder,
      capture_output=True,
      text=True,
      env={**os.environ, **identity},
  )
  if result.returncode == 0:
    return None
  git.run(folder, 'am', '--abort', check=False)
  return (result.stdout + result.stderr).strip()


def _checkout(folder: pathlib.Path, ref: str) -> None:
  git.run(folder, 'checkout', '-q', '--force', '--detach', ref)
  git.run(folder, 'clean', '-q', '-fdx', '-e', '.mypy_cache')


# -- The checks. --


def _run_mypy(python: pathlib.Path, tree: pathlib.Path, cache: pathlib.Path):
  """mypy over src/google/adk with the tree's own [tool.mypy] settings."""
  result = subprocess.run(
      [
          str(python),
          '-m',
          'mypy',
          '--config-file',
          'pyproject.toml',
          '--cache-dir',
          str(cache),
          '--no-pretty',
          '--no-error-summary',
          'src/google/adk',
      ],
      cwd=tree,
      capture_output=True,
      text=True,
  )
  if result.returncode not in (0, 1):
    raise ForkBuildError(
        f'mypy crashed in {tree}:\n{result.stderr.strip() or result.stdout}'
    )
  return mypy_errors(result.stdout)


def _codespell_skips(tree: pathlib.Path) -> list[str]:
  settings = tomllib.loads((tree / 'pyproject.toml').read_text('utf-8'))
  skip = settings.get('tool', {}).get('codespell', {}).get('skip', '')
  return [pattern.strip() for pattern in skip.split(',') if pattern.strip()]


def _skipped(path: str, patterns: list[str]) -> bool:
  candidates = (path, f'./{path}', pathlib.PurePosixPath(path).name)
  return any(
      fnmatch.fnmatch(candidate, pattern)
      for pattern in patterns
      for candidate in candidates
  )


def _tool(python: pathlib.Path, name: str) -> str:
  return str(python.parent / name)


def _lint(
    python: pathlib.Path, tree: pathlib.Path, text_files: list[str]
) -> tuple[int, list[str]]:
  """Runs upstream's formatters and linters; returns (count, reports)."""
  python_files = [path for path in text_files if path.endswith('.py')]
  spell_files = [
      path for path in text_files if not _skipped(path, _codespell_skips(tree))
  ]
  runs = []
  if python_files:
    runs += [
        (
            'pyink',
            [
                _tool(python, 'pyink'),
                '--config',
                'pyproject.toml',
                '--check',
                '--diff',
                '--quiet',
            ]
            + python_files,
            lambda out: out.count('\n+++ '),
        ),
        (
            'isort',
            [
                _tool(python, 'isort'),
                '--settings-path',
                'pyproject.toml',
                '--check-only',
                '--diff',
            ]
            + python_files,
            lambda out: len(re.findall(r'^ERROR: ', out, re.M)),
        ),
        (
            'ruff',
            [
                _tool(python, 'ruff'),
                'check',
                '--config',
                'pyproject.toml',
                '--force-exclude',
                '--no-cache',
                '--output-format',
                'concise',
            ]
            + python_files,
            lambda out: len(re.findall(r'^\S+:\d+:\d+: ', out, re.M)),
        ),
    ]
  if spell_files:
    runs.append((
        'codespell',
        [_tool(python, 'codespell'), '--toml', 'pyproject.toml'] + spell_files,
        lambda out: len(re.findall(r'^\S+:\d+: ', out, re.M)),
    ))
  count, reports = 0, []
  for name, command, counter in runs:
    result = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    if result.returncode == 0:
      continue
    output = (result.stdout + result.stderr).strip()
    # A tool that fails without a finding it prints (a crash, a bad
    # setting) still fails the gate, counted once.
    count += max(1, counter('\n' + output))
    reports.append(f'{name}:\n{output}')
  return count, reports


def _run_tests(
    python: pathlib.Path,
    tree: pathlib.Path,
    tests: list[str],
    conftest: str,
    plugins: pathlib.Path,
) -> tuple[str | None, bool, str]:
  """Runs the PR's tests in its tree; returns (summary, passed, output)."""
  target = tree / _CONFTEST_PATH
  if target.exists():
    return (
        None,
        False,
        f'the PR adds {_CONFTEST_PATH}, which upstream already has.',
    )
  target.parent.mkdir(parents=True, exist_ok=True)
  target.write_text(conftest, encoding='utf-8')
  plugins.mkdir(parents=True, exist_ok=True)
  shutil.copyfile(
      _HERE / 'gate_pytest_plugin.py', plugins / 'adkfork_gate_plugin.py'
  )
  environment = {
      name: value
      for name, value in os.environ.items()
      if not name.startswith(('PYTEST_', 'ADK_', 'GOOGLE_'))
      and name not in ('PYTHONPATH', 'VIRTUAL_ENV', 'PYTHONHOME')
  }
  environment.update({
      'PYTHONPATH': os.pathsep.join([str(tree / 'src'), str(plugins)]),
      'ADKFORK_GATE_TREE': str(tree),
      'PYTHONDONTWRITEBYTECODE': '1',
      'NO_PROXY': '*',
  })
  where = subprocess.run(
      [
          str(python),
          '-c',
          'import importlib.util as u; print(u.find_spec("google.adk").origin)',
      ],
      cwd=tree,
      env=environment,
      capture_output=True,
      text=True,
  )
  source = (tree / 'src').resolve()
  location = where.stdout.strip()
  if where.returncode or not pathlib.Path(location).resolve().is_relative_to(
      source
  ):
    raise ForkBuildError(
        f'google.adk resolves to {location or where.stderr.strip()!r}, not'
        f' into the tree under test {source}: the PR tests would run against'
        ' the installed package. Check PYTHONPATH handling in adkfork/gate.py.'
    )
  try:
    result = subprocess.run(
        [
            str(python),
            '-m',
            'pytest',
            '-q',
            '-p',
            'no:cacheprovider',
            '-p',
            'adkfork_gate_plugin',
            '--rootdir',
            str(tree),
            *tests,
        ],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
        timeout=_TEST_TIMEOUT_SECONDS,
    )
  except subprocess.TimeoutExpired as e:
    output = (
        (e.stdout or b'').decode('utf-8', 'replace')
        if isinstance(e.stdout, bytes)
        else (e.stdout or '')
    )
    return (
        f'timed out after {_TEST_TIMEOUT_SECONDS}s',
        False,
        output,
    )
  finally:
    target.unlink(missing_ok=True)
  output = result.stdout + result.stderr
  summary = pytest_summary(result.stdout) or (
      f'pytest exited with status {result.returncode}'
  )
  return summary, result.returncode == 0, output


# -- The gate. --


def _changed_files(folder: pathlib.Path, base: str, head: str) -> list[str]:
  """Text files the PR adds or modifies (binary files left out)."""
  numstat = git.run(folder, 'diff', '--numstat', '--diff-filter=AM', base, head)
  files = []
  for line in numstat.splitlines():
    added, _, rest = line.partition('\t')
    _, _, path = rest.partition('\t')
    if added != '-' and path:
      files.append(path)
  return files


def _print_block(title: str, text: str) -> None:
  print(f'-- {title}')
  for line in text.rstrip('\n').splitlines():
    print(f'   {line}')


def _gate_pr(
    *,
    result: PrResult,
    folder: pathlib.Path,
    patch: pathlib.Path,
    dependency_patches: list[tuple[str, pathlib.Path]],
    identity: dict[str, str],
    python: pathlib.Path,
    cache: pathlib.Path,
    conftest: str,
    plugins: pathlib.Path,
    waves: dict[int, queue.Wave],
) -> None:
  pr = result.pr
  _checkout(folder, _PRISTINE_TAG)
  for dependency, dependency_patch in dependency_patches:
    complaint = _git_am(folder, dependency_patch, identity)
    if complaint:
      result.failures.append(
          f'apply: the patch of {dependency!r}, which {pr.id!r} depends on,'
          f' does not apply with git am ({dependency_patch.name}):\n'
          + complaint
      )
      return
  base = git.run(folder, 'rev-parse', 'HEAD').strip()
  complaint = _git_am(folder, patch, identity)
  if complaint:
    result.failures.append(
        f'apply: {patch.name} does not apply with git am on'
        f' {", ".join(pr.depends_on) or "pristine upstream"}:\n{complaint}'
    )
    return
  head = git.run(folder, 'rev-parse', 'HEAD').strip()

  result.added, result.deleted = parse_numstat(
      git.run(folder, 'diff', '--numstat', base, head)
  )
  problem = size_problem(pr, result.size or 0, waves)
  if problem:
    result.failures.append(problem)

  started = time.monotonic()
  _checkout(folder, base)
  base_errors = _run_mypy(python, folder, cache)
  _checkout(folder, head)
  head_errors = _run_mypy(python, folder, cache)
  result.new_mypy_errors = new_errors(base_errors, head_errors)
  print(
      f'   mypy: {len(base_errors)} errors on the base,'
      f' {len(head_errors)} with the PR'
      f' ({time.monotonic() - started:.0f}s)',
      flush=True,
  )
  if result.new_mypy_errors:
    result.failures.append(
        f'mypy: {len(result.new_mypy_errors)} new error(s):\n'
        + '\n'.join(result.new_mypy_errors)
    )

  changed = _changed_files(folder, base, head)
  result.lint_findings, reports = _lint(python, folder, changed)
  for report in reports:
    result.failures.append(f'lint: {report}')

  if pr.tests:
    summary, passed, output = _run_tests(
        python, folder, pr.tests, conftest, plugins
    )
    result.test_summary = summary
    if not passed:
      result.failures.append(f'tests: {summary}\n{output.strip()}')
  else:
    result.failures.append('tests: the PR has no tests (manifest `tests`).')
  result.failures.extend(description_problems(pr))


WHOLE_QUEUE = 'whole queue (with fork-only)'


def _whole_queue_result(
    project: Project,
    folder: pathlib.Path,
    python: pathlib.Path,
    cache: pathlib.Path,
) -> PrResult:
  """New mypy errors of the fork as users install it, every patch applied.

  Fork-only patches are never gated as PRs, so this is where their typing
  is held to upstream's settings: the patched tree (overlay included)
  against the pristine one.
  """
  entry = queue.PullRequest(
      id=WHOLE_QUEUE,
      subject='',
      status='fork-only',
      patches=[],
      modules=[],
      tests=[],
      fork_only_reason='the whole fork',
  )
  result = PrResult(entry)
  _checkout(folder, _PRISTINE_TAG)
  base = _run_mypy(python, folder, cache)
  package = pathlib.Path('src', 'google', 'adk')
  with tempfile.TemporaryDirectory() as tmp:
    patched = workspace.materialize(project, pathlib.Path(tmp) / 'work')
    shutil.rmtree(folder / package)
    shutil.copytree(patched / package, folder / package)
  try:
    result.new_mypy_errors = new_errors(base, _run_mypy(python, folder, cache))
  finally:
    _checkout(folder, _PRISTINE_TAG)
  if result.new_mypy_errors:
    result.failures.append(
        f'mypy: {len(result.new_mypy_errors)} new error(s) with every patch'
        ' applied:\n'
        + '\n'.join(result.new_mypy_errors)
    )
  return result


def _table(results: list[PrResult]) -> str:
  rows = [('PR', 'size', 'new mypy', 'lint', 'tests', 'result')]
  for result in results:
    rows.append((
        result.pr.id,
        '-' if result.size is None else str(result.size),
        '-'
        if result.new_mypy_errors is None
        else str(len(result.new_mypy_errors)),
        '-' if result.lint_findings is None else str(result.lint_findings),
        result.test_summary or '-',
        'ok' if result.ok else f'FAIL ({len(result.failures)})',
    ))
  widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
  lines = [
      ' | '.join(cell.ljust(width) for cell, width in zip(row, widths))
      for row in rows
  ]
  lines.insert(1, '-+-'.join('-' * width for width in widths))
  return '\n'.join(line.rstrip() for line in lines)


def gate(
    project: Project,
    out: pathlib.Path,
    author: str | None = None,
    only: list[str] | None = None,
) -> list[PrResult]:
  """Runs every check on every PR meant for upstream; prints as it goes.

  Args:
    project: The project settings.
    out: Where the exported patches (with pytest summaries) are written.
    author: `Name <email>` for the exported commits; by default the
      repository's git identity.
    only: Check only these PR ids (the PRs they depend on still apply).

  Returns:
    One result per checked PR, in manifest order.

  Raises:
    ForkBuildError: If the gate itself cannot run (no author, no sdist, no
      environment), as opposed to a PR failing a check.
  """
  started = time.monotonic()
  # git am runs in the gate's own tree, so a relative --out must not be read
  # from there.
  out = out.resolve()
  known = [pr.id for pr in queue.read_manifest(project) if pr.for_upstream]
  unknown = sorted(set(only or []) - set(known))
  if unknown:
    raise ForkBuildError(
        f'--pr {", ".join(unknown)}: no such upstream PR in'
        f' {project.manifest_file} (known: {", ".join(known)}).'
    )
  identity = export_lib.resolve_author(project.root, author)
  print(
      f'== PRs cut against google-adk {project.upstream_version}, written by'
      f' {identity["GIT_AUTHOR_NAME"]} <{identity["GIT_AUTHOR_EMAIL"]}>'
      f' ({"--author" if author else "git config user.name/user.email"})',
      flush=True,
  )
  python = gate_python(project)
  conftest, conftest_origin = _conftest_text()
  print(f'== gate: tests run beside {conftest_origin}', flush=True)
  work = project.work_dir / 'gate'
  work.mkdir(parents=True, exist_ok=True)
  folder = work / 'tree'
  cache = work / 'mypy-cache'
  plugins = work / 'plugins'
  _pristine_repo(project, folder)
  # Fork-only entries are exported too, only to check that they still apply
  # to pristine upstream; their patches are not kept.
  exports = export_lib.export_each(
      project, out, include_fork_only=True, author=author
  )
  by_id = {item.pr.id: item.pr for item in exports}
  declared_waves = queue.read_waves(project)
  wave_findings = wave_problems(
      [item.pr for item in exports if item.pr.for_upstream], declared_waves
  )
  patches = {item.pr.id: item.path for item in exports if item.path}
  results = []
  for item in exports:
    if only and item.pr.id not in only:
      continue
    if not item.pr.for_upstream:
      if item.error:
        results.append(PrResult(item.pr, failures=[f'export: {item.error}']))
      print(
          f'== {item.pr.id} (fork-only): '
          + (item.error or 'applies to pristine upstream'),
          flush=True,
      )
      continue
    result = PrResult(item.pr, failures=list(wave_findings.get(item.pr.id, [])))
    results.append(result)
    print(f'== {item.pr.id}', flush=True)
    if item.error or item.path is None:
      result.failures.append(f'export: {item.error}')
    else:
      order = dependency_order(item.pr, by_id)
      missing = [d for d in order if d not in patches]
      if missing:
        result.failures.append(
            f'apply: depends on {", ".join(missing)}, not exported.'
        )
      else:
        _gate_pr(
            result=result,
            folder=folder,
            patch=item.path,
            dependency_patches=[(d, patches[d]) for d in order],
            identity=identity,
            python=python,
            cache=cache,
            conftest=conftest,
            plugins=plugins,
            waves=declared_waves,
        )
      if result.test_summary:
        item.path.write_text(
            pr_template.fill_test_summary(
                item.path.read_text(encoding='utf-8'), result.test_summary
            ),
            encoding='utf-8',
        )
    size = '-' if result.size is None else str(result.size)
    print(
        f'   size {size} (+{result.added} -{result.deleted}); tests:'
        f' {result.test_summary or "-"}',
        flush=True,
    )
    for failure in result.failures:
      title, _, rest = failure.partition('\n')
      _print_block(title, rest)
  if not only:
    print(f'== {WHOLE_QUEUE}', flush=True)
    whole = _whole_queue_result(project, folder, python, cache)
    results.append(whole)
    print(f'   mypy: {len(whole.new_mypy_errors or [])} new error(s)')
    for failure in whole.failures:
      title, _, rest = failure.partition('\n')
      _print_block(title, rest)
  dropped = [
      pr_id
      for pr_id in drop_untested_patches(exports, results)
      if by_id[pr_id].for_upstream and (not only or pr_id in only)
  ]
  print(f'\n== gate summary ({time.monotonic() - started:.0f}s)')
  print(_table(results))
  print(f'patches (with test summaries) in {out}')
  if dropped:
    print(
        'not written, since their tests did not run here: ' + ', '.join(dropped)
    )
  return results


def drop_untested_patches(
    exports: list[export_lib.Exported], results: list[PrResult]
) -> list[str]:
  """Deletes every exported patch whose PR's tests did not run in this gate.

  Such a patch still says the pytest summary is not recorded, and a body
  with a placeholder must never be sent: it is either filled or not written.

  Returns:
    The ids of the PRs whose patches were deleted.
  """
  tested = {result.pr.id for result in results if result.test_summary}
  dropped = []
  for item in exports:
    if item.path is not None and item.pr.id not in tested:
      item.path.unlink(missing_ok=True)
      dropped.append(item.pr.id)
  return dropped
