"""An app for the server tests: an assistant whose tools a client draws as cards.

``assistant_app`` calls an ``AgentTool`` researcher (which has its own search
tool), a ``'minimal'`` tool, a ``'hidden'`` tool and a tool the client answers
(long-running), then answers. Its models are scripted, so the servers run it
offline. ``write`` puts it in an agents folder for ``adk api_server`` or
``adk web``.
"""

from __future__ import annotations

from pathlib import Path
import textwrap

APP = 'assistant_app'
QUESTION = 'Where do quokkas live?'
FOUND = 'Quokkas live on Rottnest Island.'
ANSWER = 'Quokkas live on Rottnest Island; your gold tier covers the ferry.'
AUDIT_SECRET = 'audit-secret-5120'

_AGENT_PY = textwrap.dedent(f"""
    import asyncio

    from google.adk.agents.llm_agent import LlmAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.adk.tools.agent_tool import AgentTool
    from google.adk.tools.function_tool import FunctionTool
    from google.adk.tools.long_running_tool import LongRunningFunctionTool
    from google.genai import types


    class ScriptedLlm(BaseLlm):
      model: str = 'scripted'
      script: list[types.Part]
      # Seconds before each reply, so a client can watch the run.
      delay: float = 0.0

      async def generate_content_async(self, llm_request, stream=False):
        await asyncio.sleep(self.delay)
        replies = sum(1 for c in llm_request.contents if c.role == 'model')
        part = self.script[min(replies, len(self.script) - 1)]
        yield LlmResponse(content=types.ModelContent(parts=[part]))


    def call(name, **args):
      return types.Part(function_call=types.FunctionCall(name=name, args=args))


    def search(query: str) -> dict:
      \"\"\"Searches the web.\"\"\"
      return {{'hits': [{FOUND!r}], 'query': query}}


    def lookup_account(user: str) -> dict:
      \"\"\"Looks up the user's account.\"\"\"
      return {{'tier': 'gold-7731', 'user': user}}


    def audit(note: str) -> dict:
      \"\"\"Writes an audit note.\"\"\"
      return {{'audit': {AUDIT_SECRET!r}, 'note': note}}


    def ask_user_to_confirm(question: str) -> None:
      \"\"\"Asks the user, in the client, to confirm.\"\"\"
      del question


    researcher = LlmAgent(
        name='researcher',
        description='Researches a topic.',
        model=ScriptedLlm(
            script=[call('search', query='quokka habitat'),
                    types.Part(text={FOUND!r})],
            delay=0.4,
        ),
        tools=[search],
    )
    account = FunctionTool(lookup_account)
    account.user_visibility = 'minimal'
    audit_tool = FunctionTool(audit)
    audit_tool.user_visibility = 'hidden'
    root_agent = LlmAgent(
        name='assistant',
        model=ScriptedLlm(
            script=[
                call('researcher', request={QUESTION!r}),
                call('lookup_account', user='u1'),
                call('audit', note='researched'),
                call('ask_user_to_confirm', question='Book the ferry?'),
                types.Part(text={ANSWER!r}),
            ]
        ),
        tools=[
            AgentTool(researcher),
            account,
            audit_tool,
            LongRunningFunctionTool(ask_user_to_confirm),
        ],
    )
""")


def write(agents_dir: Path) -> None:
  """Writes ``assistant_app`` into ``agents_dir``."""
  app_dir = agents_dir / APP
  app_dir.mkdir(parents=True)
  (app_dir / '__init__.py').write_text('from . import agent\n')
  (app_dir / 'agent.py').write_text(_AGENT_PY)
