"""What `adkfork export` puts on a PR: its author, its release, its tests."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import textwrap

import pytest

from adkfork import export
from adkfork import pr_template
from adkfork import queue
from adkfork.errors import ForkBuildError


def _pr(**fields) -> queue.PullRequest:
  values = dict(
      id='fix',
      subject='fix(workflow): a fix',
      status='not-yet-sent',
      patches=['0002-fix.patch'],
      modules=[],
      tests=['tests/unittests/workflow/test_fix.py'],
      issue=123,
      problem='It breaks.\n',
      solution='Mend it.\n',
      testing='A test.\n',
      e2e='Run it.\n',
  )
  values.update(fields)
  return queue.PullRequest(**values)


def test_body_says_the_release_it_is_cut_against():
  text = pr_template.render_message(_pr(), upstream_version='2.13.0')

  assert 'Made against: the v2.13.0 release (google-adk 2.13.0), not main:' in (
      text
  )


def test_checklist_keeps_upstream_last_item():
  standalone = pr_template.render_message(_pr(), upstream_version='2.13.0')
  stacked = pr_template.render_message(
      _pr(depends_on=['base'], depends_on_names=['`base`'])
  )

  item = 'Any dependent changes have been merged and published in downstream'
  assert f'- [x] {item} modules.' in standalone
  assert f'- [ ] {item} modules.' in stacked
  assert (
      standalone.index('end-to-end.')
      < standalone.index(item)
      < (standalone.index('### Additional context'))
  )


def test_tests_into_upstream_files_are_listed_as_upstream_files():
  pr = _pr(
      upstream_test_additions={
          'tests/unittests/workflow/test_node.py': 'tests/additions/node.py'
      }
  )

  into = pr_template.render_message(pr, tests_into_upstream=True)
  alone = pr_template.render_message(pr)

  assert '- `tests/unittests/workflow/test_node.py` (tests added)' in into
  assert 'test_fix.py' not in into
  assert '- `tests/unittests/workflow/test_fix.py`' in alone


def test_author_from_the_command_line_wins(tmp_path: pathlib.Path):
  subprocess.run(['git', 'init', '-q', str(tmp_path)], check=True)

  identity = export.resolve_author(tmp_path, 'Ada Lovelace <ada@example.com>')

  assert identity['GIT_AUTHOR_NAME'] == 'Ada Lovelace'
  assert identity['GIT_COMMITTER_EMAIL'] == 'ada@example.com'


def test_author_must_be_name_and_email(tmp_path: pathlib.Path):
  with pytest.raises(ForkBuildError, match='Name <email>'):
    export.resolve_author(tmp_path, 'ada@example.com')


_UPSTREAM = textwrap.dedent('''\
    """Upstream's tests."""

    from __future__ import annotations

    from google.adk.workflow import START
    import pytest


    def test_upstream():
      assert START
    ''')

_ADDITIONS = textwrap.dedent('''\
    """Ours."""

    from __future__ import annotations

    from google.adk.agents.llm_agent import LlmAgent
    from google.adk.workflow import START
    import pytest


    def _helper() -> int:
      return 1


    @pytest.mark.asyncio
    async def test_ours():
      assert START and LlmAgent and _helper()
    ''')


def test_added_functions_follow_upstream_file_and_missing_imports_join_it():
  merged = export.add_test_functions(_UPSTREAM, _ADDITIONS)

  tree = ast.parse(merged)
  assert [getattr(s, 'name', None) for s in tree.body][-3:] == [
      'test_upstream',
      '_helper',
      'test_ours',
  ]
  assert merged.count('from google.adk.workflow import START') == 1
  assert merged.count('from __future__ import annotations') == 1
  imports = [
      s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))
  ]
  assert 'from google.adk.agents.llm_agent import LlmAgent' in [
      ast.get_source_segment(merged, s) for s in imports
  ]
  assert '"""Ours."""' not in merged
  assert (
      'import pytest\nfrom google.adk.agents.llm_agent import LlmAgent\n'
      in merged
  )


def test_an_import_inside_an_upstream_function_still_joins_the_module():
  upstream = _UPSTREAM + textwrap.dedent("""\


      def test_local_import():
        from google.adk.agents.llm_agent import LlmAgent

        assert LlmAgent
      """)

  merged = export.add_test_functions(upstream, _ADDITIONS)

  imports = [
      ast.get_source_segment(merged, s)
      for s in ast.parse(merged).body
      if isinstance(s, (ast.Import, ast.ImportFrom))
  ]
  assert 'from google.adk.agents.llm_agent import LlmAgent' in imports
