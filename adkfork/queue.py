"""The patch queue: `patches/series`, the patch files and their application.

A patch file is a plain-words header (DEP-3 style fields) followed by unified
diffs in git's format against upstream's repository paths. Application is
exact: every hunk must match the file at the line numbers it names, with no
fuzz and no offset, so a queue that applies here applies the same everywhere.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib

from .errors import ForkBuildError
from .project import Project
from .project import to_package_path

_HUNK_HEADER = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')
_DIFF_HEADER = re.compile(r'^diff --git a/(\S+) b/(\S+)$')
_NO_NEWLINE = '\\ No newline at end of file'
REQUIRED_HEADER_FIELDS = ('Description', 'Forwarded')
# The line between a patch's header and its diffs, as in DEP-3 and git.
HEADER_END = '---\n'


@dataclasses.dataclass
class Hunk:
  """One `@@` block of a file diff."""

  header: str
  old_start: int
  old_count: int
  lines: list[str]  # Each starts with ' ', '-' or '+', newline included.


@dataclasses.dataclass
class FileDiff:
  """The changes a patch makes to one upstream file."""

  path: str  # Upstream repository path, e.g. src/google/adk/version.py.
  hunks: list[Hunk]


@dataclasses.dataclass
class Patch:
  """A parsed patch file."""

  name: str
  header: str
  files: list[FileDiff]

  def field(self, name: str) -> str | None:
    """Returns a header field's value (continuation lines joined)."""
    return parse_header_fields(self.header).get(name)


def parse_header_fields(header: str) -> dict[str, str]:
  """Parses `Field: value` lines; indented lines continue the last field."""
  fields: dict[str, str] = {}
  current = None
  for line in header.splitlines():
    if line[:1] in (' ', '\t') and current:
      fields[current] += '\n' + line.strip()
    elif ':' in line and not line.startswith(' '):
      current, _, value = line.partition(':')
      current = current.strip()
      fields[current] = value.strip()
    else:
      current = None
  return fields


def read_series(project: Project) -> list[str]:
  """Returns the patch file names in `patches/series`, in order.

  Raises:
    ForkBuildError: If the series is missing, or names a file twice.
  """
  try:
    text = project.series_file.read_text(encoding='utf-8')
  except OSError as e:
    raise ForkBuildError(
        f'Cannot read {project.series_file}: {e}. It lists the patch files'
        ' in the order they apply, one per line.'
    ) from e
  names = [
      line.strip()
      for line in text.splitlines()
      if line.strip() and not line.startswith('#')
  ]
  seen = set()
  for name in names:
    if name in seen:
      raise ForkBuildError(f'{project.series_file} lists {name} twice.')
    seen.add(name)
  return names


def parse_patch(name: str, text: str) -> Patch:
  """Parses a patch file.

  Args:
    name: The file name, used in error messages.
    text: The file's content.

  Returns:
    The header and the file diffs.

  Raises:
    ForkBuildError: If the diff is malformed, creates, deletes, renames or
      changes the mode of a file (new files belong in the overlay), or
      touches paths outside the google.adk package.
  """
  lines = text.splitlines(keepends=True)
  index = 0
  while index < len(lines) and not lines[index].startswith('diff --git '):
    index += 1
  header = ''.join(lines[:index])
  if header.endswith(HEADER_END):
    header = header[: -len(HEADER_END)]
  files: list[FileDiff] = []
  current: FileDiff | None = None
  while index < len(lines):
    line = lines[index]
    index += 1
    if line.startswith('diff --git '):
      match = _DIFF_HEADER.match(line.rstrip('\n'))
      if not match or match.group(1) != match.group(2):
        raise ForkBuildError(
            f'{name}: unsupported diff header {line.strip()!r}: a patch may'
            ' only change files in place (no renames).'
        )
      to_package_path(match.group(1))
      current = FileDiff(path=match.group(1), hunks=[])
      files.append(current)
    elif line.startswith(
        ('new file mode', 'deleted file mode', 'old mode', 'new mode')
    ) or line.rstrip('\n') in ('--- /dev/null', '+++ /dev/null'):
      raise ForkBuildError(
          f'{name}: {current.path if current else "?"}: {line.strip()!r}:'
          ' patches only change existing upstream files in place; add new'
          ' modules under src/ (the overlay) instead, and never delete'
          ' upstream files.'
      )
    elif line.startswith(('index ', '--- ', '+++ ')) and current:
      continue
    elif line.startswith('@@'):
      match = _HUNK_HEADER.match(line)
      if not match or current is None:
        raise ForkBuildError(f'{name}: malformed hunk header {line.strip()!r}')
      hunk = Hunk(
          header=line.rstrip('\n'),
          old_start=int(match.group(1)),
          old_count=int(match.group(2) or 1),
          lines=[],
      )
      current.hunks.append(hunk)
      index = _read_hunk_lines(name, current.path, hunk, match, lines, index)
    elif not line.strip() or line.startswith('-- '):
      # Blank lines and a `git format-patch` signature between diffs.
      continue
    else:
      raise ForkBuildError(
          f'{name}: unexpected line {index} in the diff: {line.rstrip()!r}'
      )
  if not files:
    raise ForkBuildError(f'{name}: the patch holds no diff.')
  return Patch(name=name, header=header, files=files)


def _read_hunk_lines(
    name: str,
    path: str,
    hunk: Hunk,
    match: re.Match[str],
    lines: list[str],
    index: int,
) -> int:
  """Reads exactly the lines a hunk header announces; returns the next index."""
  old_left = int(match.group(2)) if match.group(2) is not None else 1
  new_left = int(match.group(4)) if match.group(4) is not None else 1
  while old_left > 0 or new_left > 0:
    if index >= len(lines):
      raise ForkBuildError(
          f'{name}: {path}: hunk {hunk.header!r} ends early: the file ends'
          f' with {old_left} old and {new_left} new lines still to come.'
      )
    line = lines[index]
    index += 1
    kind = line[:1]
    if line == '\n':
      # Some editors strip the single space of an empty context line.
      line, kind = ' \n', ' '
    if kind == ' ':
      old_left -= 1
      new_left -= 1
    elif kind == '-':
      old_left -= 1
    elif kind == '+':
      new_left -= 1
    else:
      raise ForkBuildError(
          f'{name}: {path}: hunk {hunk.header!r} has a line that is not'
          f' context, removal or addition: {line.rstrip()!r}'
      )
    if old_left < 0 or new_left < 0:
      raise ForkBuildError(
          f'{name}: {path}: hunk {hunk.header!r} has more lines than its'
          ' header announces.'
      )
    hunk.lines.append(line)
    if index < len(lines) and lines[index].rstrip('\n') == _NO_NEWLINE:
      hunk.lines[-1] = hunk.lines[-1].rstrip('\n')
      index += 1
  return index


def read_patch(project: Project, name: str) -> Patch:
  path = project.patches_dir / name
  try:
    text = path.read_text(encoding='utf-8')
  except OSError as e:
    raise ForkBuildError(
        f'{project.series_file} lists {name}, but {path} cannot be read: {e}'
    ) from e
  return parse_patch(name, text)


def read_queue(project: Project) -> list[Patch]:
  """Reads every patch in series order."""
  return [read_patch(project, name) for name in read_series(project)]


def apply_file_diff(patch_name: str, diff: FileDiff, original: str) -> str:
  """Applies one file's hunks exactly.

  Args:
    patch_name: For error messages.
    diff: The file's hunks.
    original: The file's current text.

  Returns:
    The patched text.

  Raises:
    ForkBuildError: Naming the patch, the file and the hunk that does not
      match, with the line that differs.
  """
  source = original.splitlines(keepends=True)
  result: list[str] = []
  position = 0  # Index into `source` of the next line not yet copied.
  for number, hunk in enumerate(diff.hunks, start=1):
    # A hunk that only adds lines names the line it adds them after.
    start = hunk.old_start if hunk.old_count == 0 else hunk.old_start - 1
    if start < position:
      raise ForkBuildError(
          f'{patch_name}: hunk #{number} ({hunk.header}) of {diff.path}'
          ' overlaps the hunk before it.'
      )
    result.extend(source[position:start])
    cursor = start
    for line in hunk.lines:
      kind, text = line[0], line[1:]
      if kind in (' ', '-'):
        actual = source[cursor] if cursor < len(source) else None
        if actual != text:
          raise ForkBuildError(
              f'{patch_name}: hunk #{number} ({hunk.header}) of {diff.path}'
              f' does not apply: line {cursor + 1} is'
              f' {"end of file" if actual is None else repr(actual)}, the'
              f' patch expects {text!r}. Rebase the patch (see'
              ' contributing/patch-queue.md).'
          )
        cursor += 1
        if kind == ' ':
          result.append(text)
      else:
        result.append(text)
    position = cursor
  result.extend(source[position:])
  return ''.join(result)


def apply_patch(patch: Patch, files: dict[str, bytes]) -> None:
  """Applies a patch in place to a tree held as {installed path: bytes}.

  Raises:
    ForkBuildError: If a file is missing upstream or a hunk does not apply.
  """
  for diff in patch.files:
    path = to_package_path(diff.path)
    if path not in files:
      raise ForkBuildError(
          f'{patch.name}: {diff.path} does not exist upstream; new modules'
          ' belong under src/ (the overlay), not in a patch.'
      )
    try:
      original = files[path].decode('utf-8')
    except UnicodeDecodeError as e:
      raise ForkBuildError(f'{patch.name}: {diff.path} is not text.') from e
    files[path] = apply_file_diff(patch.name, diff, original).encode('utf-8')


@dataclasses.dataclass
class PullRequest:
  """One upstream pull request: patches, new modules, tests, description.

  The description follows upstream's pull request template: the issue it
  fixes or is part of (or, for a change no issue asks for, `no_issue` says
  why), the problem, the solution, what the tests cover and the manual
  end-to-end evidence. `body` is the older free-text description, used only
  when the template fields are absent.
  """

  id: str
  subject: str
  status: str
  patches: list[str]
  modules: list[str]
  tests: list[str]
  depends_on: list[str] = dataclasses.field(default_factory=list)
  depends_on_names: list[str] = dataclasses.field(default_factory=list)
  """How the body names each of `depends_on` (`pr_name`)."""
  issue: int | None = None
  issue_relation: str = 'fixes'
  no_issue: str = ''
  problem: str = ''
  solution: str = ''
  testing: str = ''
  e2e: str = ''
  docs: str = ''
  size_reason: str = ''
  body: str = ''
  upstream_tests: str = ''
  """Upstream's own unit tests for the modules the PR touches: what ran,
  on pristine upstream and with the PR, and the counts."""
  wave: int | None = None
  """When it is sent: the `number` of a `[[wave]]` of the manifest."""
  fork_only_reason: str = ''
  """Why a fork-only entry is not sent upstream."""
  upstream_test_additions: dict[str, str] = dataclasses.field(
      default_factory=dict
  )
  """Upstream test file -> our file of test functions that go into it.

  Where upstream already tests the neighbouring code, the PR's tests belong
  in that file, written with its helpers. Upstream's tests are not shipped
  with its release, so the file is read from an upstream test tree at
  export time; without one the PR carries `tests` instead."""

  @property
  def for_upstream(self) -> bool:
    return self.status != 'fork-only'

  @property
  def uses_template(self) -> bool:
    """Whether the description is in the template fields, not `body`."""
    return bool(self.problem or self.solution or self.testing or self.e2e)


_STRING_FIELDS = ('id', 'subject', 'status')
_TEMPLATE_FIELDS = ('problem', 'solution', 'testing', 'e2e')
_OPTIONAL_TEXT_FIELDS = (
    'docs',
    'size-reason',
    'no-issue',
    'body',
    'upstream-tests',
    'fork-only-reason',
)
_ISSUE_RELATIONS = ('fixes', 'addresses', 'part-of')
# Words a reviewer reads as a fact about the PR that the PR cannot show.
_UNBACKED_CLAIM = re.compile(
    r'\b(?:is |are |was |were |as )?(?:agreed|attached)\b', re.IGNORECASE
)
# A test-run count a reviewer reads as the PR failing ("76 failed", "4
# errors"), whatever caused it: a body states what passes and that nothing
# changes outcome instead.
_FAILING_COUNT = re.compile(
    r'\b\d[\d,]* (?:failed|failures?|errors?)\b', re.IGNORECASE
)
_DESIGN_ISSUE_WAVE = 2
# `{design-issue:ID}` in a body names the design issue of `[[design-issue]]`
# ID, and `{pr:ID}` the PR of `[[pr]]` ID: its number once it is filed (sent),
# its title until then, read from one place so a body cannot cite a title the
# issue no longer has, nor leave a sent PR unlinked.
_REFERENCE = re.compile(r'\{(design-issue|pr):([^}]*)\}')
_SENT_PR_URL = re.compile(r'^https://github\.com/[^/]+/[^/]+/pull/(\d+)/?$')
_LIST_FIELDS = ('patches', 'modules', 'tests', 'depends-on')
_KNOWN_FIELDS = frozenset(
    _STRING_FIELDS
    + _TEMPLATE_FIELDS
    + _OPTIONAL_TEXT_FIELDS
    + _LIST_FIELDS
    + ('issue', 'issue-relation', 'wave', 'upstream-test-additions')
)


def _text(value: str) -> str:
  return value.strip() + '\n' if value.strip() else ''


def _entry_problems(
    entry: dict[str, object], waves: dict[int, Wave]
) -> list[str]:
  """What is wrong with one `[[pr]]` table, field by field."""
  problems = []
  for key in sorted(set(entry) - _KNOWN_FIELDS):
    problems.append(
        f'unknown field `{key}` (known: {", ".join(sorted(_KNOWN_FIELDS))})'
    )
  for key in _STRING_FIELDS:
    if not isinstance(entry.get(key), str) or not str(entry[key]).strip():
      problems.append(f'`{key}` must be a non-empty string')
  for key in _TEMPLATE_FIELDS + _OPTIONAL_TEXT_FIELDS:
    if key in entry and not isinstance(entry[key], str):
      problems.append(f'`{key}` must be a string')
  for key in _LIST_FIELDS:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(item, str) and item for item in value
    ):
      problems.append(f'`{key}` must be a list of non-empty strings')
  additions = entry.get('upstream-test-additions', {})
  if not isinstance(additions, dict) or not all(
      isinstance(k, str) and k and isinstance(v, str) and v
      for k, v in additions.items()
  ):
    problems.append(
        '`upstream-test-additions` must map upstream test files to our files'
        ' of test functions, e.g. { "tests/unittests/x/test_y.py" ='
        ' "tests/upstream_additions/x/y.py" }'
    )
  for key in _TEMPLATE_FIELDS + _OPTIONAL_TEXT_FIELDS:
    value = entry.get(key)
    if isinstance(value, str) and any(
        line.rstrip() == '---' for line in value.splitlines()
    ):
      problems.append(
          f'`{key}` has a line `---`, which ends a commit message for'
          ' `git am`: use a heading or a blank line instead'
      )
  if entry.get('status') != 'fork-only':
    for key in _TEMPLATE_FIELDS + _OPTIONAL_TEXT_FIELDS:
      value = entry.get(key)
      claim = _UNBACKED_CLAIM.search(value) if isinstance(value, str) else None
      if claim:
        problems.append(
            f'`{key}` says {claim.group(0)!r}: a body sent upstream claims no'
            ' agreement nobody gave and no attachment it does not carry'
        )
      count = _FAILING_COUNT.search(value) if isinstance(value, str) else None
      if count:
        problems.append(
            f'`{key}` says {count.group(0)!r}: a failure count reads as this'
            ' PR failing; say which tests pass with and without the change'
        )
  issue = entry.get('issue')
  if issue is not None and (
      isinstance(issue, bool) or not isinstance(issue, int) or issue <= 0
  ):
    problems.append(
        '`issue` must be the upstream issue number, e.g. `issue = 2207`,'
        f' not {issue!r}'
    )
  relation = entry.get('issue-relation', 'fixes')
  if relation not in _ISSUE_RELATIONS:
    problems.append(
        f'`issue-relation` must be one of {", ".join(_ISSUE_RELATIONS)},'
        f' not {relation!r}'
    )
  if 'issue-relation' in entry and issue is None:
    problems.append('`issue-relation` needs an `issue`')
  wave = entry.get('wave')
  if wave is not None and (isinstance(wave, bool) or wave not in waves):
    declared = ', '.join(str(number) for number in sorted(waves)) or 'none'
    problems.append(
        f'`wave` must be the number of a `[[wave]]` (declared: {declared}),'
        f' not {wave!r}'
        + (
            '; wave 2 is the design issues themselves, files under'
            ' contributing/upstream/'
            if wave == _DESIGN_ISSUE_WAVE
            else ''
        )
    )
  if entry.get('status') == 'fork-only':
    if wave is not None:
      problems.append('a fork-only entry is never sent: it has no `wave`')
    if not str(entry.get('fork-only-reason', '')).strip():
      problems.append(
          '`fork-only-reason` is missing: say why the entry is not sent'
          ' upstream (or when it would be)'
      )
  if problems:
    return problems
  uses_template = any(entry.get(key) for key in _TEMPLATE_FIELDS)
  if uses_template or not entry.get('body'):
    for key in _TEMPLATE_FIELDS:
      if not str(entry.get(key, '')).strip():
        problems.append(
            f'`{key}` is missing or empty: the description follows'
            " upstream's pull request template (problem, solution, testing,"
            ' e2e)'
        )
    if (
        entry['status'] != 'fork-only'
        and issue is None
        and not str(entry.get('no-issue', '')).strip()
    ):
      problems.append(
          '`issue` is missing: an upstream PR names the issue it fixes'
          ' (`issue = N`; the description says `Fixes #N`), or says in'
          ' `no-issue` why none exists'
      )
  return problems


@dataclasses.dataclass(frozen=True)
class Wave:
  """A batch of PRs sent together, and the rules each of its PRs meets.

  Declared as `[[wave]]` tables in the manifest, so the sizes a maintainer
  is asked to review are written down beside the PRs, not in the gate.
  """

  number: int
  when: str
  max_lines: int
  """The most changed lines, code and tests, of one PR of the wave."""
  max_prs: int | None = None
  """How many PRs the wave may hold; None for no limit."""


def _wave_problems(table: dict[str, object]) -> list[str]:
  problems = []
  for key in sorted(set(table) - {'number', 'when', 'max-lines', 'max-prs'}):
    problems.append(f'unknown field `{key}`')
  number = table.get('number')
  if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
    problems.append(f'`number` must be a positive integer, not {number!r}')
  elif number == _DESIGN_ISSUE_WAVE:
    problems.append(
        'wave 2 is the design issues, files under contributing/upstream/;'
        ' it holds no PRs and needs no table'
    )
  if not isinstance(table.get('when'), str) or not str(table['when']).strip():
    problems.append('`when` must say when the wave is sent')
  for key in ('max-lines', 'max-prs'):
    value = table.get(key)
    if key == 'max-prs' and value is None:
      continue
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
      problems.append(f'`{key}` must be a positive integer, not {value!r}')
  return problems


def _read_waves(path: object, data: dict[str, object]) -> dict[int, Wave]:
  tables = data.get('wave', [])
  if not isinstance(tables, list):
    raise ForkBuildError(f'{path}: `wave` must be an array of `[[wave]]`.')
  waves: dict[int, Wave] = {}
  for index, table in enumerate(tables, start=1):
    problems = _wave_problems(table)
    if not problems and table['number'] in waves:
      problems.append(f'wave {table["number"]} is declared twice')
    if problems:
      raise ForkBuildError(
          f'{path}: [[wave]] {index}: ' + '; '.join(problems) + '.'
      )
    waves[table['number']] = Wave(
        number=table['number'],
        when=table['when'].strip(),
        max_lines=table['max-lines'],
        max_prs=table.get('max-prs'),
    )
  return waves


def read_waves(project: Project) -> dict[int, Wave]:
  """Reads the `[[wave]]` tables of `patches/upstream-prs.toml`, by number.

  Raises:
    ForkBuildError: If the manifest is missing or a table is malformed.
  """
  path = project.manifest_file
  try:
    data = tomllib.loads(path.read_text(encoding='utf-8'))
  except (OSError, tomllib.TOMLDecodeError) as e:
    raise ForkBuildError(f'Cannot read {path}: {e}') from e
  return _read_waves(path, data)


def _read_design_issues(
    project: Project, path: object, data: dict[str, object]
) -> dict[str, str | None]:
  """How a body names each `[[design-issue]]`, by id.

  A filed design issue (`issue = N`) is named `#N`; one not filed yet is
  named by the title its file under contributing/upstream/ opens with, and
  has no name (None) when that file cannot be read.
  """
  tables = data.get('design-issue', [])
  if not isinstance(tables, list):
    raise ForkBuildError(
        f'{path}: `design-issue` must be an array of `[[design-issue]]`.'
    )
  names: dict[str, str | None] = {}
  for index, table in enumerate(tables, start=1):
    where = f'{path}: [[design-issue]] {index}'
    unknown = sorted(set(table) - {'id', 'file', 'issue'})
    if unknown:
      raise ForkBuildError(f'{where}: unknown field `{unknown[0]}`.')
    issue_id, file = table.get('id'), table.get('file')
    if not isinstance(issue_id, str) or not issue_id or issue_id in names:
      raise ForkBuildError(f'{where}: `id` must be a new non-empty string.')
    number = table.get('issue')
    if number is not None:
      if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
        raise ForkBuildError(
            f"{where}: `issue` must be the filed issue's number, not"
            f' {number!r}.'
        )
      names[issue_id] = f'#{number}'
      continue
    if not isinstance(file, str) or not file:
      raise ForkBuildError(
          f"{where}: `file` must name the issue's text, e.g."
          ' "contributing/upstream/x-design-issue.md".'
      )
    try:
      first = (project.root / file).read_text(encoding='utf-8').splitlines()
    except OSError:
      # A partial copy of the repository (a test's) may lack the file; a
      # body that names the issue says so.
      names[issue_id] = None
      continue
    if not first or not first[0].startswith('# '):
      raise ForkBuildError(
          f'{where}: {file} must open with its title, a line "# Design: ...".'
      )
    names[issue_id] = f'the design issue "{first[0][2:].strip()}"'
  return names


def pr_name(status: str, subject: str) -> str:
  """How another PR's body names a PR: `#N` once sent, else its title."""
  sent = _SENT_PR_URL.match(status)
  return f'#{sent.group(1)}' if sent else f'the PR "{subject}"'


def _pr_names(entries: list[object]) -> dict[str, str | None]:
  """`pr_name` of each well-formed `[[pr]]` entry, by id."""
  names: dict[str, str | None] = {}
  for entry in entries:
    if isinstance(entry, dict) and all(
        isinstance(entry.get(key), str) for key in _STRING_FIELDS
    ):
      names[entry['id']] = pr_name(entry['status'], entry['subject'])
  return names


def _name_references(
    entry: dict[str, object], names: dict[str, dict[str, str | None]]
) -> list[str]:
  """Puts the name of each design issue and PR it refers to into the entry's
  text, in place.

  Args:
    entry: A `[[pr]]` table.
    names: By kind (`design-issue`, `pr`), each id's name.

  Returns:
    What is wrong: each reference to an id the manifest does not declare, or
    to a design issue whose file cannot be read.
  """
  problems = []
  for key in _TEMPLATE_FIELDS + _OPTIONAL_TEXT_FIELDS:
    value = entry.get(key)
    if not isinstance(value, str):
      continue
    for kind, unnamed in sorted({
        match.groups()
        for match in _REFERENCE.finditer(value)
        if names[match.group(1)].get(match.group(2)) is None
    }):
      problems.append(
          f'`{key}` names {{{kind}:{unnamed}}}, which no [[{kind}]] declares'
          if unnamed not in names[kind]
          else f'`{key}` names {{{kind}:{unnamed}}}, whose file cannot be read'
      )
    entry[key] = _REFERENCE.sub(
        lambda match: names[match.group(1)].get(match.group(2))
        or match.group(0),
        value,
    )
  return problems


def read_manifest(project: Project) -> list[PullRequest]:
  """Reads `patches/upstream-prs.toml`, the map from PRs to files.

  Raises:
    ForkBuildError: If the manifest is missing or malformed, naming the
      entry and the field.
  """
  path = project.manifest_file
  try:
    data = tomllib.loads(path.read_text(encoding='utf-8'))
  except (OSError, tomllib.TOMLDecodeError) as e:
    raise ForkBuildError(f'Cannot read {path}: {e}') from e
  waves = _read_waves(path, data)
  entries = data.get('pr', [])
  if not isinstance(entries, list):
    raise ForkBuildError(f'{path}: `pr` must be an array of `[[pr]]` tables.')
  names: dict[str, dict[str, str | None]] = {
      'design-issue': _read_design_issues(project, path, data),
      'pr': _pr_names(entries),
  }
  prs = []
  for number, entry in enumerate(entries, start=1):
    name = repr(entry.get('id')) if isinstance(entry.get('id'), str) else ''
    problems = _name_references(entry, names)
    problems += _entry_problems(entry, waves)
    if problems:
      raise ForkBuildError(
          f'{path}: PR {name or "#" + str(number)} (entry {number}): '
          + '; '.join(problems)
          + '.'
      )
    prs.append(
        PullRequest(
            id=entry['id'],
            subject=entry['subject'],
            status=entry['status'],
            patches=list(entry.get('patches', [])),
            modules=list(entry.get('modules', [])),
            tests=list(entry.get('tests', [])),
            depends_on=list(entry.get('depends-on', [])),
            depends_on_names=[
                names['pr'].get(d) or f'`{d}`'
                for d in entry.get('depends-on', [])
            ],
            issue=entry.get('issue'),
            issue_relation=entry.get('issue-relation', 'fixes'),
            no_issue=_text(entry.get('no-issue', '')),
            problem=_text(entry.get('problem', '')),
            solution=_text(entry.get('solution', '')),
            testing=_text(entry.get('testing', '')),
            e2e=_text(entry.get('e2e', '')),
            docs=_text(entry.get('docs', '')),
            size_reason=entry.get('size-reason', '').strip(),
            body=_text(entry.get('body', '')),
            upstream_tests=_text(entry.get('upstream-tests', '')),
            wave=entry.get('wave'),
            fork_only_reason=_text(entry.get('fork-only-reason', '')),
            upstream_test_additions=dict(
                entry.get('upstream-test-additions', {})
            ),
        )
    )
  return prs


def overlay_files(project: Project) -> list[str]:
  """Lists the overlay's files as upstream repository paths (src/...)."""
  root = project.overlay_dir
  if not root.is_dir():
    return []
  paths = []
  for path in sorted(root.rglob('*')):
    if path.is_dir() or '__pycache__' in path.parts or path.suffix == '.pyc':
      continue
    paths.append('src/' + path.relative_to(root).as_posix())
  return paths
