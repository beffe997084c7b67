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

"""`adk run`: live progress of agents run as tools, each turn as one message.

An assistant calls an ``AgentTool`` researcher (which searches), a
``'minimal'`` tool, a ``'hidden'`` tool and a tool the user answers, then
answers. Real Runner, scripted models, the agent folder written by the test.
"""

from __future__ import annotations

import json
import logging
import pathlib
import sys
import tempfile

from click.testing import CliRunner
from google.adk.artifacts.in_memory_artifact_service import InMemoryArtifactService
from google.adk.auth.credential_service.in_memory_credential_service import InMemoryCredentialService
from google.adk.cli import cli
from google.adk.cli._console_view import ConsoleView
from google.adk.cli.cli_tools_click import main
from google.adk.cli.utils.agent_loader import AgentLoader
from google.adk.events.user_messages import user_messages
from google.adk.events.user_view import user_view
from google.adk.sessions.in_memory_session_service import InMemorySessionService
import pytest

_APP = 'quokka'
_SOURCE = """\
import warnings
from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
warnings.simplefilter('ignore')


class ScriptedLlm(BaseLlm):
  model: str = 'scripted'
  script: list

  async def generate_content_async(self, llm_request, stream=False):
    replies = sum(1 for c in llm_request.contents if c.role == 'model')
    step = self.script[min(replies, len(self.script) - 1)]
    if isinstance(step, str):
      part = types.Part(text=step)
    else:
      part = types.Part(function_call=types.FunctionCall(
          name=step[0], args=step[1]))
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def search(query: str) -> dict:
  print('(search runs)')
  return {'hits': ['Quokkas live on Rottnest Island.'], 'query': query}


def lookup_account(user: str) -> dict:
  return {'tier': 'gold-7731', 'user': user}


def audit(note: str) -> dict:
  return {'audit': 'audit-secret-5120', 'note': note}


def ask_user_to_confirm(question: str) -> None:
  del question


researcher = LlmAgent(
    name='researcher',
    model=ScriptedLlm(script=[('search', {'query': 'quokka habitat'}),
                              'Quokkas live on Rottnest Island.']),
    tools=[search],
)
account = FunctionTool(lookup_account)
account.user_visibility = ACCOUNT_LEVEL
audit_tool = FunctionTool(audit)
audit_tool.user_visibility = 'hidden'
client_tools = [LongRunningFunctionTool(ask_user_to_confirm)]
script = [
    ('researcher', {'request': 'Where do quokkas live?'}),
    ('lookup_account', {'user': 'u1'}),
    ('audit', {'note': 'researched'}),
    ('ask_user_to_confirm', {'question': 'Book the ferry?'}),
    'Quokkas live on Rottnest Island; your gold tier covers the ferry.',
]
if not WITH_CLIENT_TOOL:
  client_tools = []
  del script[3]
root_agent = LlmAgent(
    name='assistant',
    model=ScriptedLlm(script=script),
    tools=[AgentTool(researcher), account, audit_tool] + client_tools,
)
"""
_QUESTION = 'Where do quokkas live?'
_ANSWER = (
    '[assistant]: Quokkas live on Rottnest Island; your gold tier covers the'
    ' ferry.'
)
_PROGRESS = [
    '  researcher: started',
    '  researcher (working): search ...',
    '(search runs)',
    '  researcher (working): search done',
    '  researcher: finished',
]
_CARDS = [
    '  [agent] researcher: finished (search: done)',
    '  [tool] lookup_account: done',
]
_WAITING = (
    '  [tool] ask_user_to_confirm(question="Book the ferry?") (waiting for you)'
)
# What no view may print: the hidden tool, the minimal tool's result, the
# researcher's search arguments and its reply, which reaches the assistant.
_NEVER = ('audit', 'gold-7731', 'quokka habitat', 'Rottnest Island.')


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
  # `adk run` replaces the root logger's handlers with a log file in the
  # temporary folder, and the agent loader imports the folder as a module.
  monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
  root = logging.getLogger()
  handlers, level = root.handlers[:], root.level
  yield
  root.handlers, root.level = handlers, level
  for name in [m for m in sys.modules if m.split('.')[0] == _APP]:
    del sys.modules[name]


def _folder(
    tmp_path: pathlib.Path,
    account_level: str = 'minimal',
    with_client_tool: bool = True,
) -> pathlib.Path:
  folder = tmp_path / _APP
  folder.mkdir()
  (folder / '__init__.py').write_text('from . import agent\n')
  (folder / 'agent.py').write_text(
      _SOURCE.replace('ACCOUNT_LEVEL', repr(account_level)).replace(
          'WITH_CLIENT_TOOL', repr(with_client_tool)
      )
  )
  return folder


def _run(*args: str, stdin: str = '') -> list[str]:
  result = CliRunner().invoke(
      main, ['run', '--in_memory', *args], input=stdin, catch_exceptions=False
  )
  assert result.exit_code == 0, result.output
  return result.stdout.splitlines()


def _after_prompt(lines: list[str]) -> list[str]:
  """The lines from the first turn's on, the prompt of the input removed."""
  start = next(i for i, line in enumerate(lines) if line.startswith('[user]:'))
  return [lines[start].removeprefix('[user]: ')] + lines[start + 1 :]


def test_the_researcher_works_live_and_the_turn_is_one_message(tmp_path):
  lines = _run(str(_folder(tmp_path)), stdin=f'{_QUESTION}\nyes\n')

  # The researcher's progress prints while its search runs; the message
  # follows when the run pauses for the user's answer, and its rest when the
  # run ends.
  assert _after_prompt(lines) == (
      _PROGRESS
      + ['[assistant]:']
      + _CARDS
      + [_WAITING]
      + [
          (
              "[HITL] Waiting for input for ask_user_to_confirm({'question':"
              " 'Book the ferry?'})"
          ),
          '[user]: ' + _ANSWER,
          '[user]: ',
      ]
  )
  assert not any(word in line for line in lines for word in _NEVER)


def test_hidden_asks_for_no_progress_and_shows_who_worked(tmp_path):
  lines = _run(
      '--internal', 'hidden', str(_folder(tmp_path)), stdin=f'{_QUESTION}\n'
  )

  assert _after_prompt(lines)[:5] == [
      '(search runs)',
      '[assistant]:',
      '  [agent] researcher: finished',
      '  [tool] lookup_account: done',
      _WAITING,
  ]


def test_a_full_card_shows_the_arguments_and_result(tmp_path):
  lines = _run(
      str(_folder(tmp_path, account_level='full', with_client_tool=False)),
      _QUESTION,
  )

  assert lines[-3:] == [
      _ANSWER,
      '  [agent] researcher: finished (search: done)',
      (
          '  [tool] lookup_account(user="u1"): done -> {"tier": "gold-7731",'
          ' "user": "u1"}'
      ),
  ]
  assert not any('audit' in line for line in lines)


def _message_block(lines: list[str]) -> list[str]:
  """The printed lines of the turn's message, without the end of input."""
  start = next(i for i, line in enumerate(lines) if line.startswith(_ANSWER))
  return [line for line in lines[start:] if line]


@pytest.mark.asyncio
async def test_the_printed_message_is_the_one_the_session_gives(
    tmp_path, monkeypatch, capsys
):
  _folder(tmp_path, with_client_tool=False)
  agent = AgentLoader(str(tmp_path)).load_agent(_APP)
  inputs = [_QUESTION]

  def typed(prompt: str = '') -> str:
    del prompt
    if not inputs:
      raise EOFError
    return inputs.pop(0)

  monkeypatch.setattr('builtins.input', typed)
  sessions = InMemorySessionService()
  session = await sessions.create_session(app_name=_APP, user_id='u')
  await cli.run_interactively(
      agent,
      InMemoryArtifactService(),
      session,
      sessions,
      InMemoryCredentialService(),
      internal='minimal',
  )
  live = _message_block(capsys.readouterr().out.splitlines())
  stored = await sessions.get_session(
      app_name=_APP, user_id='u', session_id=session.id
  )
  assert stored is not None

  # The session's events, printed as the view prints a run's.
  view = ConsoleView('minimal')
  for event in user_view(stored.events):
    view.show(event)
  view.end_run()
  reloaded = _message_block(capsys.readouterr().out.splitlines())

  assert live == reloaded == [_ANSWER] + _CARDS
  reply = user_messages(stored.events)[-1]
  assert [part.type for part in reply.parts] == ['agent', 'tool', 'text']


def test_an_agent_tool_inside_the_researcher_prints_one_level_deeper(
    tmp_path,
):
  folder = _folder(tmp_path, with_client_tool=False)
  source = (folder / 'agent.py').read_text()
  # The researcher asks a fact checker, an agent tool of its own, which
  # checks with a tool.
  (folder / 'agent.py').write_text(
      source.replace(
          '    tools=[search],\n',
          """    tools=[AgentTool(LlmAgent(
        name='checker',
        model=ScriptedLlm(script=[('check', {'claim': 'x'}), 'true']),
        tools=[check]))],
""",
      )
      .replace(
          "('search', {'query': 'quokka habitat'})",
          "('checker', {'request': 'quokka habitat'})",
      )
      .replace(
          'def lookup_account(',
          "def check(claim: str) -> dict:\n  return {'true': claim}\n\n\n"
          'def lookup_account(',
      )
  )

  lines = _run(str(folder), _QUESTION)

  assert lines[lines.index('  researcher: started') :] == [
      '  researcher: started',
      '  researcher (working): checker ...',
      '    checker: started',
      '    checker (working): check ...',
      '    checker (working): check done',
      '    checker: finished',
      '  researcher (working): checker done',
      '  researcher: finished',
      _ANSWER,
      '  [agent] researcher: finished (checker: finished (check: done))',
      '  [tool] lookup_account: done',
  ]


def test_jsonl_prints_the_progress_events(tmp_path):
  lines = _run(
      '--jsonl', str(_folder(tmp_path, with_client_tool=False)), _QUESTION
  )

  events = [json.loads(line) for line in lines if line.startswith('{')]
  progress = [
      e['customMetadata']['adk_progress']
      for e in events
      if 'adk_progress' in e.get('customMetadata', {})
  ]
  # 'working' tells of a sub-agent taking over; the researcher has none.
  assert [p['status'] for p in progress if p['status'] != 'working'] == [
      'started',
      'step',
      'step',
      'finished',
  ]
  assert all(e['partial'] for e in events if 'customMetadata' in e)


def test_resume_shows_the_text_and_the_answered_call(tmp_path):
  folder = _folder(tmp_path)
  _run(
      '--save_session',
      '--session_id',
      's1',
      str(folder),
      stdin=f'{_QUESTION}\nyes\n',
  )

  lines = _run('--resume', str(folder / 's1.session.json'), str(folder))

  # The saved file does not say which tools the user may see: of the cards,
  # only the call the user answered is shown.
  assert lines[-4:] == [
      f'[user]: {_QUESTION}',
      _ANSWER,
      (
          '  [tool] ask_user_to_confirm(question="Book the ferry?"): done ->'
          ' {"result": "yes"}'
      ),
      '[user]: ',
  ]
