"""Writes a PR's commit message in the shape of upstream's PR template.

Upstream asks each pull request for: the issue it fixes (or a description of
the change: the problem and the solution), a testing plan (unit tests, with
a summary of the pytest results, and manual end-to-end tests) and a
checklist. The manifest holds each part in its own field; this module puts
them together, so every exported patch reads the same way.
"""

from __future__ import annotations

from . import queue

# The line the testing plan carries until the gate has run the PR's tests.
# `gate` replaces exactly this line with pytest's summary, so keep it on one
# line and unique.
TEST_SUMMARY_PLACEHOLDER = (
    'pytest summary: not recorded yet; `python -m adkfork gate` runs the'
    ' tests and fills it in.'
)

_CONTRIBUTING = 'https://github.com/google/adk-python/blob/main/CONTRIBUTING.md'

# How each `issue-relation` reads in the body: "Fixes" only where the PR
# resolves the whole issue (GitHub then closes it on merge).
_ISSUE_VERBS = {
    'fixes': 'Fixes',
    'addresses': 'Addresses',
    'part-of': 'Part of',
}


def _box(checked: bool, text: str) -> str:
  return f'- [{"x" if checked else " "}] {text}'


def _section(title: str, text: str) -> list[str]:
  return [f'### {title}', '', text.strip(), '']


def render_message(
    pr: queue.PullRequest,
    test_summary: str | None = None,
    upstream_version: str | None = None,
    tests_into_upstream: bool = False,
) -> str:
  """Returns the commit message (subject, blank line, body) for a PR.

  Args:
    pr: The manifest entry.
    test_summary: pytest's summary line of the PR's tests (e.g. `12 passed
      in 3.1s`), or None for the placeholder line the gate fills in later.
    upstream_version: The upstream release the patch is cut against, said
      in the body so a reviewer knows what it applies to.
    tests_into_upstream: Whether the PR's tests went into upstream's test
      files (`upstream_test_additions`) instead of its own `tests`.

  Returns:
    The message, ending with a newline.
  """
  if not pr.uses_template:
    # An entry not yet moved to the template fields keeps its own text.
    return f'{pr.subject}\n\n{pr.body}'
  lines = [
      (
          '**Please ensure you have read the [contribution'
          f' guide]({_CONTRIBUTING}) before creating a pull request.**'
      ),
      '',
      '### Link to Issue or Description of Change',
      '',
  ]
  if pr.issue is not None:
    verb = _ISSUE_VERBS[pr.issue_relation]
    lines += [f'{verb} #{pr.issue}', '']
  elif pr.no_issue:
    lines += [pr.no_issue.strip(), '']
  lines += ['**Problem:**', '', pr.problem.strip(), '']
  lines += ['**Solution:**', '', pr.solution.strip(), '']
  lines += ['### Testing Plan', '', pr.testing.strip(), '']
  # Upstream's whole suite of this release is not public, so "all unit tests
  # pass" is never claimed: the boxes stay unchecked, and `upstream_tests`
  # says what of upstream's own tests ran, on pristine and with the PR.
  existing_pass = False
  test_files = (
      [f'`{path}` (tests added)' for path in pr.upstream_test_additions]
      if tests_into_upstream
      else [f'`{path}`' for path in pr.tests]
  )
  lines += [
      '**Unit Tests:**',
      '',
      _box(
          bool(test_files), 'I have added or updated unit tests for my change.'
      ),
      _box(existing_pass, 'All unit tests pass locally.'),
      '',
  ]
  lines += [f'- {path}' for path in test_files]
  if test_files:
    lines.append('')
  summary = (
      TEST_SUMMARY_PLACEHOLDER
      if test_summary is None
      else _summary_line(test_summary)
  )
  lines += [summary, '']
  if pr.upstream_tests:
    lines += [pr.upstream_tests.strip(), '']
  lines += ['**Manual End-to-End (E2E) Tests:**', '', pr.e2e.strip(), '']
  if pr.docs:
    lines += _section('Documentation', pr.docs)
  lines += [
      '### Checklist',
      '',
      _box(True, 'I have read the CONTRIBUTING.md document.'),
      _box(True, 'I have performed a self-review of my own code.'),
      _box(
          True,
          'I have commented my code, particularly in hard-to-understand areas.',
      ),
      _box(
          bool(test_files),
          'I have added tests that prove my fix is effective or that my'
          ' feature works.',
      ),
      _box(
          existing_pass,
          'New and existing unit tests pass locally with my changes.',
      ),
      _box(
          bool(pr.e2e.strip()), 'I have manually tested my changes end-to-end.'
      ),
      # Upstream's last item: ticked when nothing else has to land first,
      # neither a PR this one builds on nor a companion documentation change.
      _box(
          not pr.depends_on and not pr.docs,
          'Any dependent changes have been merged and published in'
          ' downstream modules.',
      ),
      '',
  ]
  if pr.depends_on or pr.size_reason or upstream_version:
    context = []
    if upstream_version:
      context.append(
          f'Made against: the v{upstream_version} release (google-adk'
          f' {upstream_version}), not main: it is the release the change was'
          ' written and tested against. The patch applies to that tag with'
          ' `git am`; it will be rebased onto main on request.'
      )
    if pr.depends_on:
      context.append('Builds on: ' + ', '.join(pr.depends_on_names) + '.')
    if pr.size_reason:
      context.append(f'Size: {pr.size_reason}')
    lines += _section('Additional context', '\n\n'.join(context))
  return f'{pr.subject}\n\n' + '\n'.join(lines).rstrip('\n') + '\n'


def _summary_line(test_summary: str) -> str:
  return f'pytest summary of the tests above: `{test_summary}`'


def fill_test_summary(patch_text: str, test_summary: str) -> str:
  """Puts pytest's summary into an exported patch in place of the placeholder.

  Args:
    patch_text: A patch `export` wrote from template fields.
    test_summary: pytest's summary line of the PR's tests.

  Returns:
    The patch with the summary line filled in; a patch without the
    placeholder is returned unchanged.
  """
  head, separator, diff = patch_text.partition('\n---\n')
  head = head.replace(TEST_SUMMARY_PLACEHOLDER, _summary_line(test_summary), 1)
  return head + separator + diff
