"""The gate's own rules, on small inputs (the gate itself runs in CI)."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

import pytest

from adkfork import export
from adkfork import gate
from adkfork import pr_template
from adkfork import project as project_lib
from adkfork import queue
from adkfork.errors import ForkBuildError

_ADKFORK = pathlib.Path(__file__).resolve().parents[2] / 'adkfork'


def _pr(**fields) -> queue.PullRequest:
  values = dict(
      id='feature',
      subject='feat(agents): add a feature',
      status='not-yet-sent',
      patches=['0002-feature.patch'],
      modules=[],
      tests=['tests/unittests/test_feature.py'],
      issue=123,
      problem='Agents cannot do X.\n',
      solution='Add Y.\n',
      testing='The tests run Y through a Runner.\n',
      e2e='`adk run sample` prints Z.\n',
  )
  values.update(fields)
  return queue.PullRequest(**values)


def test_mypy_diff_ignores_moved_lines_and_counts_repeats():
  base = gate.mypy_errors(
      'src/a.py:10: error: Bad thing  [misc]\n'
      'src/a.py:11: note: See here\n'
      'src/b.py:3:5: error: Name "x" already defined on line 1  [no-redef]\n'
  )
  changed = gate.mypy_errors(
      'src/a.py:20: error: Bad thing  [misc]\n'
      'src/a.py:30: error: Bad thing  [misc]\n'
      'src/b.py:9:5: error: Name "x" already defined on line 7  [no-redef]\n'
      'src/c.py:1: error: New problem  [arg-type]\n'
  )

  assert gate.new_errors(base, changed) == [
      'src/a.py: error: Bad thing  [misc]',
      'src/c.py: error: New problem  [arg-type]',
  ]
  assert gate.new_errors(changed, base) == []


def test_mypy_diff_ignores_the_order_of_literal_members():
  first = 'src/a.py:5: error: has type "Literal[E.B, E.A] | None"  [assignment]'
  second = (
      'src/a.py:9: error: has type "Literal[E.A, E.B] | None"  [assignment]'
  )

  assert (
      gate.new_errors(gate.mypy_errors(first), gate.mypy_errors(second)) == []
  )


def test_numstat_sums_added_and_deleted_lines_and_skips_binary_files():
  numstat = 'a\tb\n10\t2\tsrc/a.py\n-\t-\tdocs/image.png\n5\t0\ttests/t.py\n'

  assert gate.parse_numstat(numstat) == (15, 2)


@pytest.mark.parametrize(
    ('size', 'reason', 'fails'),
    [
        (600, '', False),
        (601, '', True),
        (601, 'One schema change; splitting breaks the build.', False),
        (1000, 'a reason', False),
        (1001, 'a reason', True),
    ],
)
def test_size_rule(size, reason, fails):
  problem = gate.size_problem(_pr(size_reason=reason), size)

  assert (problem is not None) == fails
  if fails:
    assert str(size) in problem


def test_dependency_order_is_transitive_and_lists_each_pr_once():
  prs = {
      'a': _pr(id='a'),
      'b': _pr(id='b', depends_on=['a']),
      'c': _pr(id='c', depends_on=['a']),
      'd': _pr(id='d', depends_on=['b', 'c']),
  }

  assert gate.dependency_order(prs['d'], prs) == ['a', 'b', 'c']
  assert gate.dependency_order(prs['a'], prs) == []


@pytest.mark.parametrize(
    ('output', 'summary'),
    [
        ('...\n12 passed in 3.10s\n', '12 passed in 3.10s'),
        (
            '== 2 failed, 41 passed, 1 warning in 33.62s ==\n',
            '2 failed, 41 passed, 1 warning in 33.62s',
        ),
        ('no tests ran in 0.01s\n', 'no tests ran in 0.01s'),
        ('ImportError: boom\n', None),
    ],
)
def test_pytest_summary_line(output, summary):
  assert gate.pytest_summary(output) == summary


def test_message_follows_the_template_sections():
  message = pr_template.render_message(_pr(docs='google/adk-docs#9\n'))
  subject, blank, *body = message.splitlines()
  text = '\n'.join(body)

  assert subject == 'feat(agents): add a feature'
  assert blank == ''
  assert 'Fixes #123' in text
  sections = [
      '### Link to Issue or Description of Change',
      '**Problem:**',
      '**Solution:**',
      '### Testing Plan',
      '**Unit Tests:**',
      '**Manual End-to-End (E2E) Tests:**',
      '### Documentation',
      '### Checklist',
  ]
  positions = [text.index(section) for section in sections]
  assert positions == sorted(positions)
  assert '- [x] I have added or updated unit tests for my change.' in text
  assert '- [x] I have read the CONTRIBUTING.md document.' in text
  # Upstream's own tests for the touched modules have not been recorded.
  assert '- [ ] All unit tests pass locally.' in text
  assert '- [ ] New and existing unit tests pass locally' in text
  assert pr_template.TEST_SUMMARY_PLACEHOLDER in text
  assert '`adk run sample` prints Z.' in text


def test_gate_fills_in_the_summary_of_the_prs_tests():
  message = pr_template.render_message(_pr())
  patch = (
      f'From 0 Mon Sep 17 00:00:00 2001\nSubject: x\n\n{message}---\n diff\n'
  )

  filled = pr_template.fill_test_summary(patch, '12 passed in 3.10s')

  assert pr_template.TEST_SUMMARY_PLACEHOLDER not in filled
  assert 'pytest summary of the tests above: `12 passed in 3.10s`' in filled
  # Only the PR's tests ran, not the whole suite the boxes speak of.
  assert '- [ ] All unit tests pass locally.' in filled
  assert filled.endswith('---\n diff\n')
  assert pr_template.fill_test_summary(filled, '1 failed in 1s') == filled


def test_recorded_upstream_tests_are_reported_not_claimed_as_all_passing():
  counts = "Upstream's tests of workflow/: 812 passed on 2.13.0 and with it."
  text = pr_template.render_message(_pr(upstream_tests=counts + '\n'))

  assert counts in text
  assert '- [ ] All unit tests pass locally.' in text
  assert '- [ ] New and existing unit tests pass locally' in text


def test_only_patches_whose_tests_ran_are_left(tmp_path):
  tested, untested = _pr(id='tested'), _pr(id='untested')
  exports = []
  for pr in (tested, untested):
    path = tmp_path / f'{pr.id}.patch'
    path.write_text(pr_template.render_message(pr))
    exports.append(export.Exported(pr, path=path))
  results = [gate.PrResult(tested, test_summary='3 passed in 1s')]

  assert gate.drop_untested_patches(exports, results) == ['untested']
  assert [p.name for p in tmp_path.iterdir()] == ['tested.patch']


def test_free_text_body_is_kept_and_reported_by_the_gate():
  pr = _pr(problem='', solution='', testing='', e2e='', body='Old text.\n')

  assert pr_template.render_message(pr) == (
      'feat(agents): add a feature\n\nOld text.\n'
  )
  assert gate.description_problems(pr)
  assert not gate.description_problems(_pr())


def _manifest_repo(tmp_path: pathlib.Path, entry: str) -> project_lib.Project:
  root = tmp_path / 'repo'
  (root / 'patches').mkdir(parents=True)
  (root / 'pyproject.toml').write_text(
      (_ADKFORK.parent / 'pyproject.toml').read_text()
  )
  (root / 'patches' / 'upstream-prs.toml').write_text(entry)
  return project_lib.load_project(root)


_VALID_ENTRY = """
[[pr]]
id = "feature"
status = "not-yet-sent"
subject = "feat: x"
patches = [ "0002-x.patch" ]
issue = 5
problem = "p"
solution = "s"
testing = "t"
e2e = "e"
"""


def test_manifest_reads_the_template_fields(tmp_path):
  [pr] = queue.read_manifest(_manifest_repo(tmp_path, _VALID_ENTRY))

  assert (pr.issue, pr.problem, pr.e2e, pr.size_reason) == (5, 'p\n', 'e\n', '')
  assert pr.uses_template


@pytest.mark.parametrize(
    ('change', 'named'),
    [
        (('issue = 5', 'issue = "#5"'), '`issue`'),
        (('issue = 5\n', ''), '`issue` is missing'),
        (('e2e = "e"\n', ''), '`e2e`'),
        (('testing = "t"', 'testing = "a\\n---\\nb"'), '`testing` has a line'),
        (
            ('patches = [ "0002-x.patch" ]', 'patches = "0002-x.patch"'),
            '`patches`',
        ),
        (('e2e = "e"', 'e2e = "e"\nsize_reason = "x"'), 'unknown field'),
        (
            ('solution = "s"', 'solution = "as the design issue agreed it"'),
            'claims no agreement',
        ),
        (('e2e = "e"', 'e2e = "the image is attached"'), '`e2e` says'),
        (
            (
                'e2e = "e"',
                'e2e = "e"\nupstream-tests = "320 passed, 76 failed"',
            ),
            'a failure count',
        ),
    ],
)
def test_malformed_entry_names_the_entry_and_the_field(tmp_path, change, named):
  entry = _VALID_ENTRY.replace(*change)
  project = _manifest_repo(tmp_path, entry)

  with pytest.raises(ForkBuildError) as error:
    queue.read_manifest(project)

  assert "PR 'feature'" in str(error.value)
  assert named in str(error.value)


_DESIGN_ISSUE = """
[[design-issue]]
id = "sources"
file = "contributing/upstream/sources.md"
"""


@pytest.mark.parametrize(
    ('number', 'named'),
    [
        ('', 'Related: the design issue "Design: record the source".'),
        ('issue = 7\n', 'Related: #7.'),
    ],
)
def test_a_body_names_a_design_issue_by_its_number_or_current_title(
    tmp_path, number, named
):
  entry = (
      _DESIGN_ISSUE
      + number
      + _VALID_ENTRY.replace(
          'problem = "p"', 'problem = "Related: {design-issue:sources}."'
      )
  )
  project = _manifest_repo(tmp_path, entry)
  (project.root / 'contributing' / 'upstream').mkdir(parents=True)
  (project.root / 'contributing' / 'upstream' / 'sources.md').write_text(
      '# Design: record the source\n\nText.\n'
  )

  [pr] = queue.read_manifest(project)

  assert pr.problem == named + '\n'


@pytest.mark.parametrize(
    ('status', 'named'),
    [
        ('not-yet-sent', 'the PR "feat: base"'),
        ('https://github.com/google/adk-python/pull/9', '#9'),
    ],
)
def test_a_body_names_another_pr_by_its_number_once_sent(
    tmp_path, status, named
):
  base = _VALID_ENTRY.replace('id = "feature"', 'id = "base"').replace(
      'subject = "feat: x"', 'subject = "feat: base"'
  )
  base = base.replace('status = "not-yet-sent"', f'status = "{status}"')
  stacked = _VALID_ENTRY.replace(
      'problem = "p"', 'problem = "After {pr:base}."'
  ).replace('issue = 5', 'issue = 5\ndepends-on = [ "base" ]')

  [_, pr] = queue.read_manifest(_manifest_repo(tmp_path, base + stacked))

  assert pr.problem == f'After {named}.\n'
  assert pr.depends_on_names == [named]


def test_a_reference_to_an_undeclared_design_issue_is_an_error(tmp_path):
  entry = _VALID_ENTRY.replace(
      'problem = "p"', 'problem = "See {design-issue:sorces}."'
  )

  with pytest.raises(ForkBuildError, match='no \\[\\[design-issue\\]\\]'):
    queue.read_manifest(_manifest_repo(tmp_path, entry))


def test_fork_only_entries_need_no_issue_but_a_reason(tmp_path):
  entry = _VALID_ENTRY.replace('issue = 5\n', '').replace(
      'status = "not-yet-sent"', 'status = "fork-only"'
  )

  with pytest.raises(ForkBuildError, match='`fork-only-reason` is missing'):
    queue.read_manifest(_manifest_repo(tmp_path, entry))

  entry = entry.replace(
      'status = "fork-only"\n',
      'status = "fork-only"\nfork-only-reason = "Upstream has no use for'
      ' it."\n',
  )
  [pr] = queue.read_manifest(_manifest_repo(tmp_path / 'with-reason', entry))

  assert pr.issue is None
  assert pr.fork_only_reason == 'Upstream has no use for it.\n'


def test_an_upstream_pr_without_an_issue_says_why(tmp_path):
  entry = _VALID_ENTRY.replace('issue = 5\n', '')

  with pytest.raises(ForkBuildError, match='`no-issue`'):
    queue.read_manifest(_manifest_repo(tmp_path, entry))

  reason = 'A crash fix; no issue reports it.'
  entry = entry.replace('e2e = "e"', f'e2e = "e"\nno-issue = "{reason}"')
  [pr] = queue.read_manifest(_manifest_repo(tmp_path / 'with-reason', entry))
  text = pr_template.render_message(pr)

  assert reason in text and 'Fixes #' not in text


def test_a_pr_that_does_not_resolve_its_issue_addresses_it(tmp_path):
  entry = _VALID_ENTRY.replace(
      'issue = 5\n', 'issue = 5\nissue-relation = "addresses"\n'
  )

  [pr] = queue.read_manifest(_manifest_repo(tmp_path, entry))

  text = pr_template.render_message(pr)
  assert 'Addresses #5' in text and 'Fixes #5' not in text


def test_a_stacked_pr_is_part_of_its_issue(tmp_path):
  entry = _VALID_ENTRY.replace(
      'issue = 5\n', 'issue = 5\nissue-relation = "part-of"\n'
  )

  [pr] = queue.read_manifest(_manifest_repo(tmp_path, entry))

  text = pr_template.render_message(pr)
  assert 'Part of #5' in text and 'Fixes #5' not in text


@pytest.fixture
def no_git_identity(tmp_path, monkeypatch) -> pathlib.Path:
  """A git repository, with no user configured anywhere git looks."""
  monkeypatch.setenv('GIT_CONFIG_GLOBAL', str(tmp_path / 'no-global'))
  monkeypatch.setenv('GIT_CONFIG_NOSYSTEM', '1')
  for name in ('NAME', 'EMAIL'):
    for role in ('AUTHOR', 'COMMITTER'):
      monkeypatch.delenv(f'GIT_{role}_{name}', raising=False)
  monkeypatch.delenv('EMAIL', raising=False)
  root = tmp_path / 'checkout'
  root.mkdir()
  subprocess.run(['git', 'init', '-q', str(root)], check=True)
  return root


def test_author_without_identity_is_a_clear_error(no_git_identity):
  with pytest.raises(ForkBuildError, match='--author "Name <email>"'):
    export.resolve_author(no_git_identity)


def test_author_flag_wins_and_is_checked(no_git_identity):
  identity = export.resolve_author(no_git_identity, 'Ada L <ada@example.com>')

  assert identity['GIT_AUTHOR_NAME'] == 'Ada L'
  assert identity['GIT_COMMITTER_EMAIL'] == 'ada@example.com'
  with pytest.raises(ForkBuildError, match='is not `Name <email>`'):
    export.resolve_author(no_git_identity, 'ada@example.com')


def test_author_comes_from_the_repository_identity(no_git_identity):
  for key, value in (('user.name', 'Grace H'), ('user.email', 'g@example.com')):
    subprocess.run(
        ['git', '-C', str(no_git_identity), 'config', key, value], check=True
    )

  identity = export.resolve_author(no_git_identity)

  assert identity['GIT_AUTHOR_NAME'] == 'Grace H'
  assert identity['GIT_AUTHOR_EMAIL'] == 'g@example.com'


def test_unittests_conftest_sets_up_like_upstreams(tmp_path):
  tests = tmp_path / 'tests'
  tests.mkdir()
  (tests / 'conftest.py').write_text(
      (_ADKFORK / 'unittests_conftest.py').read_text()
  )
  (tests / 'test_sample.py').write_text(textwrap.dedent("""\
      import os
      from unittest import mock

      def test_session_settings():
        assert os.environ['GOOGLE_API_KEY'] == 'fake_google_api_key'
        assert os.environ['ADK_ALLOW_WIP_FEATURES'] == 'true'
        assert os.environ['GOOGLE_GENAI_USE_ENTERPRISE'] == '0'

      def test_backends(env_variables):
        assert os.environ['GOOGLE_GENAI_USE_ENTERPRISE'] in ('0', '1')

      def test_leaks_a_patch():
        mock.patch('os.getcwd', return_value='/nowhere').start()

      def test_after_the_leak():
        assert os.getcwd() != '/nowhere'
      """))

  result = subprocess.run(
      [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-rA'],
      cwd=tmp_path,
      capture_output=True,
      text=True,
  )

  assert 'test_backends[GOOGLE_AI]' in result.stdout
  assert 'test_backends[VERTEX]' in result.stdout
  assert 'left 1 started mock patch(es) in place: os.getcwd' in result.stdout
  assert gate.pytest_summary(result.stdout).startswith('5 passed, 1 error')


def _run_with_gate_plugin(tmp_path, tree, test_text, extra_path=None):
  plugins = tmp_path / 'plugins'
  plugins.mkdir()
  (plugins / 'adkfork_gate_plugin.py').write_text(
      (_ADKFORK / 'gate_pytest_plugin.py').read_text()
  )
  (tmp_path / 'test_sample.py').write_text(textwrap.dedent(test_text))
  return subprocess.run(
      [
          sys.executable,
          '-m',
          'pytest',
          '-q',
          '-p',
          'no:cacheprovider',
          '-p',
          'adkfork_gate_plugin',
          'test_sample.py',
      ],
      cwd=tmp_path,
      env={
          'PATH': '/usr/bin:/bin',
          'PYTHONPATH': f'{tree / "src"}:{plugins}:{extra_path or ""}',
          'ADKFORK_GATE_TREE': str(tree),
      },
      capture_output=True,
      text=True,
  )


def test_gate_plugin_turns_the_network_off_but_not_loopback(tmp_path):
  tree = tmp_path / 'tree'
  (tree / 'src' / 'google' / 'adk').mkdir(parents=True)
  (tree / 'src' / 'google' / 'adk' / '__init__.py').write_text('')

  result = _run_with_gate_plugin(
      tmp_path,
      tree,
      """\
      import socket
      import pytest

      def test_remote_is_refused():
        with pytest.raises(OSError, match='network access is off'):
          socket.create_connection(('192.0.2.1', 80), timeout=1)
        with pytest.raises(OSError, match='network access is off'):
          socket.getaddrinfo('example.com', 443)

      def test_loopback_works():
        server = socket.socket()
        server.bind(('127.0.0.1', 0))
        server.listen()
        socket.create_connection(server.getsockname(), timeout=1).close()
        server.close()
      """,
  )

  assert gate.pytest_summary(result.stdout) is not None, result.stderr
  assert gate.pytest_summary(result.stdout).startswith('2 passed')


def test_gate_plugin_refuses_a_run_against_another_google_adk(tmp_path):
  tree = tmp_path / 'tree'
  (tree / 'src').mkdir(parents=True)
  elsewhere = tmp_path / 'elsewhere'
  (elsewhere / 'google' / 'adk').mkdir(parents=True)
  (elsewhere / 'google' / 'adk' / '__init__.py').write_text('')

  result = _run_with_gate_plugin(
      tmp_path, tree, 'def test_anything():\n  pass\n', extra_path=elsewhere
  )

  assert result.returncode != 0
  assert 'not from the tree under test' in result.stderr


_WAVES = {
    1: queue.Wave(number=1, when='now', max_lines=300, max_prs=4),
    3: queue.Wave(number=3, when='after agreement', max_lines=2000, max_prs=2),
}


def test_a_first_wave_pr_is_small_and_stands_on_the_first_wave_only():
  small = _pr(id='small', wave=1)
  stacked = _pr(id='stacked', wave=1, depends_on=['feature'])
  feature = _pr(id='feature', wave=3, size_reason='whole')

  assert gate.size_problem(small, 300, _WAVES) is None
  assert "wave 1's limit of 300" in gate.size_problem(small, 301, _WAVES)
  problems = gate.wave_problems([small, stacked, feature], _WAVES)
  assert list(problems) == ['stacked']
  assert 'builds on feature' in problems['stacked'][0]


def test_a_feature_wave_pr_is_held_to_its_wave_limit_not_the_general_one():
  feature = _pr(id='feature', wave=3, size_reason='sent whole')
  unwaved = _pr(id='other', size_reason='a reason')

  assert gate.size_problem(feature, 1800, _WAVES) is None
  assert "wave 3's limit of 2000" in gate.size_problem(feature, 2001, _WAVES)
  assert 'limit of 1000' in gate.size_problem(unwaved, 1800, _WAVES)


def test_the_third_wave_holds_two_feature_prs_at_most():
  prs = [_pr(id=name, wave=3) for name in ('a', 'b', 'c')]

  assert gate.wave_problems(prs[:2], _WAVES) == {}
  assert set(gate.wave_problems(prs, _WAVES)) == {'a', 'b', 'c'}


def test_every_pr_sent_upstream_is_in_a_declared_wave():
  problems = gate.wave_problems(
      [_pr(id='loose'), _pr(id='odd', wave=5)], _WAVES
  )

  assert set(problems) == {'loose', 'odd'}
  assert 'fork-only-reason' in problems['loose'][0]


def test_waves_are_read_from_the_manifest(tmp_path):
  waves = """
[[wave]]
number = 1
when = "now"
max-lines = 300

[[wave]]
number = 3
when = "after agreement"
max-lines = 2000
max-prs = 2
"""
  entry = _VALID_ENTRY.replace('issue = 5\n', 'issue = 5\nwave = 3\n')
  project = _manifest_repo(tmp_path, waves + entry)

  assert queue.read_waves(project) == {
      1: queue.Wave(number=1, when='now', max_lines=300),
      3: queue.Wave(
          number=3, when='after agreement', max_lines=2000, max_prs=2
      ),
  }
  [pr] = queue.read_manifest(project)
  assert pr.wave == 3


@pytest.mark.parametrize(
    ('table', 'named'),
    [
        ('number = 2\nwhen = "x"\nmax-lines = 1', 'wave 2 is the design'),
        ('number = 1\nwhen = "x"\nmax-lines = 0', '`max-lines`'),
        ('number = 1\nmax-lines = 5', '`when`'),
        ('number = 1\nwhen = "x"\nmax-lines = 5\nsize = 1', 'unknown'),
    ],
)
def test_a_malformed_wave_is_a_clear_error(tmp_path, table, named):
  project = _manifest_repo(tmp_path, f'[[wave]]\n{table}\n' + _VALID_ENTRY)

  with pytest.raises(ForkBuildError, match=named):
    queue.read_manifest(project)


def test_a_wave_is_one_or_three(tmp_path):
  entry = _VALID_ENTRY.replace('issue = 5\n', 'issue = 5\nwave = 2\n')

  with pytest.raises(ForkBuildError, match='wave 2 is the design issues'):
    queue.read_manifest(_manifest_repo(tmp_path, entry))
