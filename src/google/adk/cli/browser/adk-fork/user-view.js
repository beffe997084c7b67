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
 * It runs before the Angular app (a classic script in the head) so that the
 * app's first requests already go through the wrappers below.
 */
(function () {
  'use strict';

  var STORAGE_KEY = 'adk.devUi.userViewPreview';
  var SESSION_PATH = /\/apps\/[^/]+\/users\/[^/]+\/sessions\/[^/?#]+$/;
  var RUN_SSE_PATH = /\/run_sse$/;

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
        var event = JSON.stringify({error: body.detail});
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

  // /run_sse is posted with fetch.
  var originalFetch = window.fetch;
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : input && input.url;
    var method = ((init && init.method) || 'GET').toUpperCase();
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
      try {
        var body = JSON.parse(init.body);
        body.visibilityMode = 'filter';
        init = Object.assign({}, init, {body: JSON.stringify(body)});
      } catch (e) {
        // Not JSON: leave the request as the app made it.
      }
      return originalFetch.call(this, input, init).then(withRefusalInStream);
    }
    if (method === 'GET' && typeof input === 'string' &&
        SESSION_PATH.test(pathOf(url))) {
      return originalFetch.call(this, withFilterQuery(input), init);
    }
    return originalFetch.apply(this, arguments);
  };

  // Sessions are read with Angular's HttpClient, which uses XMLHttpRequest.
  var originalOpen = window.XMLHttpRequest.prototype.open;
  window.XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (
      isPreview() &&
      String(method).toUpperCase() === 'GET' &&
      typeof url === 'string' &&
      SESSION_PATH.test(pathOf(url))
    ) {
      args[1] = withFilterQuery(url);
    }
    return originalOpen.apply(this, args);
  };

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
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', addSwitch);
  } else {
    addSwitch();
  }
})();
