"""``adk web`` in a real browser: the answer as the answer, internal work as such.

Starts ``adk web contributing/samples`` (offline, on the samples' scripted
models) as a process and drives the dev UI in headless Chromium (Debian's
``chromium`` package, which ``scripts/install-test-services`` installs) with
Playwright. It checks what a person looking at the page sees:

- the booker's answer is an ordinary bot row, the classifier's label a row
  marked internal (``adk-internal``), drawn dashed and collapsed to one line;
- "Preview user's view" reloads the chat with the user's messages and the
  answers only, also for a message sent in the preview;
- the graph the UI draws marks the classifier internal, in the tree sample and
  in the ``Workflow`` sample;
- an internal row that would show nothing (the ``Workflow`` sample's route
  function) takes no row in the chat, and stays in the event list; a
  collapsed internal row keeps its tool call and response chips;
- the preview numbers the rows it shows 1, 2, 3, ... (upstream's numbers count
  the rows it hides), and so does the side panel's "Event N of N", which says
  when the event it steps to is not shown;
- with a Material Symbols font installed, the icons use it, without a request;
- in the preview, a turn of ``_assistant_app`` (an ``AgentTool`` researcher,
  a minimal, a hidden and a client tool) is one assistant bubble in the
  messages panel with the tool cards inside and nothing of the hidden tool,
  the researcher's work shows live while it runs, and a reload draws the same;
  that live progress is not counted among the session's events.

Screenshots go to ``build/dev-ui-screenshots/`` (or ``$ADK_SCREENSHOT_DIR``).
Without Chromium or Playwright the tests skip, except under CI (``CI`` set),
where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
import os
from pathlib import Path
import shutil
import subprocess

from _adk_process import serving
import _assistant_app
import pytest

_REPO = Path(__file__).resolve().parents[2]
_SAMPLES = _REPO / 'contributing' / 'samples'
_UI_TIMEOUT_MS = 30_000
_CHROMIUM_FLAGS = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    # The machine's network is closed; without these Chromium keeps trying
    # Google's hosts in the background.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
]
_ANSWER = 'Happy to book that'
_SECOND_ANSWER = 'You are booked'
# drafting_loop: a loop of internal agents that ends with a tool call.
_ANNOUNCEMENT_REQUEST = 'Write an announcement that we open a terrace at 6pm'
_ANNOUNCEMENT = 'Here is your announcement'
_PLAYFUL_ANNOUNCEMENT = 'Come hungry, leave happy'


def _missing(reason: str) -> None:
  """Skips outside CI; under CI a missing browser is a failure."""
  hint = (
      ' Install it with scripts/install-test-services (Debian: apt-get install'
      ' chromium) and `pip install -r requirements/test.txt` (playwright).'
  )
  if os.environ.get('CI'):
    pytest.fail(reason + hint, pytrace=False)
  pytest.skip(reason + hint)


def _chromium() -> str:
  for candidate in (
      os.environ.get('ADK_CHROMIUM'),
      shutil.which('chromium'),
      shutil.which('chromium-browser'),
      '/usr/bin/chromium',
  ):
    if candidate and Path(candidate).exists():
      return candidate
  _missing('Chromium was not found.')
  raise AssertionError('unreachable')


@pytest.fixture(name='screenshot_dir', scope='module')
def _screenshot_dir_fixture() -> Path:
  folder = Path(
      os.environ.get('ADK_SCREENSHOT_DIR')
      or _REPO / 'build' / 'dev-ui-screenshots'
  )
  folder.mkdir(parents=True, exist_ok=True)
  return folder


@pytest.fixture(name='dev_ui_url', scope='module')
def _dev_ui_url_fixture(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
  tmp_path = tmp_path_factory.mktemp('adk_web')
  with serving(
      [
          'web',
          '--no-reload',
          '--session_service_uri=memory://',
          '--artifact_service_uri=memory://',
          '--memory_service_uri=memory://',
          str(_SAMPLES),
      ],
      workdir=tmp_path,
      # The telemetry consent the UI asks for is written under HOME.
      env={'ADK_SAMPLES_OFFLINE': '1', 'HOME': str(tmp_path)},
  ) as base_url:
    yield base_url


@pytest.fixture(name='browser', scope='module')
def _browser_fixture() -> Iterator[object]:
  executable = _chromium()
  try:
    from playwright.sync_api import sync_playwright
  except ImportError:
    _missing('Playwright is not installed.')
  with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path=executable, args=_CHROMIUM_FLAGS
    )
    try:
      yield browser
    finally:
      browser.close()


@pytest.fixture(name='page')
def _page_fixture(browser) -> Iterator[object]:
  context = browser.new_context(viewport={'width': 1400, 'height': 900})
  page = context.new_page()
  page.set_default_timeout(_UI_TIMEOUT_MS)
  try:
    yield page
  finally:
    context.close()


def _open_app(page, dev_ui_url: str, app_name: str) -> None:
  page.goto(f'{dev_ui_url}/dev-ui/?app={app_name}')
  page.locator('textarea').first.wait_for()
  # The first visit asks for telemetry consent in a dialog over the chat.
  no_thanks = page.get_by_role('button', name='No Thanks')
  try:
    no_thanks.wait_for(timeout=3_000)
  except Exception:  # pylint: disable=broad-except
    return
  no_thanks.click()


def _send(page, text: str, answer: str) -> None:
  box = page.locator('textarea').first
  box.fill(text)
  box.press('Enter')
  _row_with(page, answer).last.wait_for()


def _switch_view(page, answer: str) -> None:
  """Clicks the preview switch, which reloads the open session."""
  page.locator('#adk-user-view-toggle').click()
  page.wait_for_load_state()
  _row_with(page, answer).last.wait_for()


def _shown_numbers(page) -> list[str]:
  """The rows' numbers as drawn, in order, for the rows that are displayed.

  Read from Chromium's accessibility tree, which holds the text as laid out:
  the numbers the preview draws with a CSS counter are not in the DOM.
  """
  cdp = page.context.new_cdp_session(page)
  try:
    root = cdp.send('DOM.getDocument', {'depth': 0})['root']['nodeId']
    containers = cdp.send(
        'DOM.querySelectorAll',
        {'nodeId': root, 'selector': 'app-event-row .event-number-container'},
    )['nodeIds']
    shown = []
    for container in containers:
      texts = cdp.send(
          'Accessibility.queryAXTree',
          {'nodeId': container, 'role': 'StaticText'},
      )['nodes']
      text = ''.join(t.get('name', {}).get('value', '') for t in texts)
      if text.strip():
        shown.append(text.strip())
    return shown
  finally:
    cdp.detach()


def _upstream_numbers(page) -> list[str]:
  """The numbers upstream writes in the displayed rows (their DOM text)."""
  return page.evaluate("""() => [...document.querySelectorAll('app-event-row')]
          .filter(row => row.getClientRects().length > 0)
          .map(row => row.querySelector('.event-number-container')
              .textContent.trim())""")


def _side_panel_count(page) -> str:
  """The side panel's "Event N of N" as drawn (its accessibility text).

  In the preview the label is drawn with CSS from an attribute, and
  upstream's text, hidden, stays in the DOM.
  """
  page.locator('app-event-tab .mat-mdc-paginator-range-label').wait_for(
      state='attached'
  )
  cdp = page.context.new_cdp_session(page)
  try:
    root = cdp.send('DOM.getDocument', {'depth': 0})['root']['nodeId']
    [node] = cdp.send(
        'DOM.querySelectorAll',
        {
            'nodeId': root,
            'selector': 'app-event-tab .mat-mdc-paginator-range-label',
        },
    )['nodeIds']
    texts = cdp.send(
        'Accessibility.queryAXTree', {'nodeId': node, 'role': 'StaticText'}
    )['nodes']
    return ''.join(t.get('name', {}).get('value', '') for t in texts).strip()
  finally:
    cdp.detach()


def _settled_side_panel_count(page, expected: str) -> str:
  """The drawn count once it reads ``expected``, or what it reads after 5 s.

  The preview redraws the count on the frame after the selection changes.
  """
  count = _side_panel_count(page)
  for _ in range(50):
    if count == expected:
      break
    page.wait_for_timeout(100)
    count = _side_panel_count(page)
  return count


def _upstream_count(page) -> str:
  """Upstream's "Event N of N", which counts the UI's list of events."""
  return (
      page.locator('app-event-tab .mat-mdc-paginator-range-label')
      .text_content()
      .strip()
  )


def _row_with(page, text: str):
  return page.locator('app-event-row', has_text=text)


def _chat_text(page) -> str:
  return page.locator('.chat-messages').inner_text()


def _graph_node(page, name: str):
  page.locator('svg g.node', has_text=name).first.wait_for()
  return page.evaluate(
      """name => {
        const node = [...document.querySelectorAll('svg g.node')].find(
            g => g.textContent.includes(name));
        const shape = node.querySelector('path, polygon');
        return {
          text: node.textContent,
          dashed: Boolean(shape && shape.getAttribute('stroke-dasharray')),
        };
      }""",
      name,
  )


def test_internal_label_is_drawn_as_internal_work(
    page, dev_ui_url: str, screenshot_dir: Path
):
  _open_app(page, dev_ui_url, 'booking_router')
  _send(page, 'I want to book a table for two', _ANSWER)

  answer_row = _row_with(page, _ANSWER)
  label_row = page.locator('app-event-row.bot').filter(
      has=page.locator('.content-bubble', has_text='booking')
  )
  assert 'adk-internal' not in answer_row.get_attribute('class')
  assert 'adk-internal' in label_row.get_attribute('class')
  label_note = page.evaluate(
      """row => getComputedStyle(
          row.querySelector('.message-content'), '::before').content""",
      label_row.element_handle(),
  )
  assert 'internal' in label_note and 'not shown to the user' in label_note
  bubble_style = page.evaluate(
      """row => {
        const s = getComputedStyle(row.querySelector('.content-bubble'));
        return {border: s.borderTopStyle, whiteSpace: s.whiteSpace};
      }""",
      label_row.element_handle(),
  )
  assert bubble_style == {'border': 'dashed', 'whiteSpace': 'nowrap'}
  answer_border = page.evaluate(
      """row => getComputedStyle(
          row.querySelector('.content-bubble')).borderTopStyle""",
      answer_row.element_handle(),
  )
  assert answer_border != 'dashed'

  classifier = _graph_node(page, 'classifier')
  booker = _graph_node(page, 'booker')
  assert classifier['dashed'] and 'internal' in classifier['text']
  assert not booker['dashed'] and 'internal' not in booker['text']
  page.screenshot(path=str(screenshot_dir / 'dev-ui-developer-view.png'))

  # A click selects the row, which expands it.
  label_row.click()
  assert 'selected' in label_row.get_attribute('class')
  assert (
      page.evaluate(
          """row => getComputedStyle(
          row.querySelector('.content-bubble')).whiteSpace""",
          label_row.element_handle(),
      )
      != 'nowrap'
  )


def test_preview_shows_only_what_the_user_sees(
    page, dev_ui_url: str, screenshot_dir: Path
):
  _open_app(page, dev_ui_url, 'booking_router')
  _send(page, 'I want to book a table for two', _ANSWER)
  assert 'booking' in _chat_text(page)

  page.locator('#adk-user-view-toggle').click()
  page.wait_for_load_state()
  _row_with(page, _ANSWER).wait_for()
  assert (
      'Previewing what the end user sees'
      in page.locator('#adk-user-view-bar').inner_text()
  )
  _send(page, 'Saturday at 8pm', _SECOND_ANSWER)

  chat = _chat_text(page)
  assert 'I want to book a table for two' in chat and _ANSWER in chat
  assert 'Saturday at 8pm' in chat and _SECOND_ANSWER in chat
  assert 'booking' not in chat.lower().replace('booked', '')
  assert page.locator('app-event-row.bot').count() == 2
  page.screenshot(path=str(screenshot_dir / 'dev-ui-user-view-preview.png'))

  # The session kept everything: the developer view shows the labels again.
  page.locator('#adk-user-view-toggle').click()
  page.wait_for_load_state()
  _row_with(page, _SECOND_ANSWER).wait_for()
  assert page.locator('app-event-row.adk-internal').count() == 2


def test_workflow_graph_marks_the_classifier(
    page, dev_ui_url: str, screenshot_dir: Path
):
  _open_app(page, dev_ui_url, 'booking_workflow')
  _send(page, 'I want to book a table for two', _ANSWER)

  classifier = _graph_node(page, 'classifier')
  booker = _graph_node(page, 'booker')
  assert classifier['dashed'] and 'internal' in classifier['text']
  assert not booker['dashed'] and 'internal' not in booker['text']
  assert 'adk-internal' in page.locator(
      'app-event-row.bot', has_text='booking'
  ).first.get_attribute('class')
  page.screenshot(path=str(screenshot_dir / 'dev-ui-workflow-graph.png'))


def test_workflow_rows_that_show_nothing_take_no_row(page, dev_ui_url: str):
  _open_app(page, dev_ui_url, 'booking_workflow')
  _send(page, 'I want to book a table for two', _ANSWER)

  # The route function's event: internal, no text, only its `route` chip.
  route_row = page.locator('app-event-row', has_text='route: booking')
  assert route_row.count() == 1
  assert 'adk-internal' in route_row.get_attribute('class')
  assert route_row.is_hidden()
  # Every internal row still displayed shows something to read.
  shown_internal = page.evaluate(
      """() => [...document.querySelectorAll('app-event-row.adk-internal')]
          .filter(row => row.getClientRects().length > 0)
          .map(row => row.querySelector('.message-content').innerText.trim())"""
  )
  assert shown_internal == ['booking']
  # The event stays in the event list, and the rows keep the event's number
  # there: the answer is event 4 of 4, after the hidden #3.
  assert _shown_numbers(page) == ['#1', '#2', '#4']
  page.get_by_text('Event 4 of 4').wait_for()
  assert _side_panel_count(page) == 'Event 4 of 4'
  # A message the app ran is not marked as not sent.
  assert page.locator('app-event-row.adk-not-sent').count() == 0


def test_collapsed_internal_rows_keep_their_tool_calls(
    page, dev_ui_url: str, screenshot_dir: Path
):
  _open_app(page, dev_ui_url, 'drafting_loop')
  _send(page, _ANNOUNCEMENT_REQUEST, _ANNOUNCEMENT)

  # The reviewer's exit_loop call and its response are internal rows; the
  # response has no text, only the tool's chip, which the collapsed row
  # shows, as it shows the call next to the reviewer's "Approved.".
  call_row = page.locator(
      'app-event-row.adk-internal', has=page.locator('.function-calls-buttons')
  )
  response_row = page.locator(
      'app-event-row.adk-internal',
      has=page.locator('.function-response-chip-container'),
  )
  for row in (call_row, response_row):
    assert row.count() == 1 and row.is_visible()
    assert 'selected' not in row.get_attribute('class')
    assert row.locator(
        'app-hover-info-button', has_text='exit_loop'
    ).is_visible()
  # The call's state chip waits for the row to be expanded.
  state_chip = call_row.locator('app-hover-info-button', has_text='State')
  assert state_chip.count() == 1 and state_chip.is_hidden()
  page.screenshot(path=str(screenshot_dir / 'dev-ui-loop-tool-calls.png'))
  call_row.click()
  assert state_chip.is_visible()


@pytest.mark.parametrize(
    ('app_name', 'turns'),
    [
        (
            'booking_workflow',
            [
                ('I want to book a table for two', _ANSWER),
                ('Saturday at 8pm', _SECOND_ANSWER),
            ],
        ),
        (
            'drafting_loop',
            [
                (_ANNOUNCEMENT_REQUEST, _ANNOUNCEMENT),
                ('Make it more playful', _PLAYFUL_ANNOUNCEMENT),
            ],
        ),
    ],
)
def test_preview_numbers_the_rows_it_shows(
    page, dev_ui_url: str, screenshot_dir: Path, app_name: str, turns
):
  (first, first_answer), (second, second_answer) = turns
  _open_app(page, dev_ui_url, app_name)
  _send(page, first, first_answer)
  _switch_view(page, first_answer)
  _send(page, second, second_answer)

  # The user's two messages and the two answers, numbered as the end user
  # would count them, whatever the rows the preview hides.
  assert page.locator('app-event-row').filter(visible=True).count() == 4
  assert _shown_numbers(page) == ['#1', '#2', '#3', '#4']
  if app_name == 'drafting_loop':
    # Upstream's own numbers count the hidden tool-call rows.
    assert _upstream_numbers(page) == ['#1', '#4', '#5', '#8']
  else:
    page.screenshot(
        path=str(screenshot_dir / 'dev-ui-workflow-user-view-preview.png')
    )


def test_preview_side_panel_counts_the_rows_it_shows(
    page, dev_ui_url: str, screenshot_dir: Path
):
  _open_app(page, dev_ui_url, 'booking_workflow')
  _send(page, 'I want to book a table for two', _ANSWER)
  _switch_view(page, _ANSWER)
  _send(page, 'Saturday at 8pm', _SECOND_ANSWER)

  # The first answer is the preview's row #2 of 4; upstream's list of the
  # session's events also holds each turn's classifier label and route.
  _row_with(page, _ANSWER).click()
  assert _shown_numbers(page) == ['#1', '#2', '#3', '#4']
  assert _settled_side_panel_count(page, 'Event 2 of 4') == 'Event 2 of 4'
  assert _upstream_count(page) == 'Event 4 of 8'
  page.screenshot(path=str(screenshot_dir / 'dev-ui-user-view-event-count.png'))

  # The arrows still step through every event; one the preview leaves out
  # says so, with its place among the session's events.
  page.get_by_role('button', name='Previous Event').click()
  hidden = 'Not shown to the user \u00b7 session event 3 of 8'
  assert _settled_side_panel_count(page, hidden) == hidden
  assert _upstream_count(page) == 'Event 3 of 8'
  _row_with(page, _SECOND_ANSWER).click()
  assert _settled_side_panel_count(page, 'Event 4 of 4') == 'Event 4 of 4'


def _installed_symbols_font() -> bool:
  try:
    files = subprocess.run(
        ['fc-list', 'Material Symbols Outlined', 'file'],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
  except OSError:
    return False
  return any(
      line.lower().rstrip(': ').endswith(('.ttf', '.otf'))
      for line in files.splitlines()
  )


def test_icons_use_an_installed_symbols_font(page, dev_ui_url: str):
  if not _installed_symbols_font():
    # Under CI this fails like a missing browser: the script CI runs installs
    # the font.
    _missing(
        'No Material Symbols Outlined font is installed (TrueType);'
        ' scripts/install-test-services installs one (it needs npm and'
        " Debian's woff2)."
    )
  font_requests = []
  page.on(
      'request',
      lambda request: font_requests.append(request.url)
      if 'materialsymbols' in request.url
      else None,
  )
  _open_app(page, dev_ui_url, 'booking_workflow')
  _send(page, 'I want to book a table for two', _ANSWER)

  avatar = _row_with(page, _ANSWER).locator('.bot-avatar mat-icon')
  assert avatar.text_content().strip() == 'robot_2'
  # The ligature draws one glyph, as wide as the font size; the name as text
  # would be several times wider.
  width, font_size = page.evaluate(
      """icon => [icon.getBoundingClientRect().width,
                  parseFloat(getComputedStyle(icon).fontSize)]""",
      avatar.element_handle(),
  )
  assert width <= 1.5 * font_size
  assert not font_requests


@pytest.fixture(name='assistant_ui_url', scope='module')
def _assistant_ui_url_fixture(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
  tmp_path = tmp_path_factory.mktemp('adk_web_assistant')
  _assistant_app.write(tmp_path / 'agents')
  with serving(
      [
          'web',
          '--no-reload',
          '--session_service_uri=memory://',
          '--artifact_service_uri=memory://',
          '--memory_service_uri=memory://',
          str(tmp_path / 'agents'),
      ],
      workdir=tmp_path,
      env={'HOME': str(tmp_path)},
  ) as base_url:
    yield base_url


def _bubbles(page) -> list[dict[str, object]]:
  """The messages panel as drawn: per bubble its role and its parts' text."""
  return page.evaluate("""() => [...document.querySelectorAll(
        '#adk-user-messages .adk-um-message')].map(bubble => ({
      role: bubble.classList.contains('adk-um-user') ? 'user' : 'assistant',
      parts: [...bubble.children].map(part => part.innerText.trim()),
      cards: [...bubble.querySelectorAll('.adk-um-tool')].map(card => ({
        name: card.querySelector('.adk-um-name').textContent,
        status: card.dataset.status,
        level: card.dataset.level,
        client: card.classList.contains('adk-um-client'),
      })),
    }))""")


def test_preview_draws_a_turn_as_one_message_with_its_tool_cards(
    page, assistant_ui_url: str, screenshot_dir: Path
):
  _open_app(page, assistant_ui_url, _assistant_app.APP)
  page.locator('#adk-user-view-toggle').click()
  page.wait_for_load_state()
  page.locator('textarea').first.wait_for()
  panel = page.locator('#adk-user-messages')
  box = page.locator('textarea').first
  box.fill(_assistant_app.QUESTION)
  box.press('Enter')

  # While the researcher runs, its work shows, attributed to its call.
  # Polled on every frame: the line lasts as long as the researcher works.
  run_id = page.wait_for_function("""() => {
        const card = [...document.querySelectorAll(
            '#adk-user-messages .adk-um-progress .adk-um-agent')].find(
            card => card.innerText === 'researcher is working: search');
        return card && card.dataset.run;
      }""").json_value()
  client_card = panel.locator('.adk-um-tool.adk-um-client')
  client_card.wait_for()
  page.screenshot(path=str(screenshot_dir / 'dev-ui-messages-waiting.png'))

  first = _bubbles(page)
  assert [b['role'] for b in first] == ['user', 'assistant']
  assert first[1]['parts'][0] == 'researcher worked: search (done)'
  assert first[1]['cards'] == [
      {
          'name': 'lookup_account',
          'status': 'done',
          'level': 'minimal',
          'client': False,
      },
      {
          'name': 'ask_user_to_confirm',
          'status': 'waiting',
          'level': 'full',
          'client': True,
      },
  ]
  agent = panel.locator('.adk-um-agent').first
  assert agent.get_attribute('data-run') == run_id
  assert 'audit' not in panel.inner_text()

  # The user answers the client tool in the dev UI; after that run the panel
  # draws the finished turn, and a reload draws the same.
  answer_box = page.get_by_placeholder('Enter your response')
  answer_box.fill('yes')
  answer_box.press('Enter')
  panel.locator('.adk-um-text', has_text=_assistant_app.ANSWER).wait_for()
  after_run = _bubbles(page)
  # The side panel counts the session's events as the rows do: the
  # researcher's progress, which the panel above drew live, is not one of
  # them (the session stores none of it).
  rows = page.locator('app-event-row').filter(visible=True)
  _row_with(page, _assistant_app.ANSWER).click()
  assert rows.count() == 8
  assert _settled_side_panel_count(page, 'Event 8 of 8') == 'Event 8 of 8'
  assert _upstream_count(page) == 'Event 8 of 8'
  # A reply keeps its line breaks: two paragraphs are not drawn as one line.
  assert (
      panel.locator('.adk-um-text').first.evaluate(
          'text => getComputedStyle(text).whiteSpace'
      )
      == 'pre-wrap'
  )
  page.reload()
  panel.locator('.adk-um-text', has_text=_assistant_app.ANSWER).wait_for()

  reloaded = _bubbles(page)
  assert [b['role'] for b in reloaded] == ['user', 'assistant']
  assert reloaded[0]['parts'] == [_assistant_app.QUESTION]
  parts = reloaded[1]['parts']
  assert len(parts) == 4
  assert parts[0] == 'researcher worked: search (done)'
  assert parts[1].startswith('lookup_account')
  assert parts[2].startswith('ask_user_to_confirm')
  assert 'Book the ferry?' in parts[2] and '"yes"' in parts[2]
  assert parts[3] == _assistant_app.ANSWER
  assert [c['status'] for c in reloaded[1]['cards']] == ['done', 'done']
  assert reloaded == after_run
  _row_with(page, _assistant_app.ANSWER).click()
  assert rows.count() == 8
  assert _settled_side_panel_count(page, 'Event 8 of 8') == 'Event 8 of 8'
  assert 'audit' not in panel.inner_text()
  page.screenshot(path=str(screenshot_dir / 'dev-ui-messages.png'))
