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

"""`adk run` at the end of its input: the session ends as `exit` ends it.

The cases of the test functions this change adds to upstream's
tests/unittests/cli/utils/test_cli.py, runnable without that file's
fixtures: a real Runner runs an agent package written to a temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent
from typing import Any

from google.adk.cli import cli
import pytest

_AGENT = dedent("""
    from google.adk.agents.base_agent import BaseAgent
    from google.adk.events.event import Event
    from google.genai import types

    class Desk(BaseAgent):

      async def _run_async_impl(self, ctx):
        text = ctx.user_content.parts[0].text
        if text != 'refund please':
          yield Event(
              author=self.name,
              invocation_id=ctx.invocation_id,
              content=types.ModelContent('Hello!'),
          )
          return
        call = types.FunctionCall(id='call-1', name='ask_manager', args={})
        yield Event(
            author=self.name,
            invocation_id=ctx.invocation_id,
            content=types.ModelContent([types.Part(function_call=call)]),
            long_running_tool_ids={'call-1'},
        )

    root_agent = Desk(name='desk')
    """)


@pytest.fixture(name='agent_folder')
def _agent_folder(tmp_path: Path) -> Path:
  folder = tmp_path / 'agents' / 'desk'
  folder.mkdir(parents=True)
  (folder / '__init__.py').write_text(_AGENT)
  return folder


def _end_input_after(monkeypatch: pytest.MonkeyPatch, *lines: str) -> list:
  """Makes `input` return `lines`, then raise EOFError as piped input ends."""
  remaining = list(lines)
  prompts: list[str] = []

  def _input(prompt: str = '') -> str:
    prompts.append(prompt)
    if not remaining:
      raise EOFError
    return remaining.pop(0)

  monkeypatch.setattr('builtins.input', _input)
  return prompts


def _record_runs(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
  """Counts the runner's runs and closes, the runner itself unchanged."""
  record = {'runs': 0, 'closed': 0}

  class _RecordingRunner(cli.Runner):

    def run_async(self, *args: Any, **kwargs: Any):
      record['runs'] += 1
      return super().run_async(*args, **kwargs)

    async def close(self) -> None:
      record['closed'] += 1
      await super().close()

  monkeypatch.setattr(cli, 'Runner', _RecordingRunner)
  return record


async def _run_cli(agent_folder: Path, save_session: bool = False) -> None:
  await cli.run_cli(
      agent_parent_dir=str(agent_folder.parent),
      agent_folder_name=agent_folder.name,
      input_file=None,
      saved_session_file=None,
      save_session=save_session,
      in_memory=True,
  )


@pytest.mark.asyncio
async def test_end_of_input_ends_like_exit(agent_folder, monkeypatch, capsys):
  prompts = _end_input_after(monkeypatch, 'hello')
  record = _record_runs(monkeypatch)

  await _run_cli(agent_folder)

  assert '[desk]: Hello!' in capsys.readouterr().out
  assert prompts == ['[user]: ', '[user]: ']
  assert record == {'runs': 1, 'closed': 1}


@pytest.mark.asyncio
async def test_end_of_input_saves_session_under_its_own_id(
    agent_folder, monkeypatch
):
  prompts = _end_input_after(monkeypatch, 'hello')

  await _run_cli(agent_folder, save_session=True)

  assert prompts[-1] == 'Session ID to save: '
  [saved] = list(agent_folder.glob('*.session.json'))
  session = json.loads(saved.read_text())
  assert saved.name == f"{session['id']}.session.json"
  assert [event['author'] for event in session['events']] == ['user', 'desk']


@pytest.mark.asyncio
async def test_end_of_input_leaves_a_waiting_call_paused(
    agent_folder, monkeypatch, capsys
):
  prompts = _end_input_after(monkeypatch, 'refund please')
  record = _record_runs(monkeypatch)

  await _run_cli(agent_folder)

  # The second prompt asked for the call's answer; no run resumed it.
  assert '[HITL] Waiting for input for ask_manager' in capsys.readouterr().out
  assert prompts == ['[user]: ', '[user]: ']
  assert record == {'runs': 1, 'closed': 1}
