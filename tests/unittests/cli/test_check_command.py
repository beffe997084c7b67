# Copyright 2026 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""`adk check` on agent folders written by the tests."""

from __future__ import annotations

import json
import pathlib

from click.testing import CliRunner
from google.adk.cli.cli_tools_click import main
import pytest

_HEADER = """\
import warnings
from google.adk.agents import LlmAgent, SequentialAgent
warnings.simplefilter('ignore', DeprecationWarning)
"""

_TYPO = _HEADER + """\
classifier = LlmAgent(name='classifier', model='gemini-2.5-flash',
                      instruction='Answer booking or info.', output_key='intent')
booker = LlmAgent(name='booker', model='gemini-2.5-flash',
                  instruction='The request is about {intnet}.',
                  include_sources=['user', 'self'])
print('loading prints must not reach stdout')
root_agent = SequentialAgent(name='router', sub_agents=[classifier, booker])
"""

_WARNING_ONLY = _HEADER + """\
researcher = LlmAgent(name='researcher', model='gemini-2.5-flash',
                      output_key='notes')
writer = LlmAgent(name='writer', model='gemini-2.5-flash',
                  instruction='Write from {notes}.',
                  include_sources=['user', 'self', 'reseacher'])
root_agent = SequentialAgent(name='pipeline', sub_agents=[researcher, writer])
"""

_CLEAN_APP = _HEADER + """\
from google.adk.apps.app import App
classifier = LlmAgent(name='classifier', model='gemini-2.5-flash',
                      instruction='Answer booking or info.', output_key='intent')
booker = LlmAgent(name='booker', model='gemini-2.5-flash',
                  instruction='The request is about {intent}.',
                  include_sources=['user', 'self'])
app = App(name='clean', root_agent=SequentialAgent(
    name='router', sub_agents=[classifier, booker]))
"""


def _folder(tmp_path: pathlib.Path, name: str, source: str) -> str:
  folder = tmp_path / name
  folder.mkdir()
  (folder / '__init__.py').write_text('from . import agent\n')
  (folder / 'agent.py').write_text(source)
  return str(folder)


def _check(*args: str):
  return CliRunner().invoke(main, ['check', *args], catch_exceptions=False)


def test_the_command_is_listed_in_adk_help():
  result = CliRunner().invoke(main, ['--help'])

  assert 'check' in result.stdout.split()


def test_table_lists_the_error_in_80_columns_and_exits_1(tmp_path):
  result = _check(_folder(tmp_path, 'typo', _TYPO))

  assert result.exit_code == 1
  lines = result.stdout.splitlines()
  assert lines[0].split() == ['SEVERITY', 'CODE', 'AGENT']
  assert lines[2].split() == ['error', 'ADK-D101', 'booker']
  assert (
      '{intnet}' in result.stdout and 'Did you mean {intent}?' in result.stdout
  )
  assert max(len(line) for line in lines) <= 80
  assert lines[-1] == 'router: 1 error, 0 warnings, 0 infos.'
  assert 'loading prints' not in result.stdout


def test_json_is_the_only_stdout(tmp_path):
  result = _check('--format', 'json', _folder(tmp_path, 'typo', _TYPO))

  assert result.exit_code == 1
  data = json.loads(result.stdout)
  assert data['agent'] == 'router'
  assert [
      (d['severity'], d['code'], d['agent']) for d in data['diagnostics']
  ] == [('error', 'ADK-D101', 'booker')]


def test_warnings_do_not_fail_unless_strict(tmp_path):
  folder = _folder(tmp_path, 'typo_in_sources', _WARNING_ONLY)

  relaxed = _check(folder)
  strict = _check('--strict', folder)

  assert relaxed.exit_code == 0
  assert 'warning  ADK-D104  writer' in relaxed.stdout
  assert relaxed.stdout.splitlines()[-1] == (
      'pipeline: 0 errors, 1 warning, 0 infos.'
  )
  assert strict.exit_code == 1


def test_an_app_with_no_problems_exits_0(tmp_path):
  result = _check(_folder(tmp_path, 'clean', _CLEAN_APP))

  assert result.exit_code == 0
  assert result.stdout.strip() == 'router: no problems found.'


def test_ignore_silences_a_code_and_rejects_unknown_codes(tmp_path):
  folder = _folder(tmp_path, 'typo_in_sources', _WARNING_ONLY)

  ignored = _check('--ignore', 'ADK-D104', '--strict', folder)
  misspelled = _check('--ignore', 'D104', folder)

  assert ignored.exit_code == 0
  # The result says that a finding was left out, and which code.
  assert ignored.stdout.strip() == (
      'pipeline: no problems reported (1 finding ignored: ADK-D104).'
  )
  assert misspelled.exit_code == 2
  assert 'unknown code D104' in misspelled.stderr


@pytest.mark.parametrize('source', [None, 'root_agent = undefined_name\n'])
def test_a_folder_that_does_not_load_exits_2(tmp_path, source):
  folder = tmp_path / 'broken'
  folder.mkdir()
  if source is not None:
    (folder / 'agent.py').write_text(source)

  result = _check(str(folder))

  assert result.exit_code == 2
  assert result.stdout == ''
  assert 'Error: cannot load the agent in' in result.stderr
  if source is None:
    # No agent in the folder: say what it must hold.
    assert 'must hold an agent.py' in result.stderr
  else:
    # The folder holds one, which raised: say that, not a guess.
    assert 'undefined_name' in result.stderr
    assert 'must hold' not in result.stderr


def test_a_folder_whose_agent_is_misconfigured_says_so_without_a_guess(
    tmp_path,
):
  folder = tmp_path / 'misconfigured'
  folder.mkdir()
  (folder / 'agent.py').write_text(
      'from google.adk.agents import LlmAgent\n'
      "root_agent = LlmAgent(name='writer', model='gemini-2.5-flash',"
      " visibilty='internal')\n"
  )

  result = _check(str(folder))

  assert result.exit_code == 2
  assert (
      "LlmAgent 'writer' has no keyword 'visibilty' and refuses it. Did you"
      " mean 'visibility'?"
  ) in result.stderr
  assert 'must hold' not in result.stderr
  assert 'Traceback' not in result.stderr
