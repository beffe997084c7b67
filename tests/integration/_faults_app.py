"""An app for the filter-mode fault tests: every internal value says SECRET.

``faults_app`` is a ``SequentialAgent``: a classifier (internal, its reply
``'SECRET-LABEL booking'`` written to ``state['intent']``), then a booker that
speaks to the user. Each turn the booker calls ``stash_note`` (a ``'hidden'``
tool whose arguments and result hold SECRET, and which writes
``state['secret_note'] = 'SECRET-NOTE'``), then ``check_room`` (a
``'minimal'`` tool whose result holds SECRET), then answers ``Booked
<token>.``, where the token is the last word of the user's message, so that
each answer can be matched to its question. Nothing the booker says holds
SECRET.

``stash_note`` can be made to block: while the file ``block`` exists in the
control folder (``FAULTS_CONTROL_DIR``) it waits, after creating
``running-<token>`` there, so a test can act while a hidden tool runs. The
models are scripted, so the server runs offline and deterministically.
"""

from __future__ import annotations

from pathlib import Path
import textwrap

APP = 'faults_app'
SECRET = 'SECRET'
CLASSIFIER_TEXT = 'SECRET-LABEL booking'
SECRET_NOTE = 'SECRET-NOTE'
CONTROL_ENV = 'FAULTS_CONTROL_DIR'
BLOCK_LIMIT_S = 30


def answer(token: str) -> str:
  """The booker's answer to a message that ends with ``token``."""
  return f'Booked {token}.'


_AGENT_PY = textwrap.dedent(f"""
    import asyncio
    import os
    from pathlib import Path
    import time
    import warnings

    from google.adk.agents.llm_agent import LlmAgent
    from google.adk.agents.sequential_agent import SequentialAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_response import LlmResponse
    from google.adk.tools.function_tool import FunctionTool
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types

    _CONTROL = Path(os.environ.get({CONTROL_ENV!r}, '.'))


    class ClassifierLlm(BaseLlm):
      model: str = 'scripted-classifier'

      async def generate_content_async(self, llm_request, stream=False):
        yield LlmResponse(
            content=types.ModelContent(
                parts=[types.Part(text={CLASSIFIER_TEXT!r})]
            )
        )


    def _turn(llm_request):
      \"\"\"The token of the latest user message and the tools answered since.\"\"\"
      contents = llm_request.contents
      for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        texts = [p.text for p in content.parts or [] if p.text]
        if content.role == 'user' and texts:
          answered = [
              p.function_response.name
              for later in contents[index + 1:]
              for p in later.parts or []
              if p.function_response
          ]
          return texts[-1].split()[-1], answered
      return 'none', []


    class BookerLlm(BaseLlm):
      model: str = 'scripted-booker'

      async def generate_content_async(self, llm_request, stream=False):
        token, answered = _turn(llm_request)
        if 'stash_note' not in answered:
          part = types.Part(function_call=types.FunctionCall(
              name='stash_note',
              args={{'note': 'SECRET-ARG ' + token, 'token': token}},
          ))
        elif 'check_room' not in answered:
          part = types.Part(function_call=types.FunctionCall(
              name='check_room', args={{'room': 'garden'}}
          ))
        else:
          part = types.Part(text='Booked ' + token + '.')
        yield LlmResponse(content=types.ModelContent(parts=[part]))


    async def stash_note(note: str, token: str, tool_context: ToolContext) -> dict:
      \"\"\"Keeps a note for the staff.\"\"\"
      (_CONTROL / ('running-' + token)).write_text(note)
      deadline = time.monotonic() + {BLOCK_LIMIT_S}
      while (_CONTROL / 'block').exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
      tool_context.state['secret_note'] = {SECRET_NOTE!r}
      return {{'stored': 'SECRET-RESULT ' + note}}


    def check_room(room: str) -> dict:
      \"\"\"Checks that a room is free.\"\"\"
      return {{'room': room, 'free': True, 'code': 'SECRET-ROOM-CODE'}}


    hidden_tool = FunctionTool(stash_note)
    hidden_tool.user_visibility = 'hidden'
    minimal_tool = FunctionTool(check_room)
    minimal_tool.user_visibility = 'minimal'

    with warnings.catch_warnings():
      warnings.simplefilter('ignore', DeprecationWarning)
      root_agent = SequentialAgent(
          name='pipeline',
          sub_agents=[
              LlmAgent(
                  name='classifier',
                  model=ClassifierLlm(),
                  output_key='intent',
              ),
              LlmAgent(
                  name='booker',
                  model=BookerLlm(),
                  include_sources=['user', 'self'],
                  tools=[hidden_tool, minimal_tool],
              ),
          ],
      )
""")


def write(agents_dir: Path) -> None:
  """Writes ``faults_app`` into ``agents_dir``."""
  app_dir = agents_dir / APP
  app_dir.mkdir(parents=True, exist_ok=True)
  (app_dir / '__init__.py').write_text('from . import agent\n')
  (app_dir / 'agent.py').write_text(_AGENT_PY)
