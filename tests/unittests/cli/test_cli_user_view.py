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

"""`adk run --internal`: what the terminal shows of internal agents."""

from __future__ import annotations

import json
import logging
import pathlib
import sys
import tempfile

from click.testing import CliRunner
from google.adk.cli import cli
from google.adk.cli.cli_tools_click import main
import pytest

# A classifier that looks up flights and stores its label, then the agent
# that answers the user. The model replies from the request alone.
_PIPELINE = """\
import pathlib
import warnings
from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.function_tool import FunctionTool
from google.genai import types
warnings.simplefilter('ignore', DeprecationWarning)


def search_flights(city: str) -> dict:
  return {'flights': ['LH 123']}


def book(city: str) -> dict:
  pathlib.Path(__file__).with_name('booked.txt').write_text(city)
  return {'booked': city}


class ScriptedLlm(BaseLlm):
  model: str = 'scripted'

  async def generate_content_async(self, llm_request, stream=False):
    last = llm_request.contents[-1].parts[-1]
    tool = next(iter(llm_request.tools_dict), None)
    if tool and not last.function_response:
      part = types.Part(function_call=types.FunctionCall(
          name=tool, args={'city': 'Rome'}))
    elif tool:
      part = types.Part(text='booking')
    else:
      part = types.Part(text='Your flight LH 123 is booked.')
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


classifier = LlmAgent(name='classifier', model=ScriptedLlm(),
                      tools=[TOOL], output_key='intent'SOURCES)
answerer = LlmAgent(name='answerer', model=ScriptedLlm())
root_agent = SequentialAgent(name='NAME', sub_agents=[classifier, answerer])
"""

_FOLDERS = ('pipeline', 'typo_in_sources')
_ANSWER = '[answerer]: Your flight LH 123 is booked.'
_PROGRESS = [
    '  classifier (internal): calling search_flights',
    '  classifier (internal): search_flights answered',
    '  classifier (internal): working',
]
# The turn's message: the answer, then the internal classifier's run, its
# search at its default level (name and status) as the classifier's work.
_CARD = '  [agent] classifier: finished (search_flights: done)'


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
  # `adk run` replaces the root logger's handlers with a log file in the
  # temporary folder, and the agent loader imports each folder as a module.
  monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
  root = logging.getLogger()
  handlers, level = root.handlers[:], root.level
  yield
  root.handlers, root.level = handlers, level
  for name in [m for m in sys.modules if m.split('.')[0] in _FOLDERS]:
    del sys.modules[name]


def _folder(
    tmp_path: pathlib.Path,
    name: str = 'pipeline',
    tool: str = 'search_flights',
    sources: str = '',
) -> str:
  folder = tmp_path / name
  folder.mkdir()
  (folder / '__init__.py').write_text('from . import agent\n')
  (folder / 'agent.py').write_text(
      _PIPELINE.replace('NAME', name)
      .replace('TOOL', tool)
      .replace('SOURCES', sources)
  )
  return str(folder)


def _run(*args: str, stdin: str = ''):
  return CliRunner().invoke(
      main, ['run', '--in_memory', *args], input=stdin, catch_exceptions=False
  )


def test_default_minimal_shows_internal_steps_as_progress_lines(tmp_path):
  result = _run(_folder(tmp_path), stdin='A flight to Rome?\nexit\n')

  assert result.exit_code == 0
  lines = result.stdout.splitlines()
  start = lines.index('[user]: ' + _PROGRESS[0])
  assert lines[start + 1 : start + 4] == _PROGRESS[1:] + [_ANSWER]
  assert '[classifier]' not in result.stdout


def test_hidden_prints_nothing_for_internal_agents(tmp_path):
  result = _run(
      '--internal', 'hidden', _folder(tmp_path), stdin='A flight?\nexit\n'
  )

  assert _ANSWER in result.stdout
  assert 'classifier' not in result.stdout


def test_full_prints_every_agent_as_a_chat_line(tmp_path):
  result = _run(
      '--internal', 'full', _folder(tmp_path), stdin='A flight?\nexit\n'
  )

  lines = result.stdout.splitlines()
  assert lines[-3:] == ['[user]: [classifier]: booking', _ANSWER, '[user]: ']
  assert '(internal)' not in result.stdout


def test_end_of_input_ends_the_session_like_exit(tmp_path):
  result = _run(_folder(tmp_path), stdin='A flight?\n')

  assert result.exit_code == 0
  assert _ANSWER in result.stdout


@pytest.mark.parametrize(
    'internal, shown',
    [
        ('minimal', _PROGRESS + [_ANSWER, _CARD]),
        ('hidden', [_ANSWER]),
        ('full', ['[classifier]: booking', _ANSWER]),
    ],
)
def test_single_query(tmp_path, internal, shown):
  result = _run('--internal', internal, _folder(tmp_path), 'A flight?')

  assert result.exit_code == 0
  lines = result.stdout.splitlines()
  assert lines[lines.index(shown[0]) :] == shown


def _jsonl(folder: str, internal: str) -> list[dict]:
  result = _run('--jsonl', '--internal', internal, folder, 'A flight?')
  return [
      json.loads(line)
      for line in result.stdout.splitlines()
      if line.startswith('{')
  ]


def test_jsonl_minimal_has_internal_events_without_their_content(tmp_path):
  events = _jsonl(_folder(tmp_path), 'minimal')

  assert [e['author'] for e in events] == ['classifier'] * 3 + ['answerer']
  call = events[0]['content']['parts'][0]['functionCall']
  assert call['name'] == 'search_flights' and 'args' not in call
  assert 'content' not in events[2] and events[2]['partial']
  # Its output_key value is its output too: not sent.
  assert 'stateDelta' not in events[2].get('actions', {})


def test_jsonl_hidden_and_full(tmp_path):
  folder = _folder(tmp_path)
  hidden = _jsonl(folder, 'hidden')
  full = _jsonl(folder, 'full')

  assert [e['author'] for e in hidden] == ['answerer']
  assert full[2]['content']['parts'] == [{'text': 'booking'}]
  assert full[0]['content']['parts'][0]['functionCall']['args'] == {
      'city': 'Rome'
  }


def test_resume_shows_the_saved_session_as_shown_live_but_tool_cards(tmp_path):
  folder = _folder(tmp_path)
  _run('--save_session', '--session_id', 's1', folder, stdin='A flight?\n')
  saved = pathlib.Path(folder, 's1.session.json')

  result = _run('--resume', str(saved), folder)

  # The file keeps the classifier's text; only the display leaves it out.
  assert '"booking"' in saved.read_text()
  # It does not keep which tools the user may see: their cards are left out.
  assert result.stdout.splitlines()[-6:] == (
      ['[user]: A flight?'] + _PROGRESS + [_ANSWER, '[user]: ']
  )


def test_replay_shows_progress(tmp_path):
  queries = tmp_path / 'queries.json'
  queries.write_text(json.dumps({'state': {}, 'queries': ['A flight?']}))

  result = _run('--replay', str(queries), _folder(tmp_path))

  assert result.stdout.splitlines()[-6:] == (
      ['[user]: A flight?'] + _PROGRESS + [_ANSWER, _CARD]
  )


@pytest.mark.parametrize('answer, booked', [('yes\n', True), ('', False)])
def test_confirmation_asked_by_an_internal_agent(tmp_path, answer, booked):
  folder = _folder(
      tmp_path, tool='FunctionTool(book, require_confirmation=True)'
  )

  # Without an answer the input ends at the confirmation prompt.
  result = _run(folder, stdin='Book Rome\n' + answer)

  assert result.exit_code == 0
  # The turn's message shows the request the user answers.
  asking = [
      line
      for line in result.stdout.splitlines()
      if line.startswith('  [tool] adk_request_confirmation(')
  ]
  assert len(asking) == 1 and asking[0].endswith(' (waiting for you)')
  assert '[HITL confirm]' in result.stdout
  assert pathlib.Path(folder, 'booked.txt').exists() == booked


def test_diagnostics_are_printed_on_stderr(tmp_path):
  folder = _folder(
      tmp_path,
      name='typo_in_sources',
      sources=", include_sources=['user', 'self', 'clasifier']",
  )

  result = _run(folder, stdin='exit\n')

  lines = [line for line in result.stderr.splitlines() if 'ADK-D104' in line]
  assert len(lines) == 1
  assert lines[0].startswith(
      "warning ADK-D104 [classifier] Agent 'classifier' lists 'clasifier'"
  )
  assert lines[0].endswith(
      "Fix: Did you mean 'classifier'? Fix the name or remove the entry."
  )


def test_bad_internal_value_names_the_allowed_values(tmp_path):
  result = CliRunner().invoke(
      main, ['run', '--internal', 'some', _folder(tmp_path)]
  )

  assert result.exit_code == 2
  assert "'hidden', 'minimal', 'full'" in result.output


@pytest.mark.asyncio
async def test_run_cli_leaves_the_keyword_out_when_not_set(
    tmp_path, monkeypatch
):
  # Code that stands in for run_input_file with its older signature keeps
  # working: run_cli passes `internal` only when it is not the default.
  calls = []

  async def older_run_input_file(
      app_name,
      user_id,
      agent_or_app,
      artifact_service,
      session_service,
      credential_service,
      input_path,
      memory_service=None,
  ):
    calls.append(input_path)
    return await session_service.create_session(
        app_name=app_name, user_id=user_id
    )

  monkeypatch.setattr(cli, 'run_input_file', older_run_input_file)
  queries = tmp_path / 'queries.json'
  queries.write_text(json.dumps({'state': {}, 'queries': []}))
  folder = pathlib.Path(_folder(tmp_path))

  await cli.run_cli(
      agent_parent_dir=str(folder.parent),
      agent_folder_name=folder.name,
      input_file=str(queries),
      saved_session_file=None,
      save_session=False,
      in_memory=True,
  )

  assert calls == [str(queries)]
