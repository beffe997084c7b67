/**
 * Copyright 2026 Google LLC
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/**
 * A preview of the end user's view in the ADK dev UI.
 *
 * The dev UI shows every event, which is what a developer needs; the end user
 * of the app sees less: internal agents' work arrives without its text (the
 * server's visibility_mode "filter", the same view as
 * google.adk.events.user_view.user_view). This script adds a switch between
 * the two. In the preview, the UI asks the server for that view itself, on
 * runs (/run_sse with visibilityMode "filter") and on session reads
 * (?visibility_mode=filter), so what it draws is exactly what a client in
 * filter mode receives. The choice is kept per tab, and switching reloads the
 * page, which reloads the open session in the chosen view.
 *
 * The preview also draws the conversation as the end user's chat client
 * would: one bubble per message, the assistant's tool cards inside its
 * bubble, in a panel beside the chat. The messages are the server's
 * (GET .../sessions/{id}/messages, google.adk.events.user_messages), read
 * when a session is loaded and after each run. While a run streams, the
 * preview asks for nestedProgress "minimal" and shows the work of agents run
 * as tools, attributed to the call that started them.
 *
 * It runs before the Angular app (a classic script in the head) so that the
 * app's first requests already go through the wrappers below.
 */
(function () {
  'use strict';

  var STORAGE_KEY = 'adk.devUi.userViewPreview';
  var SESSION_PATH = /\/apps\/[^/]+\/users\/[^/]+\/sessions\/[^/?#]+$/;
  var RUN_SSE_PATH = /\/run_sse$/;
  var SESSION_PARTS =
    /\/apps\/([^/]+)\/users\/([^/]+)\/sessions\/([^/?#]+)$/;

  function isPreview() {
    try {
      return window.sessionStorage.getItem(STORAGE_KEY) === '1';
    } catch (e) {
      return false;
    }
  }

  function setPreview(on) {
    try {
      if (on) {
        window.sessionStorage.setItem(STORAGE_KEY, '1');
      } else {
        window.sessionStorage.removeItem(STORAGE_KEY);
      }
    } catch (e) {
      // Storage can be disabled; the switch then lasts until the reload.
    }
    window.location.reload();
  }

  function pathOf(url) {
    try {
      return new URL(url, window.location.href).pathname;
    } catch (e) {
      return '';
    }
  }

  function withFilterQuery(url) {
    var parsed = new URL(url, window.location.href);
    parsed.searchParams.set('visibility_mode', 'filter');
    return parsed.toString();
  }

  /**
   * A run the server refuses before it starts (an app whose configuration is
   * wrong: the server answers /run_sse with an error status and a JSON
   * `detail`) would leave the chat silent: the dev UI reads an error only
   * from inside the event stream. Such an answer is handed to the UI as a
   * stream holding that one error, so the message shows where the user
   * looks; other clients of the server still get the status.
   */
  function withRefusalInStream(response) {
    var type = response.headers.get('content-type') || '';
    if (response.ok || type.indexOf('application/json') === -1) {
      return response;
    }
    return response.clone().json().then(
      function (body) {
        if (!body || typeof body.detail !== 'string') {
          return response;
        }
        // adkNotSent: the run never started, so the session does not hold
        // the message the UI drew when it sent it; the page marks that
        // message as not sent (patches/dev-ui.toml,
        // `refused-run-marks-message`).
        var event = JSON.stringify({error: body.detail, adkNotSent: true});
        return new Response('data: ' + event + '\n\n', {
          status: 200,
          headers: {'content-type': 'text/event-stream'},
        });
      },
      function () {
        return response;
      }
    );
  }

  var originalFetch = window.fetch;
  var GRAPH_PATH = /\/dev\/apps\/([^/]+)\/build_graph(_image)?$/;

  /**
   * An app's problems, shown when the app is opened rather than only once a
   * message is sent. The dev UI loads an app's graph first
   * (/dev/apps/{app}/build_graph...); when it does, this asks the server for
   * the app's findings (/dev/apps/{app}/findings): an app that cannot run
   * answers its error as JSON, one that runs the findings its Runner logs
   * (an include_sources name that matches no agent, say), each with its fix.
   */
  var findings = (function () {
    var checked = null;

    function banner() {
      var element = document.getElementById('adk-app-findings');
      if (element || !document.body) {
        return element;
      }
      element = document.createElement('div');
      element.id = 'adk-app-findings';
      element.setAttribute('role', 'alert');
      document.body.appendChild(element);
      return element;
    }

    function show(app, lines, isError) {
      var element = banner();
      if (!element) {
        return;
      }
      element.textContent = '';
      element.setAttribute('data-app', app);
      element.classList.toggle('adk-app-error', isError);
      element.hidden = !lines.length;
      lines.forEach(function (line) {
        var item = document.createElement('div');
        item.className = 'adk-app-finding';
        item.textContent = line;
        element.appendChild(item);
      });
    }

    function read(app, response) {
      return response.json().then(function (body) {
        if (!response.ok) {
          var detail = body && typeof body.detail === 'string' ?
            body.detail : 'the server log says why.';
          show(app, ['This app cannot run: ' + detail], true);
          return;
        }
        show(app, (Array.isArray(body) ? body : []).filter(function (f) {
          return f.severity !== 'info';
        }).map(function (f) {
          return f.severity + ' ' + f.code + ' [' + f.agent + '] ' +
            f.message + ' Fix: ' + f.hint;
        }), false);
      });
    }

    function opened(url) {
      var path = pathOf(url);
      var match = GRAPH_PATH.exec(path);
      if (!match || match[1] === checked) {
        return;
      }
      var app = decodeURIComponent(match[1]);
      checked = match[1];
      var target = new URL(url, window.location.href);
      target.pathname = path.replace(GRAPH_PATH, '/dev/apps/$1/findings');
      target.search = '';
      originalFetch.call(window, target.toString()).then(function (response) {
        return read(app, response);
      }).catch(function () {
        show(app, [], false);
      });
    }

    return {opened: opened};
  })();

  /**
   * The preview's panel that draws the conversation as messages.
   *
   * `session` is the conversation the app last read or ran. Its messages are
   * read from the server again after each run, so what the panel shows after
   * a run is what it shows after a reload.
   */
  var messages = (function () {
    var session = null;
    var shown = [];
    // The turn being run: the user's text, and the progress of the agents
    // run as tools by run (the id of the call that started it).
    var live = null;
    var reads = 0;

    function panel() {
      var element = document.getElementById('adk-user-messages');
      if (element || !document.body) {
        return element;
      }
      element = document.createElement('section');
      element.id = 'adk-user-messages';
      element.setAttribute('aria-label', "The end user's messages");
      var title = document.createElement('h2');
      title.textContent = 'What the end user sees';
      var list = document.createElement('div');
      list.className = 'adk-um-list';
      element.appendChild(title);
      element.appendChild(list);
      document.body.appendChild(element);
      return element;
    }

    function el(tag, className, text) {
      var node = document.createElement(tag);
      node.className = className;
      if (text !== undefined) {
        node.textContent = text;
      }
      return node;
    }

    function toolCard(tool) {
      var card = el('div', 'adk-um-card adk-um-tool');
      card.setAttribute('data-call-id', tool.callId);
      card.setAttribute('data-status', tool.status);
      card.setAttribute('data-level', tool.level);
      if (tool.client) {
        card.classList.add('adk-um-client');
      }
      var head = el('div', 'adk-um-card-head');
      head.appendChild(el('span', 'adk-um-name', tool.name));
      head.appendChild(el('span', 'adk-um-status', tool.status));
      if (tool.client) {
        head.appendChild(el('span', 'adk-um-badge', 'client tool'));
      }
      card.appendChild(head);
      if (tool.args !== undefined) {
        card.appendChild(el('pre', 'adk-um-args', JSON.stringify(tool.args)));
      }
      if (tool.result !== undefined) {
        card.appendChild(
          el('pre', 'adk-um-result', '\u2192 ' + JSON.stringify(tool.result)));
      }
      return card;
    }

    /**
     * An agent run as a tool: "researcher is working: search" while it runs,
     * "researcher worked: search (done)" once it finished; runs nested in it
     * follow inside.
     */
    function agentCard(run) {
      var working = run.status === 'started';
      var card = el('div', 'adk-um-card adk-um-agent');
      card.setAttribute('data-run', run.run);
      card.setAttribute('data-status', run.status);
      var steps = (run.steps || []).map(function (step) {
        return working ? step.name :
          step.name + ' (' + (step.status === 'done' ? 'done' : 'running') +
          ')';
      });
      var verb = working ? ' is working' :
        run.status === 'error' ? ' failed' : ' worked';
      card.appendChild(el('div', 'adk-um-card-head',
        run.agent + verb + (steps.length ? ': ' + steps.join(', ') : '')));
      if (run.error) {
        card.appendChild(el('div', 'adk-um-error', run.error));
      }
      (run.runs || []).forEach(function (inner) {
        card.appendChild(agentCard(inner));
      });
      return card;
    }

    function bubble(message) {
      var node = el('div', 'adk-um-message adk-um-' + message.role);
      if (message.id) {
        node.setAttribute('data-message-id', message.id);
      }
      (message.parts || []).forEach(function (part) {
        if (part.type === 'text') {
          node.appendChild(el('div', 'adk-um-text', part.text));
        } else if (part.type === 'tool') {
          node.appendChild(toolCard(part.tool));
        } else if (part.type === 'agent') {
          node.appendChild(agentCard(part.agent));
        } else if (part.type === 'error') {
          node.appendChild(el('div', 'adk-um-error', part.text));
        }
      });
      return node;
    }

    function render() {
      var element = panel();
      if (!element) {
        return;
      }
      if (session) {
        element.setAttribute('data-app', session.app);
        element.setAttribute('data-user-id', session.user);
        element.setAttribute('data-session-id', session.id);
      }
      var list = element.querySelector('.adk-um-list');
      list.textContent = '';
      shown.forEach(function (message) {
        list.appendChild(bubble(message));
      });
      if (live) {
        if (live.text) {
          list.appendChild(
            bubble({role: 'user', parts: [{type: 'text', text: live.text}]}));
        }
        var runs = Object.keys(live.runs);
        if (runs.length) {
          var progress = el('div', 'adk-um-message adk-um-assistant');
          progress.classList.add('adk-um-progress');
          runs.forEach(function (id) {
            progress.appendChild(agentCard(live.runs[id]));
          });
          list.appendChild(progress);
        }
      }
      list.scrollTop = list.scrollHeight;
    }

    function sameSession(next) {
      return Boolean(session) && session.app === next.app &&
        session.user === next.user && session.id === next.id;
    }

    function load(next) {
      if (!sameSession(next)) {
        shown = [];
        live = null;
      }
      session = next;
      var read = ++reads;
      // The API is served where the dev UI's folder is mounted.
      var base = window.location.pathname.replace(/\/dev-ui(\/.*)?$/, '');
      var url = base + '/apps/' + encodeURIComponent(next.app) + '/users/' +
        encodeURIComponent(next.user) + '/sessions/' +
        encodeURIComponent(next.id) + '/messages';
      return originalFetch.call(window, url).then(function (response) {
        return response.ok ? response.json() : [];
      }).then(function (answer) {
        if (read === reads && sameSession(next)) {
          shown = answer;
          live = null;
          render();
        }
      }, function () {
        // The server is gone or has no such endpoint: nothing to draw.
      });
    }

    function sessionRead(url) {
      if (!isPreview()) {
        return;
      }
      var match = SESSION_PARTS.exec(pathOf(url));
      if (match) {
        load({
          app: decodeURIComponent(match[1]),
          user: decodeURIComponent(match[2]),
          id: decodeURIComponent(match[3]),
        });
      }
    }

    /** Folds one progress update into the run it belongs to. */
    function addProgress(update) {
      var run = live.runs[update.run];
      if (!run) {
        run = live.runs[update.run] = {
          run: update.run,
          agent: update.tool || update.agent,
          status: 'started',
          steps: [],
        };
      }
      if (update.status === 'step' && update.step) {
        var step = run.steps.filter(function (known) {
          return known.id === update.step.id;
        })[0];
        if (step) {
          step.status = update.step.status;
        } else {
          run.steps.push({
            id: update.step.id,
            name: update.step.name,
            status: update.step.status,
          });
        }
      } else if (update.status === 'finished' || update.status === 'error') {
        run.status = update.status;
        run.error = update.error;
      }
    }

    /**
     * The progress update an event of the stream carries, if any. `block` is
     * one server-sent event: its lines up to the blank line that ends it.
     */
    function progressOf(block) {
      var update = null;
      block.split('\n').forEach(function (line) {
        if (line.indexOf('data: ') !== 0) {
          return;
        }
        try {
          var event = JSON.parse(line.slice(6));
          var mark = event && event.customMetadata &&
            event.customMetadata.adk_progress;
          if (mark && mark.run) {
            update = mark;
          }
        } catch (e) {
          // Not JSON: not a progress update; the page reads it as before.
        }
      });
      return update;
    }

    /**
     * Hands the app the run's stream without its progress updates, which
     * this panel draws; when the stream ends, reads the conversation's
     * messages again.
     *
     * The preview asks for the progress (nestedProgress "minimal") for the
     * panel only. The dev UI on its own never receives it, and would keep
     * each update in its list of the session's events (the side panel's
     * "Event N of N" and its arrows), although the session stores none of
     * them, so that list would hold more live than after a reload.
     */
    function watchRun(body, response) {
      if (!response.ok || !response.body || !body.sessionId) {
        return response;
      }
      var next = {app: body.appName, user: body.userId, id: body.sessionId};
      if (!sameSession(next)) {
        shown = [];
      }
      session = next;
      var parts = (body.newMessage && body.newMessage.parts) || [];
      live = {
        text: parts.map(function (part) {
          return part.text || '';
        }).join(''),
        runs: {},
      };
      render();
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var encoder = new TextEncoder();
      var pending = '';

      // Passes on each whole event that is not a progress update, and folds
      // the updates into the panel; says whether it passed any. An event
      // ends with a blank line.
      function pass(controller, text) {
        var changed = false;
        var kept = [];
        text.split('\n\n').forEach(function (block) {
          var update = block ? progressOf(block) : null;
          if (update) {
            if (live) {
              addProgress(update);
              changed = true;
            }
          } else if (block) {
            kept.push(block + '\n\n');
          }
        });
        if (kept.length) {
          controller.enqueue(encoder.encode(kept.join('')));
        }
        if (changed) {
          render();
        }
        return kept.length > 0;
      }

      // Reads until it has passed something on or the stream ended: a pull
      // that enqueues nothing is not called again by the stream.
      function pull(controller) {
        return reader.read().then(function (chunk) {
          if (chunk.done) {
            pending = (pending + decoder.decode()).replace(/\r\n/g, '\n');
            if (pending) {
              pass(controller, pending);
              pending = '';
            }
            controller.close();
            load(next);
            return;
          }
          // The page reads lines ending in "\n" or "\r\n"; events are split
          // here at blank lines, so both are read as "\n".
          pending = (pending + decoder.decode(chunk.value, {stream: true}))
            .replace(/\r\n/g, '\n');
          var end = pending.lastIndexOf('\n\n');
          var passed = false;
          if (end >= 0) {
            passed = pass(controller, pending.slice(0, end));
            pending = pending.slice(end + 2);
          }
          return passed ? undefined : pull(controller);
        });
      }

      var stream = new ReadableStream({
        pull: function (controller) {
          return pull(controller).catch(function (error) {
            controller.error(error);
            load(next);
          });
        },
        cancel: function (reason) {
          load(next);
          return reader.cancel(reason);
        },
      });
      return new Response(stream, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }

    return {render: render, sessionRead: sessionRead, watchRun: watchRun};
  })();

  // /run_sse is posted with fetch.
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : input && input.url;
    var method = ((init && init.method) || 'GET').toUpperCase();
    if (method === 'GET' && typeof url === 'string') {
      findings.opened(url);
    }
    var isRun = method === 'POST' && RUN_SSE_PATH.test(pathOf(url));
    if (!isPreview()) {
      var answer = originalFetch.apply(this, arguments);
      return isRun ? answer.then(withRefusalInStream) : answer;
    }
    if (
      typeof input === 'string' &&
      isRun &&
      init &&
      typeof init.body === 'string'
    ) {
      var body = null;
      try {
        body = JSON.parse(init.body);
        body.visibilityMode = 'filter';
        body.nestedProgress = 'minimal';
        init = Object.assign({}, init, {body: JSON.stringify(body)});
      } catch (e) {
        // Not JSON: leave the request as the app made it.
        body = null;
      }
      var run = originalFetch.call(this, input, init).then(withRefusalInStream);
      return body ? run.then(function (response) {
        return messages.watchRun(body, response);
      }) : run;
    }
    if (method === 'GET' && typeof input === 'string' &&
        SESSION_PATH.test(pathOf(url))) {
      messages.sessionRead(url);
      return originalFetch.call(this, withFilterQuery(input), init);
    }
    return originalFetch.apply(this, arguments);
  };

  // Sessions are read with Angular's HttpClient, which uses XMLHttpRequest.
  var originalOpen = window.XMLHttpRequest.prototype.open;
  window.XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (String(method).toUpperCase() === 'GET' && typeof url === 'string') {
      findings.opened(url);
    }
    if (
      isPreview() &&
      String(method).toUpperCase() === 'GET' &&
      typeof url === 'string' &&
      SESSION_PATH.test(pathOf(url))
    ) {
      args[1] = withFilterQuery(url);
      messages.sessionRead(url);
    }
    return originalOpen.apply(this, args);
  };

  /**
   * The side panel's "Event N of N", counted as the preview counts its rows.
   *
   * Upstream's label counts the UI's list of the session's events, which
   * the side panel's arrows step through: in the preview that list holds
   * the events whose rows the preview leaves out (an internal agent's turn,
   * a workflow's route), so the answer drawn as #2 read "Event 4 of 8". In
   * the preview the label names the selected row as the rows are numbered,
   * "Event 2 of 4", counting the rows shown; an event the arrows reach that
   * has no row shown says so, with its place among the session's events:
   * "Not shown to the user · session event 3 of 8". The developer view keeps
   * upstream's label, which its rows' numbers match.
   *
   * Upstream's text stays in the DOM, as the rows' numbers do; the label is
   * drawn from `data-adk-label` (user-view.css), so Angular's rendering of
   * the text is left alone.
   */
  var eventCount = (function () {
    var UPSTREAM_LABEL = /^\s*Event (\d+) of (\d+)\s*$/;
    var scheduled = false;

    function shownRows() {
      return Array.prototype.filter.call(
        document.querySelectorAll('app-event-row'),
        function (row) {
          return row.getClientRects().length > 0;
        });
    }

    function labelFor(upstream) {
      var match = UPSTREAM_LABEL.exec(upstream);
      if (!match || match[1] === '0') {
        return null;
      }
      var rows = shownRows();
      var selected = rows.filter(function (row) {
        return row.classList.contains('selected');
      })[0];
      if (selected) {
        return 'Event ' + (rows.indexOf(selected) + 1) + ' of ' + rows.length;
      }
      return 'Not shown to the user \u00B7 session event ' + match[1] +
        ' of ' + match[2];
    }

    function update() {
      scheduled = false;
      var label = document.querySelector(
        'app-event-tab .mat-mdc-paginator-range-label');
      if (!label) {
        return;
      }
      var text = labelFor(label.textContent);
      if (text === null) {
        label.removeAttribute('data-adk-label');
      } else if (label.getAttribute('data-adk-label') !== text) {
        label.setAttribute('data-adk-label', text);
      }
    }

    function schedule() {
      if (!scheduled) {
        scheduled = true;
        window.requestAnimationFrame(update);
      }
    }

    /** Follows the selection, the rows and upstream's label from now on. */
    function follow() {
      // The row a click or an arrow selects gets upstream's `selected`
      // class; rows come and go as events arrive and sessions load.
      new MutationObserver(schedule).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['class'],
      });
      schedule();
    }

    return {follow: follow};
  })();

  function addSwitch() {
    if (document.getElementById('adk-user-view-bar')) {
      return;
    }
    var preview = isPreview();
    document.body.classList.toggle('adk-user-view-preview', preview);
    var bar = document.createElement('div');
    bar.id = 'adk-user-view-bar';
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'View');
    var label = document.createElement('span');
    label.textContent = preview
      ? 'Previewing what the end user sees'
      : 'Developer view: internal work collapsed';
    var button = document.createElement('button');
    button.type = 'button';
    button.id = 'adk-user-view-toggle';
    button.textContent = preview ? 'Back to developer view' : "Preview user's view";
    button.title = preview
      ? 'Show every event, internal agents included'
      : 'Show only what the end user of the app receives';
    button.addEventListener('click', function () {
      setPreview(!preview);
    });
    bar.appendChild(label);
    bar.appendChild(button);
    document.body.appendChild(bar);
    if (preview) {
      messages.render();
      eventCount.follow();
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', addSwitch);
  } else {
    addSwitch();
  }
})();
