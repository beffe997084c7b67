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

"""A real ``adk run`` process: progress of an agent tool, one message a turn.

An offline app (scripted models) in a temporary folder: an assistant that
calls an ``AgentTool`` researcher, which searches, then a ``'minimal'`` tool,
a ``'hidden'`` one and a tool the user answers at the prompt, then answers.
The installed console script runs it with piped input, as a developer does.
"""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import textwrap

from _adk_process import adk_command

_AGENT = """
    from google.adk.agents import LlmAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.adk.tools.agent_tool import AgentTool
    from google.adk.tools.function_tool import FunctionTool
    from google.adk.tools.long_running_tool import LongRunningFunctionTool
    from google.genai import types


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
      return {'hits': ['On Rottnest Island.'], 'query': query}


    def lookup_account(user: str) -> dict:
      return {'tier': 'gold-7731'}


    def audit(note: str) -> dict:
      return {'audit': 'audit-secret-5120'}


    def ask_user_to_confirm(question: str) -> None:
      del question


    researcher = LlmAgent(
        name='researcher',
        model=ScriptedLlm(script=[('search', {'query': 'quokka habitat'}),
                                  'On Rottnest Island.']),
        tools=[search],
    )
    account = FunctionTool(lookup_account)
    account.user_visibility = 'minimal'
    audit_tool = FunctionTool(audit)
    audit_tool.user_visibility = 'hidden'
    root_agent = LlmAgent(
        name='assistant',
        model=ScriptedLlm(script=[
            ('researcher', {'request': 'Where do quokkas live?'}),
            ('lookup_account', {'user': 'u1'}),
            ('audit', {'note': 'researched'}),
            ('ask_user_to_confirm', {'question': 'Book the ferry?'}),
            'Quokkas live on Rottnest Island; the ferry is booked.',
        ]),
        tools=[AgentTool(researcher), account, audit_tool,
               LongRunningFunctionTool(ask_user_to_confirm)],
    )
"""


def test_adk_run_prints_progress_live_and_the_turn_as_one_message(
    tmp_path: Path,
):
  app = tmp_path / 'quokka'
  app.mkdir()
  (app / 'agent.py').write_text(textwrap.dedent(_AGENT))
  env = {
      k: v
      for k, v in os.environ.items()
      if not k.startswith(('GOOGLE_', 'GEMINI_'))
  }
  env['PYTHONWARNINGS'] = 'ignore'

  result = subprocess.run(
      adk_command() + ['run', '--in_memory', str(app)],
      input='Where do quokkas live?\nyes\n',
      capture_output=True,
      text=True,
      cwd=tmp_path,
      env=env,
      timeout=120,
      check=False,
  )

  assert result.returncode == 0, result.stderr
  lines = result.stdout.splitlines()
  start = next(i for i, line in enumerate(lines) if line.startswith('[user]:'))
  assert [lines[start].removeprefix('[user]: ')] + lines[start + 1 :] == [
      '  researcher: started',
      '  researcher (working): search ...',
      '  researcher (working): search done',
      '  researcher: finished',
      '[assistant]:',
      '  [agent] researcher: finished (search: done)',
      '  [tool] lookup_account: done',
      (
          '  [tool] ask_user_to_confirm(question="Book the ferry?")'
          ' (waiting for you)'
      ),
      (
          "[HITL] Waiting for input for ask_user_to_confirm({'question':"
          " 'Book the ferry?'})"
      ),
      (
          '[user]: [assistant]: Quokkas live on Rottnest Island; the ferry is'
          ' booked.'
      ),
      '[user]: ',
  ]
  for secret in ('audit', 'gold-7731', 'quokka habitat', 'On Rottnest'):
    assert secret not in result.stdout
  assert 'Traceback' not in result.stderr
