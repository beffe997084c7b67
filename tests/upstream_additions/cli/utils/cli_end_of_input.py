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

"""Test functions added to upstream's test_cli.py.

`adkfork export` appends what follows the imports to upstream's
tests/unittests/cli/utils/test_cli.py, which already imports these names and
defines the `fake_agent` fixture and the autouse fixtures that put a fake
`Runner` in `cli` and mute click; the imports here only keep this file
readable and checkable on its own.
"""

from __future__ import annotations

import json
import types
from typing import Any

import click
import google.adk.cli.cli as cli
import pytest


def _input_then_end_of_input(*lines: str) -> tuple[Any, list[str]]:
  """An `input` returning `lines`, then raising EOFError as piped input ends."""
  remaining = list(lines)
  prompts: list[str] = []

  def _input(prompt: str = "") -> str:
    prompts.append(prompt)
    if not remaining:
      raise EOFError
    return remaining.pop(0)

  return _input, prompts


def _runner_recording_close(
    monkeypatch: pytest.MonkeyPatch, pending_call: bool = False
) -> tuple[list[dict[str, Any]], list[bool]]:
  """Records each run and close of `_patch_types_and_runner`'s fake Runner.

  With `pending_call`, each run ends on a long-running function call that
  waits for the user's answer.
  """
  runs: list[dict[str, Any]] = []
  closed: list[bool] = []
  fake_runner = cli.Runner

  class _RecordingRunner(fake_runner):

    async def run_async(self, *a: Any, **k: Any):
      runs.append(k)
      if not pending_call:
        async for event in super().run_async(*a, **k):
          yield event
        return
      call = types.SimpleNamespace(id="call-1", name="ask_manager", args={})
      yield types.SimpleNamespace(
          author="desk",
          invocation_id="inv-1",
          content=types.SimpleNamespace(
              parts=[types.SimpleNamespace(text=None, function_call=call)]
          ),
          node_info=None,
          long_running_tool_ids={"call-1"},
      )

    async def close(self, *a: Any, **k: Any) -> None:
      closed.append(True)

  monkeypatch.setattr(cli, "Runner", _RecordingRunner)
  return runs, closed


@pytest.mark.asyncio
async def test_run_cli_end_of_input_ends_like_exit(
    fake_agent, monkeypatch: pytest.MonkeyPatch
) -> None:
  """At the end of piped input, run_cli returns and closes the runner."""
  parent_dir, folder_name = fake_agent
  fake_input, prompts = _input_then_end_of_input("hello")
  monkeypatch.setattr("builtins.input", fake_input)
  _, closed = _runner_recording_close(monkeypatch)
  echoed: list[str] = []
  monkeypatch.setattr(click, "echo", lambda msg="", **_k: echoed.append(msg))

  await cli.run_cli(
      agent_parent_dir=str(parent_dir),
      agent_folder_name=folder_name,
      input_file=None,
      saved_session_file=None,
      save_session=False,
  )

  assert any("echo:hello" in m for m in echoed)
  assert prompts == ["[user]: ", "[user]: "]
  assert closed == [True]


@pytest.mark.asyncio
async def test_run_cli_end_of_input_saves_session_under_its_own_id(
    fake_agent, monkeypatch: pytest.MonkeyPatch
) -> None:
  """With save_session and no input left, the session's id names the file."""
  parent_dir, folder_name = fake_agent
  fake_input, prompts = _input_then_end_of_input("hello")
  monkeypatch.setattr("builtins.input", fake_input)

  await cli.run_cli(
      agent_parent_dir=str(parent_dir),
      agent_folder_name=folder_name,
      input_file=None,
      saved_session_file=None,
      save_session=True,
  )

  assert prompts[-1] == "Session ID to save: "
  [saved] = list((parent_dir / folder_name).glob("*.session.json"))
  assert saved.name == f"{json.loads(saved.read_text())['id']}.session.json"


@pytest.mark.asyncio
async def test_run_cli_end_of_input_leaves_a_waiting_call_paused(
    fake_agent, monkeypatch: pytest.MonkeyPatch
) -> None:
  """Input that ends while a tool call waits leaves it unanswered."""
  parent_dir, folder_name = fake_agent
  fake_input, prompts = _input_then_end_of_input("refund please")
  monkeypatch.setattr("builtins.input", fake_input)
  runs, closed = _runner_recording_close(monkeypatch, pending_call=True)

  await cli.run_cli(
      agent_parent_dir=str(parent_dir),
      agent_folder_name=folder_name,
      input_file=None,
      saved_session_file=None,
      save_session=False,
  )

  # The second prompt asked for the call's answer; no run resumed it.
  assert prompts == ["[user]: ", "[user]: "]
  assert len(runs) == 1
  assert closed == [True]
