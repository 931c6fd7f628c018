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
 * - Proof of work: Web Workers try counters until SHA-256 of `<challenge>:<counter>` has the
 *   required leading zero bits; the page's main thread stays free. Each worker hashes by hand: the
 *   challenge's complete 64-byte blocks once (the midstate), then per try only the final block or
 *   two (the challenge's tail, the counter's digits, the padding), with no allocation. That is an
 *   order of magnitude faster than a crypto.subtle.digest call per try, whose promise costs far more
 *   than the hash. The counter found is confirmed with WebCrypto before it is answered (a mismatch
 *   is an error, never a wrong answer); should the hand-written path throw, the worker searches with
 *   WebCrypto alone. The container, if given, carries aria-busy and
 *   data-bot-check="working" | "done" | "failed" meanwhile, for the page to style.
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

  // Runs inside each worker (serialised with toString): tries counters start, start + step, … until
  // SHA-256 of `<challenge>:<counter>` starts with `difficulty` zero bits, and posts that counter.
  // The search hashes by hand (below): the challenge's complete 64-byte blocks are hashed once (the
  // midstate) and each try compresses only the final block or two, with no allocation. The counter
  // found is confirmed with WebCrypto before it is posted. Should the hand-written path be
  // unavailable (it throws), the search runs on WebCrypto alone, a batch of digests in flight.
  // worker(true) returns the hashing code instead of waiting for a job: the browser test evaluates
  // the worker's blob text that way to check it against WebCrypto.
  function worker(hashOnly) {
    var BATCH = 16;
    var MAX_COUNTER = 9007199254740991; // 2^53 − 1
    // SHA-256 (FIPS 180-4): the round constants and the initial hash value.
    var K = [
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    var IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

    /**
     * SHA-256 of `prefix` (bytes) followed by a counter's decimal digits. set(counter) places a
     * counter, next(step) adds step to it (digits carried in place; the layout of the final blocks is
     * redone only when the digit count grows) and returns it, compute() hashes and returns the
     * digest's first word, all eight being in `out` (big-endian words, as Int32).
     */
    function createHasher(prefix) {
      var k = new Int32Array(K);
      var w = new Int32Array(64); // message schedule
      var mid = new Int32Array(IV); // state after the prefix's complete blocks
      var pre = new Int32Array(8); // working variables after the final block's rounds over tail bytes only
      var work = new Int32Array(8);
      var between = new Int32Array(8); // state after the first of two final blocks
      var out = new Int32Array(8);
      var bytes = new Uint8Array(128); // final block(s): tail of prefix, digits, 0x80, zeros, bit length
      var words = new Int32Array(32); // the same as big-endian words
      var full = prefix.length - (prefix.length % 64);
      var tail = prefix.length - full;
      var digits = 0;
      var blocks = 1;
      var preRounds = tail >> 2; // words wholly in the tail: the same for every counter
      var counter = 0;
      var i;

      // Rounds from..to-1 of the compression of words[off..off+15], starting from working
      // variables s; the working variables after them go to t.
      function rounds(s, off, from, to, t) {
        var a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        var j, x, y, t1, t2;
        for (j = 0; j < 16; j++) w[j] = words[off + j];
        for (j = 16; j < to; j++) {
          x = w[j - 15];
          y = w[j - 2];
          w[j] =
            ((((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) +
              w[j - 16] +
              (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)) +
              w[j - 7]) |
            0;
        }
        for (j = from; j < to; j++) {
          t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + k[j] + w[j]) | 0;
          t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
          h = g;
          g = f;
          f = e;
          e = (d + t1) | 0;
          d = c;
          c = b;
          b = a;
          a = (t1 + t2) | 0;
        }
        t[0] = a; t[1] = b; t[2] = c; t[3] = d; t[4] = e; t[5] = f; t[6] = g; t[7] = h;
      }

      function wordsFrom(first, last) {
        for (var x = first; x <= last; x++) {
          var j = x << 2;
          words[x] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
        }
      }

      // The prefix's complete blocks, once.
      for (var off = 0; off < full; off += 64) {
        for (i = 0; i < 64; i++) bytes[i] = prefix[off + i];
        wordsFrom(0, 15);
        rounds(mid, 0, 0, 64, work);
        for (i = 0; i < 8; i++) mid[i] = (mid[i] + work[i]) | 0;
      }

      function set(value) {
        var i;
        var text = String(value);
        var end = tail + text.length;
        var bits = (full + end) * 8;
        counter = value;
        digits = text.length;
        blocks = end + 9 <= 64 ? 1 : 2;
        bytes.fill(0);
        for (i = 0; i < tail; i++) bytes[i] = prefix[full + i];
        for (i = 0; i < digits; i++) bytes[tail + i] = text.charCodeAt(i);
        bytes[end] = 0x80;
        var last = blocks * 64 - 1;
        for (i = 0; i < 4; i++) bytes[last - i] = (bits >>> (8 * i)) & 0xff;
        var high = Math.floor(bits / 4294967296);
        for (i = 0; i < 4; i++) bytes[last - 4 - i] = (high >>> (8 * i)) & 0xff;
        wordsFrom(0, blocks * 16 - 1);
        rounds(mid, 0, 0, preRounds, pre);
      }

      function next(step) {
        var at = tail + digits - 1;
        var carry = step;
        var v;
        counter += step;
        while (carry > 0) {
          if (at < tail) {
            set(counter); // one digit more
            return counter;
          }
          v = bytes[at] - 48 + carry;
          carry = (v / 10) | 0;
          bytes[at] = 48 + v - carry * 10;
          at--;
        }
        wordsFrom((at + 1) >> 2, (tail + digits - 1) >> 2);
        return counter;
      }

      function compute() {
        var i;
        rounds(pre, 0, preRounds, 64, work);
        if (blocks === 1) {
          for (i = 0; i < 8; i++) out[i] = (mid[i] + work[i]) | 0;
        } else {
          for (i = 0; i < 8; i++) between[i] = (mid[i] + work[i]) | 0;
          rounds(between, 16, 0, 64, work);
          for (i = 0; i < 8; i++) out[i] = (between[i] + work[i]) | 0;
        }
        return out[0];
      }

      return { set: set, next: next, compute: compute, out: out };
    }

    /** Leading zero bits of a digest given as big-endian 32-bit words. */
    function leadingZeroBits(digestWords) {
      for (var i = 0; i < digestWords.length; i++) {
        if (digestWords[i] !== 0) return i * 32 + Math.clz32(digestWords[i]);
      }
      return digestWords.length * 32;
    }

    if (hashOnly) return { createHasher: createHasher, leadingZeroBits: leadingZeroBits };

    function zeroBits(bytes) {
      var bits = 0;
      for (var i = 0; i < bytes.length; i++) {
        if (bytes[i] !== 0) return bits + Math.clz32(bytes[i]) - 24;
        bits += 8;
      }
      return bits;
    }

    // The search by hand: the first counter of this worker's share that meets the difficulty, or -1
    // past 2^53 − 1. Synchronous: the page terminates the worker once it has an answer.
    function searchByHand(job, prefixBytes) {
      var hasher = createHasher(prefixBytes);
      var out = hasher.out;
      var difficulty = job.difficulty;
      var step = job.step;
      var counter = job.start;
      var h0;
      hasher.set(counter);
      for (;;) {
        h0 = hasher.compute();
        if (Math.clz32(h0) >= difficulty || (h0 === 0 && leadingZeroBits(out) >= difficulty)) return counter;
        if (counter > MAX_COUNTER - step) return -1;
        counter = hasher.next(step);
      }
    }

    // The search on WebCrypto alone: a batch of digests in flight so its thread is never idle.
    async function searchWebCrypto(job, encoder) {
      for (var counter = job.start; ; ) {
        var tried = [];
        var pending = [];
        for (var i = 0; i < BATCH; i++, counter += job.step) {
          tried.push(counter);
          pending.push(crypto.subtle.digest('SHA-256', encoder.encode(job.prefix + counter)));
        }
        var digests = await Promise.all(pending);
        for (var j = 0; j < digests.length; j++) {
          if (zeroBits(new Uint8Array(digests[j])) >= job.difficulty) return tried[j];
        }
      }
    }

    self.onmessage = async function (event) {
      var job = event.data;
      var encoder = new TextEncoder();
      try {
        var counter;
        var byHand = true;
        try {
          counter = searchByHand(job, encoder.encode(job.prefix));
        } catch {
          byHand = false; // the WebCrypto search below, from the start of this worker's share
        }
        if (!byHand) {
          counter = await searchWebCrypto(job, encoder);
        } else if (counter < 0) {
          throw new Error('no counter up to 2^53 - 1 gives ' + job.difficulty + ' zero bits');
        } else {
          var digest = await crypto.subtle.digest('SHA-256', encoder.encode(job.prefix + counter));
          if (zeroBits(new Uint8Array(digest)) < job.difficulty) {
            throw new Error('the hand-written SHA-256 disagrees with WebCrypto for counter ' + counter);
          }
        }
        self.postMessage({ counter: counter });
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
