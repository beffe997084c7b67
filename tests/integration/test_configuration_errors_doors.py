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


"""A wrong setting through the real doors: ``adk run`` and ``adk api_server``.

Each door must give the user the one message (the agent, the setting, the
fix) and no traceback or bare 500, and must lose nothing already stored.
"""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import textwrap
from typing import Any

from _adk_process import adk_command
from _adk_process import serving
import httpx
import pytest

_APPS = {
    'exclusion_typo': (
        """
        from google.adk.agents import LlmAgent, SequentialAgent
        root_agent = SequentialAgent(name='team', sub_agents=[
            LlmAgent(name='researcher', model='gemini-2.5-flash'),
            LlmAgent(name='writer', model='gemini-2.5-flash',
                     exclude_sources=['reseacher'])])
    """
    ),
    'workflow_keyword_typo': (
        """
        from google.adk.agents import LlmAgent
        from google.adk.workflow import START, Workflow
        inner = Workflow(name='inner', visibilty='internal', edges=[
            (START, LlmAgent(name='a', model='gemini-2.5-flash'))])
        root_agent = Workflow(name='flow', edges=[(START, inner)])
    """
    ),
    'node_keyword_typo': (
        """
        from google.adk.workflow import START, FunctionNode, Workflow
        def step():
          return 'ok'
        root_agent = Workflow(name='flow', edges=[
            (START, FunctionNode(func=step, name='step', visibilty='user'))])
    """
    ),
    'tool_level_typo': (
        """
        from google.adk.agents import LlmAgent
        from google.adk.tools import FunctionTool
        def get_order_status(order_id: str) -> str:
          '''Looks up an order.'''
          return 'shipped'
        status_tool = FunctionTool(get_order_status)
        status_tool.user_visibility = 'secret'
        root_agent = LlmAgent(name='assistant', model='gemini-2.5-flash',
                              tools=[status_tool])
    """
    ),
    'tool_key_typo': (
        """
        from google.adk.agents import LlmAgent
        def get_order_status(order_id: str) -> str:
          '''Looks up an order.'''
          return 'shipped'
        root_agent = LlmAgent(name='assistant', model='gemini-2.5-flash',
                              tools=[get_order_status],
                              tool_visibility={'get_order_stat': 'minimal'})
    """
    ),
    'agent_keyword_typo': (
        """
        from google.adk.agents import LlmAgent
        root_agent = LlmAgent(name='assistant', model='gemini-2.5-flash',
                              visibilty='internal')
    """
    ),
}
# Apps that run, with a setting a Runner logs a finding about.
_WARNED_APPS = {
    'sources_typo': (
        """
        from google.adk.agents import LlmAgent, SequentialAgent
        root_agent = SequentialAgent(name='team', sub_agents=[
            LlmAgent(name='classifier', model='gemini-2.5-flash'),
            LlmAgent(name='booker', model='gemini-2.5-flash',
                     include_sources=['user', 'clasifier'])])
    """
    ),
}
_WARNING = (
    "warning ADK-D104 [booker] Agent 'booker' lists 'clasifier' in"
    ' include_sources'
)
_FIX = "Fix: Did you mean 'classifier'?"
_EXPECTED = {
    'exclusion_typo': "Did you mean 'researcher'?",
    'workflow_keyword_typo': (
        "Workflow 'inner' has no keyword 'visibilty' and ignores it"
    ),
    'node_keyword_typo': "FunctionNode has no keyword 'visibilty'",
    'tool_level_typo': (
        "Invalid tool visibility 'secret' on tool 'get_order_status'."
    ),
    'tool_key_typo': (
        "tool_visibility of agent 'assistant' names 'get_order_stat', not"
        " among its tools ('get_order_status'). Did you mean"
        " 'get_order_status'?"
    ),
    'agent_keyword_typo': (
        "LlmAgent 'assistant' has no keyword 'visibilty' and refuses it. Did"
        " you mean 'visibility'?"
    ),
}


@pytest.fixture(name='agents_dir', scope='module')
def _agents_dir_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
  agents_dir = tmp_path_factory.mktemp('config_errors') / 'agents'
  for name, source in {**_APPS, **_WARNED_APPS}.items():
    (agents_dir / name).mkdir(parents=True)
    (agents_dir / name / 'agent.py').write_text(textwrap.dedent(source))
  return agents_dir


def _env() -> dict[str, str]:
  env = {
      k: v
      for k, v in os.environ.items()
      if not k.startswith(('GOOGLE_', 'GEMINI_'))
  }
  env['PYTHONWARNINGS'] = 'ignore'
  return env


@pytest.mark.parametrize('app', sorted(_APPS))
def test_adk_run_prints_the_message_and_exits_2(agents_dir, app):
  result = subprocess.run(
      adk_command() + ['run', str(agents_dir / app)],
      input='hello\nexit\n',
      capture_output=True,
      text=True,
      cwd=agents_dir,
      env=_env(),
      timeout=120,
      check=False,
  )

  # EX_CONFIG: a paused run exits with 2, a refused setting with 78.
  assert result.returncode == 78, result.stderr
  assert _EXPECTED[app] in result.stderr
  assert 'Error: ' in result.stderr
  assert 'Traceback' not in result.stderr + result.stdout
  # The message names the setting, not the whole input with addresses.
  assert ' at 0x' not in result.stderr


@pytest.mark.parametrize('app', sorted(_APPS))
def test_adk_check_says_the_error_it_met(agents_dir, app):
  result = subprocess.run(
      adk_command() + ['check', str(agents_dir / app)],
      capture_output=True,
      text=True,
      cwd=agents_dir,
      env=_env(),
      timeout=120,
      check=False,
  )

  assert result.returncode in (1, 2)
  assert _EXPECTED[app] in result.stdout + result.stderr
  assert 'must hold' not in result.stderr
  assert 'Traceback' not in result.stderr


def test_api_server_answers_json_and_keeps_the_session(agents_dir, tmp_path):
  session_uri = f'sqlite:///{tmp_path / "sessions.db"}'
  with serving(
      ['api_server', f'--session_service_uri={session_uri}', str(agents_dir)],
      workdir=tmp_path,
  ) as url:
    for app in sorted(_APPS):
      session = f'{url}/apps/{app}/users/u/sessions/s1'
      created = httpx.post(session, json={'kept': 'yes'})
      assert created.status_code == 200, created.text
      body = {
          'app_name': app,
          'user_id': 'u',
          'session_id': 's1',
          'new_message': {'role': 'user', 'parts': [{'text': 'hi'}]},
      }
      for endpoint in ('/run', '/run_sse'):
        response = httpx.post(url + endpoint, json=body, timeout=60)
        assert response.status_code == 500, (app, endpoint)
        assert response.headers['content-type'] == 'application/json'
        assert _EXPECTED[app] in response.json()['detail'], (app, endpoint)
      stored = httpx.get(session).json()
      assert stored['state'] == {'kept': 'yes'} and stored['events'] == []
  log = (tmp_path / 'adk_api_server.log').read_text()
  for app in _APPS:
    # Two requests each, one line in the log.
    assert log.count(f'App {app!r} cannot run') == 1, app


def _serving_web(agents_dir: Path, tmp_path: Path) -> Any:
  """``adk web`` over the apps, with in-memory services."""
  return serving(
      [
          'web',
          '--no-reload',
          '--session_service_uri=memory://',
          '--artifact_service_uri=memory://',
          '--memory_service_uri=memory://',
          str(agents_dir),
      ],
      workdir=tmp_path,
      env={**_env(), 'HOME': str(tmp_path)},
  )


def test_adk_web_shows_the_message_where_the_user_looks(agents_dir, tmp_path):
  from test_dev_ui_browser import _chromium
  from test_dev_ui_browser import _CHROMIUM_FLAGS
  from test_dev_ui_browser import _missing
  from test_dev_ui_browser import _open_app

  executable = _chromium()
  try:
    from playwright.sync_api import sync_playwright
  except ImportError:
    _missing('Playwright is not installed.')
  with _serving_web(
      agents_dir, tmp_path
  ) as base_url, sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path=executable, args=_CHROMIUM_FLAGS
    )
    try:
      page = browser.new_context(viewport={'width': 1400, 'height': 900})
      page = page.new_page()
      page.set_default_timeout(30_000)
      for app in ('exclusion_typo', 'node_keyword_typo', 'tool_level_typo'):
        _open_app(page, base_url, app)
        # Opening the app already says what stops it, before any message.
        notice = page.locator('#adk-app-findings')
        notice.get_by_text(_EXPECTED[app]).wait_for()
        assert notice.inner_text().startswith('This app cannot run: ')
        box = page.locator('textarea').first
        box.fill('write the report')
        box.press('Enter')
        # The server refuses the run with a JSON error; the page shows its
        # message, not a silent chat.
        page.get_by_text(_EXPECTED[app]).first.wait_for()
        assert 'Traceback' not in page.inner_text('body')
        # The run stored nothing, so the chat marks the message not sent.
        typed = page.locator('app-event-row.user', has_text='write the report')
        not_sent = page.locator('app-event-row.adk-not-sent')
        not_sent.wait_for()
        assert typed.count() == not_sent.count() == 1
        assert 'not sent' in not_sent.evaluate("""row => getComputedStyle(
                row.querySelector('.message-content'), '::after').content""")
        if app == 'tool_level_typo':
          page.screenshot(path=str(tmp_path / 'not-sent.png'))
          # The session holds no message: a reload draws none.
          page.reload()
          page.locator('textarea').first.wait_for()
          notice.get_by_text(_EXPECTED[app]).wait_for()
          assert typed.count() == 0
      # An app that runs but has a finding shows it, with its fix.
      _open_app(page, base_url, 'sources_typo')
      notice = page.locator('#adk-app-findings')
      notice.get_by_text(_FIX).wait_for()
      lines = notice.inner_text().splitlines()
      assert any(line.startswith(_WARNING) for line in lines), lines
    finally:
      browser.close()


def test_adk_web_answers_what_stops_an_app_or_what_it_logs(
    agents_dir, tmp_path
):
  with _serving_web(agents_dir, tmp_path) as url:
    for app in sorted(_APPS):
      response = httpx.get(f'{url}/dev/apps/{app}/findings', timeout=60)
      assert response.status_code == 500, app
      assert _EXPECTED[app] in response.json()['detail'], app
    response = httpx.get(f'{url}/dev/apps/sources_typo/findings', timeout=60)
    assert response.status_code == 200
    [finding] = [f for f in response.json() if f['code'] == 'ADK-D104']
    assert (finding['severity'], finding['agent']) == ('warning', 'booker')
    assert finding['hint'].startswith("Did you mean 'classifier'?")
