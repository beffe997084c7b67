"""Parsing and exact application of patch files."""

from __future__ import annotations

import pytest

from adkfork import queue
from adkfork.errors import ForkBuildError

_ORIGINAL = ''.join(f'line {n}\n' for n in range(1, 11))


def _patch(body: str, header: str = 'Description: test\n---\n') -> str:
  return (
      header
      + 'diff --git a/src/google/adk/x.py b/src/google/adk/x.py\n'
      + '--- a/src/google/adk/x.py\n'
      + '+++ b/src/google/adk/x.py\n'
      + body
  )


def _apply(text: str, original: str = _ORIGINAL) -> str:
  files = {'google/adk/x.py': original.encode()}
  queue.apply_patch(queue.parse_patch('0001-t.patch', text), files)
  return files['google/adk/x.py'].decode()


def test_applies_a_hunk_at_its_line_numbers():
  text = _patch('@@ -4,3 +4,3 @@\n line 4\n-line 5\n+LINE FIVE\n line 6\n')

  assert _apply(text) == _ORIGINAL.replace('line 5\n', 'LINE FIVE\n')


def test_pure_insertion_goes_after_the_named_line():
  text = _patch('@@ -5,0 +6,1 @@\n+inserted\n')

  assert _apply(text).splitlines()[4:7] == ['line 5', 'inserted', 'line 6']


def test_handles_a_file_without_a_final_newline():
  original = 'a\nb'
  text = _patch(
      '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n'
      '\\ No newline at end of file\n'
  )

  assert _apply(text, original) == 'a\nc'


def test_header_is_kept_apart_from_the_diff():
  patch = queue.parse_patch(
      'p', _patch('@@ -1 +1 @@\n-line 1\n+one\n', 'Description: d\n x\n---\n')
  )

  assert patch.header == 'Description: d\n x\n'
  assert patch.field('Description') == 'd\nx'


def test_mismatch_names_the_patch_hunk_file_and_line():
  text = _patch(
      '@@ -1,1 +1,1 @@\n-line 1\n+one\n'
      '@@ -5,1 +5,1 @@\n-something else\n+five\n'
  )

  with pytest.raises(ForkBuildError) as error:
    _apply(text)

  message = str(error.value)
  assert '0001-t.patch' in message
  assert 'hunk #2 (@@ -5,1 +5,1 @@)' in message
  assert 'src/google/adk/x.py' in message
  assert "line 5 is 'line 5\\n'" in message


def test_no_offset_is_tolerated():
  # The same change one line off does not apply: application is exact.
  text = _patch('@@ -5,1 +5,1 @@\n-line 4\n+four\n')

  with pytest.raises(ForkBuildError, match='does not apply'):
    _apply(text)


@pytest.mark.parametrize(
    'extra',
    ['new file mode 100644\n', 'deleted file mode 100644\n'],
)
def test_creating_or_deleting_files_is_refused(extra):
  text = (
      'diff --git a/src/google/adk/y.py b/src/google/adk/y.py\n'
      + extra
      + '--- /dev/null\n+++ b/src/google/adk/y.py\n@@ -0,0 +1 @@\n+x\n'
  )

  with pytest.raises(ForkBuildError, match='overlay'):
    queue.parse_patch('0002-new.patch', text)


def test_paths_outside_the_package_are_refused():
  text = 'diff --git a/setup.py b/setup.py\n@@ -1 +1 @@\n-a\n+b\n'

  with pytest.raises(ForkBuildError, match='outside src/google/adk/'):
    queue.parse_patch('0003-out.patch', text)


def test_hunk_with_fewer_lines_than_announced_is_refused():
  with pytest.raises(ForkBuildError, match='ends early'):
    queue.parse_patch('p', _patch('@@ -1,3 +1,3 @@\n line 1\n'))


def test_patch_for_a_file_upstream_lacks_is_refused():
  text = _patch('@@ -1 +1 @@\n-a\n+b\n')

  with pytest.raises(ForkBuildError, match='does not exist upstream'):
    queue.apply_patch(queue.parse_patch('p', text), {})
