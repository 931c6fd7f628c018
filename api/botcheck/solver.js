/*
 * PlatformBotCheck: answers the platform's bot check in a browser (docs/botcheck.md). Served as
 * GET /botcheck/solver.js; self-contained, no build step.
 *
 *   <script src="https://platform.example/botcheck/solver.js"></script>
 *   const answer = await PlatformBotCheck.answer('orders', { container: document.getElementById('bot-check') });
 *   await fetch('https://platform.example/endpoints/orders', { method: 'POST', headers: { [PlatformBotCheck.header]: answer }, body });
 *
 * The challenge comes from the platform that served this script (GET /botcheck/challenge), whatever
 * page loaded it; a page on another origin must be in the endpoint's allowed_origins.
 * - Proof of work: Web Workers try counters with WebCrypto's SHA-256 until one gives the required
 *   leading zero bits; the page's main thread stays free. The container, if given, carries
 *   aria-busy and data-bot-check="working" | "done" | "failed" meanwhile, for the page to style.
 * - Hosted provider (hosted_a Cloudflare Turnstile, hosted_b hCaptcha): its widget is rendered in
 *   `container` (required) and its token is the answer.
 * - No check (provider none): the answer is '' (send no header).
 * One answer is good for one request. The workers are blob: URLs (a page whose CSP sets worker-src
 * must allow blob:).
 */
(function () {
  'use strict';

  var HEADER = 'X-Bot-Check';
  var script = document.currentScript;
  var platform = new URL(script && script.src ? script.src : location.href).origin;
  var widgets = {
    hosted_a: { src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
    hosted_b: { src: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
  };

  // Runs inside each worker (serialised with toString): tries counters start, start + step, …,
  // keeping a batch of digests in flight so WebCrypto's thread is never idle.
  function worker() {
    var BATCH = 16;
    function zeroBits(bytes) {
      var bits = 0;
      for (var i = 0; i < bytes.length; i++) {
        if (bytes[i] !== 0) return bits + Math.clz32(bytes[i]) - 24;
        bits += 8;
      }
      return bits;
    }
    self.onmessage = async function (event) {
      var job = event.data;
      var encoder = new TextEncoder();
      try {
        for (var counter = job.start; ; ) {
          var tried = [];
          var pending = [];
          for (var i = 0; i < BATCH; i++, counter += job.step) {
            tried.push(counter);
            pending.push(crypto.subtle.digest('SHA-256', encoder.encode(job.prefix + counter)));
          }
          var digests = await Promise.all(pending);
          for (var j = 0; j < digests.length; j++) {
            if (zeroBits(new Uint8Array(digests[j])) >= job.difficulty) {
              self.postMessage({ counter: tried[j] });
              return;
            }
          }
        }
      } catch (error) {
        self.postMessage({ error: String((error && error.message) || error) });
      }
    };
  }

  var workerUrl;
  function workerScriptUrl() {
    if (!workerUrl) workerUrl = URL.createObjectURL(new Blob(['(' + worker.toString() + ')()'], { type: 'text/javascript' }));
    return workerUrl;
  }

  function solve(challenge, difficulty) {
    var count = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
    return new Promise(function (resolve, reject) {
      var workers = [];
      function finish(error, counter) {
        workers.forEach(function (w) {
          w.terminate();
        });
        workers = [];
        if (error) reject(error);
        else resolve(challenge + ':' + counter);
      }
      for (var i = 0; i < count; i++) {
        var w = new Worker(workerScriptUrl());
        w.onmessage = function (event) {
          if (event.data.error) finish(new Error('bot-check worker failed: ' + event.data.error));
          else finish(null, event.data.counter);
        };
        w.onerror = function (event) {
          finish(new Error('bot-check worker failed: ' + (event.message || 'error')));
        };
        w.postMessage({ prefix: challenge + ':', difficulty: difficulty, start: i, step: count });
        workers.push(w);
      }
    });
  }

  function showing(container, work) {
    if (!container) return work;
    container.setAttribute('aria-busy', 'true');
    container.setAttribute('data-bot-check', 'working');
    function settle(state) {
      container.removeAttribute('aria-busy');
      container.setAttribute('data-bot-check', state);
    }
    return work.then(
      function (value) {
        settle('done');
        return value;
      },
      function (error) {
        settle('failed');
        throw error;
      },
    );
  }

  var loading = {};
  function loadWidget(widget) {
    if (window[widget.global]) return Promise.resolve(window[widget.global]);
    if (!loading[widget.src]) {
      loading[widget.src] = new Promise(function (resolve, reject) {
        var tag = document.createElement('script');
        tag.src = widget.src;
        tag.async = true;
        tag.onload = function () {
          if (window[widget.global]) resolve(window[widget.global]);
          else reject(new Error('the bot-check widget did not load'));
        };
        tag.onerror = function () {
          delete loading[widget.src];
          reject(new Error('the bot-check widget could not be loaded from ' + widget.src));
        };
        document.head.appendChild(tag);
      });
    }
    return loading[widget.src];
  }

  function hostedToken(widget, siteKey, container) {
    if (!container) return Promise.reject(new Error('a hosted bot check needs options.container to render its widget in'));
    return loadWidget(widget).then(function (api) {
      return new Promise(function (resolve, reject) {
        // A fresh element per answer: a token is good once, so each answer gets its own widget.
        var slot = document.createElement('div');
        container.appendChild(slot);
        function done() {
          if (slot.parentNode) slot.parentNode.removeChild(slot);
        }
        api.render(slot, {
          sitekey: siteKey,
          callback: function (token) {
            done();
            resolve(token);
          },
          'error-callback': function (code) {
            done();
            reject(new Error('the bot-check widget failed' + (code ? ': ' + code : '')));
          },
        });
      });
    });
  }

  function answer(endpoint, options) {
    var container = options && options.container;
    var url = platform + '/botcheck/challenge?endpoint=' + encodeURIComponent(endpoint);
    return fetch(url, { credentials: 'omit', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error('no bot-check challenge for ' + endpoint + ': HTTP ' + response.status);
        return response.json();
      })
      .then(function (challenge) {
        if (challenge.provider === 'pow') return showing(container, solve(challenge.challenge, challenge.difficulty));
        if (widgets[challenge.provider]) return hostedToken(widgets[challenge.provider], challenge.site_key, container);
        if (challenge.provider === 'none') return '';
        throw new Error('unknown bot-check provider ' + challenge.provider);
      });
  }

  window.PlatformBotCheck = Object.freeze({ header: HEADER, answer: answer });
})();
