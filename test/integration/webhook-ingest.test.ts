/**
 * The webhook ingest (issue 14, item 2) over real HTTP on real services: spec document 3's
 * "Webhook request handling order" row by row — each refusal with its status and Retry-After,
 * nothing stored, an earlier step winning over a later one — the 404 alike for unknown and
 * disabled, 413 before reading and mid-stream, split and form posts, the buffer's 503s over the
 * real store behind a gate, the CloudEvents handshake, the event columns read back through
 * sql_query, the metrics, the rejection list, and where /hooks/ is served. Auth modes:
 * webhook-ingest-auth.test.ts.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import type { ScratchStorage } from '../../shared/sql/scratch/index.js';
import { rawRequest, sign, startIngestRig, type Answer, type IngestRig } from './webhook-ingest-fixtures.js';

const SECRET = 'whsec-ingest-S3CR3T';
const hmac = { mode: 'hmac', signature_header: 'X-Signature', secret: SECRET };

let rig: IngestRig;

/** A POST signed for the hmac sources of this file. */
function signed(path: string, body: string, headers: Record<string, string> = {}, base?: string): Promise<Answer> {
  return rig.hook(path, { headers: { 'content-type': 'application/json', 'x-signature': sign(SECRET, body), ...headers }, body }, base);
}

const unsigned = (path: string, body: string, headers: Record<string, string> = {}) => rig.hook(path, { headers: { 'content-type': 'application/json', ...headers }, body });

/** Moves the clock past the receiver's one-second cache of source settings. */
const refreshSources = () => {
  rig.clock.now += 1001;
};

/** The value of one series in a Prometheus scrape (0 when absent). */
function series(scrape: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of scrape.split('\n')) {
    const match = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const have = match[2]!.split(',');
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

/** A gate in front of the real store's putObject: writes wait until it opens, or reject when their write times out. */
function storeGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let arrived!: () => void;
  const firstWrite = new Promise<void>((resolve) => (arrived = resolve));
  return {
    open,
    firstWrite,
    async writeSegment(storage: ScratchStorage, key: string, body: Uint8Array, signal: AbortSignal) {
      arrived();
      await new Promise<void>((resolve, reject) => {
        void opened.then(resolve);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
      await storage.connection.store.putObject(storage.bucket, key, body, { contentType: 'application/gzip', signal });
    },
  };
}

beforeAll(async () => {
  rig = await startIngestRig();
});
afterAll(async () => {
  await rig?.stop();
});

describe('webhook request handling order (spec 03), row by row', () => {
  it('source exists and is enabled: unknown and disabled names answer 404 with byte-identical bodies and the same headers', async () => {
    await rig.createSource('dormant', hmac);
    const update = await rig.admin('PUT', '/dormant', { enabled: false, auth: { mode: 'hmac', signature_header: 'X-Signature' } });
    expect(update.status, update.text).toBe(200);
    refreshSources();
    const body = '{"a":1}';
    const disabled = await signed('/hooks/dormant', body);
    const unknown = await signed('/hooks/never-made', body);
    expect(disabled.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(disabled.text).toBe(unknown.text);
    expect(JSON.parse(disabled.text)).toEqual({ error: 'not_found', message: expect.any(String) });
    const comparable = (a: Answer) => Object.fromEntries([...a.headers.entries()].filter(([name]) => !['date', 'x-request-id', 'request-id'].includes(name)));
    expect(comparable(disabled)).toEqual(comparable(unknown));
    // A disabled path_token-style address is just as unknown.
    expect((await rig.hook('/hooks/dormant/some-token', { body })).text).toBe(unknown.text);
    expect(await rig.segments('dormant')).toEqual([]);
  });

  it('OPTIONS on a cloudevents source is answered at its step: 200 echoing WebHook-Allowed-Origin, with WebHook-Allowed-Rate when rate-limited', async () => {
    await rig.createSource('cloud', hmac, { handshake: 'cloudevents', rate_limit_per_minute: 120 });
    await rig.createSource('cloud-free', hmac, { handshake: 'cloudevents' });
    // Before any body or authentication: the handshake carries neither.
    const answer = await rig.hook('/hooks/cloud', { method: 'OPTIONS', headers: { 'webhook-request-origin': 'eventemitter.example.com' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('webhook-allowed-origin')).toBe('eventemitter.example.com');
    expect(answer.headers.get('webhook-allowed-rate')).toBe('120');
    const free = await rig.hook('/hooks/cloud-free', { method: 'OPTIONS', headers: { 'webhook-request-origin': 'other.example.org' } });
    expect(free.status).toBe(200);
    expect(free.headers.get('webhook-allowed-origin')).toBe('other.example.org');
    expect(free.headers.has('webhook-allowed-rate')).toBe(false);
    // Disabled, it is as unknown as any name.
    const off = await rig.admin('PUT', '/cloud-free', { enabled: false, auth: { mode: 'hmac', signature_header: 'X-Signature' }, config: { handshake: 'cloudevents' } });
    expect(off.status, off.text).toBe(200);
    refreshSources();
    const disabled = await rig.hook('/hooks/cloud-free', { method: 'OPTIONS', headers: { 'webhook-request-origin': 'other.example.org' } });
    expect(disabled.status).toBe(404);
    expect(disabled.headers.has('webhook-allowed-origin')).toBe(false);
  });

  it('OPTIONS on a source without the cloudevents handshake is 405, on an unknown name 404', async () => {
    await rig.createSource('plain', hmac);
    const plain = await rig.hook('/hooks/plain', { method: 'OPTIONS', headers: { 'webhook-request-origin': 'eventemitter.example.com' } });
    expect(plain.status).toBe(405);
    expect(plain.headers.has('webhook-allowed-origin')).toBe(false);
    const unknown = await rig.hook('/hooks/nobody-here', { method: 'OPTIONS', headers: { 'webhook-request-origin': 'eventemitter.example.com' } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe((await signed('/hooks/nobody-here', '{}')).text);
  });

  it('body at most max_body_bytes: 413 on Content-Length before the body is read — the answer arrives while most of it is unsent', async () => {
    await rig.createSource('small', hmac, { max_body_bytes: 1024 });
    // Unsigned too: the size step comes first.
    const head = `POST /hooks/small HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`;
    const answer = await rawRequest(rig.hooksBase, head, ['{"a":']);
    expect(answer.status).toBe(413);
    // The rest is never read: the connection ends with the answer.
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'too_large' });
    expect(await rig.segments('small')).toEqual([]);
  });

  it('Expect: 100-continue — a refused request gets its 404 or 413 instead of 100 Continue, so the sender never uploads the body', async () => {
    await rig.createSource('expecting', hmac, { max_body_bytes: 1024 });
    const head = (path: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;
    expect((await rawRequest(rig.hooksBase, head('/hooks/expecting', 5_000_000), [])).status).toBe(413);
    expect((await rawRequest(rig.hooksBase, head('/hooks/no-such-source', 10), [])).status).toBe(404);
  });

  it('Expect: 100-continue — an acceptable request gets 100 Continue once the route reads its body, then 202', async () => {
    await rig.createSource('expecting-ok', hmac);
    const body = JSON.stringify({ id: 'continued' });
    const { hostname, port } = new URL(rig.hooksBase);
    const answer = await new Promise<{ continued: boolean; status: number; body: string }>((resolve, reject) => {
      let continued = false;
      const request = httpRequest(
        { host: hostname, port: Number(port), method: 'POST', path: '/hooks/expecting-ok', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue', 'x-signature': sign(SECRET, body) } },
        (response) => {
          let text = '';
          response.on('data', (d: Buffer) => (text += d.toString()));
          response.on('end', () => resolve({ continued, status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on('continue', () => {
        continued = true;
        request.end(body);
      });
      request.on('error', reject);
    });
    expect(answer).toEqual({ continued: true, status: 202, body: '{"accepted":1}' });
  });

  it('body at most max_body_bytes: 413 while streaming a chunked body without Content-Length, before it ends', async () => {
    await rig.createSource('small-chunked', hmac, { max_body_bytes: 1024 });
    const head = `POST /hooks/small-chunked HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = `${(700).toString(16)}\r\n${'x'.repeat(700)}\r\n`;
    // Two chunks pass the limit; the terminating chunk is never sent.
    const answer = await rawRequest(rig.hooksBase, head, [chunk, chunk]);
    expect(answer.status).toBe(413);
    expect(await rig.segments('small-chunked')).toEqual([]);
  });

  it('body at most max_body_bytes comes before authentication: oversized AND unsigned is 413, not 401', async () => {
    await rig.createSource('small-order', hmac, { max_body_bytes: 16 });
    expect((await unsigned('/hooks/small-order', JSON.stringify({ padding: 'x'.repeat(64) }))).status).toBe(413);
    expect((await signed('/hooks/small-order', JSON.stringify({ padding: 'x'.repeat(64) }))).status).toBe(413);
    expect((await signed('/hooks/small-order', '{"a":1}')).status).toBe(202);
    // The limit itself is allowed, one byte more is not.
    expect((await signed('/hooks/small-order', '{"a":"12345678"}')).status).toBe(202);
    expect((await signed('/hooks/small-order', '{"a":"123456789"}')).status).toBe(413);
  });

  it('request authenticates: 401 and nothing stored; a bad JSON body from an unauthenticated sender is 401, not 400', async () => {
    await rig.createSource('guarded', hmac);
    const bad = await unsigned('/hooks/guarded', '{"a":1}', { 'x-signature': sign('not-the-secret', '{"a":1}') });
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ error: 'unauthorized' });
    expect((await unsigned('/hooks/guarded', '{"a":1}')).status).toBe(401);
    expect((await unsigned('/hooks/guarded', 'not json {')).status).toBe(401);
    // Even a Content-Type that is not a media type at all goes through the order: 401 unsigned, 400 signed.
    expect((await unsigned('/hooks/guarded', '{"a":1}', { 'content-type': 'not a media type' })).status).toBe(401);
    expect((await signed('/hooks/guarded', '{"a":1}', { 'content-type': 'not a media type' })).status).toBe(400);
    expect(await rig.segments('guarded')).toEqual([]);
  });

  it('rate limit: 429 with Retry-After past the burst, refilling on the clock; an unsigned request to a limited source is 401, a limited bad body 429', async () => {
    await rig.createSource('limited', hmac, { rate_limit_per_minute: 60, rate_limit_burst: 2 });
    expect((await signed('/hooks/limited', '{"n":1}')).status).toBe(202);
    expect((await signed('/hooks/limited', '{"n":2}')).status).toBe(202);
    const limited = await signed('/hooks/limited', '{"n":3}');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.json).toMatchObject({ error: 'rate_limited' });
    // Authentication is the earlier step; the body check the later one.
    expect((await unsigned('/hooks/limited', '{"n":3}')).status).toBe(401);
    expect((await signed('/hooks/limited', 'not json {')).status).toBe(429);
    rig.clock.now += 1000;
    expect((await signed('/hooks/limited', '{"n":4}')).status).toBe(202);
    expect((await signed('/hooks/limited', '{"n":5}')).status).toBe(429);
    expect(await rig.segments('limited')).toHaveLength(3);
  });

  it('rate limit without a burst holds one second of requests; Retry-After counts the seconds to the next token', async () => {
    await rig.createSource('slow', hmac, { rate_limit_per_minute: 6 });
    expect((await signed('/hooks/slow', '{"n":1}')).status).toBe(202);
    const first = await signed('/hooks/slow', '{"n":2}');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('10');
    rig.clock.now += 9000;
    expect((await signed('/hooks/slow', '{"n":2}')).headers.get('retry-after')).toBe('1');
    rig.clock.now += 1000;
    expect((await signed('/hooks/slow', '{"n":2}')).status).toBe(202);
  });

  it('body is JSON and split names an array: 400 otherwise, nothing stored', async () => {
    await rig.createSource('shaped', hmac, { split: '$.items' });
    for (const body of ['not json {', '{"items": {"a": 1}}', '{"other": []}', '']) {
      const answer = await signed('/hooks/shaped', body);
      expect(answer.status, body).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_body' });
    }
    const plainText = await signed('/hooks/shaped', '{"items": [1]}', { 'content-type': 'text/plain' });
    expect(plainText.status).toBe(400);
    expect(await rig.segments('shaped')).toEqual([]);
  });

  it('request holds no more events than buffer_limit: 413, before the buffer', async () => {
    await rig.createSource('bounded', hmac, { split: '$', buffer_limit: 3 });
    const answer = await signed('/hooks/bounded', JSON.stringify([1, 2, 3, 4]));
    expect(answer.status).toBe(413);
    expect(answer.json.message).toMatch(/buffer_limit \(3\)/);
    expect(await rig.segments('bounded')).toEqual([]);
    expect((await signed('/hooks/bounded', JSON.stringify([1, 2, 3]))).json).toEqual({ accepted: 3 });
  });

  it('events fit in the buffer: 503 Retry-After 1 while a write holds it full; the held request is answered 202 once its segment is in the store', async () => {
    const gate = storeGate();
    const gated: RunningApi = await rig.startGatedApi({ writeTimeoutMs: 60_000, writeSegment: gate.writeSegment });
    await rig.createSource('full', hmac, { split: '$', buffer_limit: 2 });
    const held = signed('/hooks/full', JSON.stringify([{ n: 1 }, { n: 2 }]), {}, gated.url);
    await gate.firstWrite;
    expect(series(await rig.scrape(), 'webhook_buffer_events', { source: 'full' })).toBe(2);
    const refused = await signed('/hooks/full', JSON.stringify([{ n: 3 }]), {}, gated.url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json).toMatchObject({ error: 'buffer_full' });
    expect(await rig.segments('full')).toEqual([]);
    gate.open();
    expect((await held).json).toEqual({ accepted: 2 });
    expect(await rig.segments('full')).toHaveLength(1);
    expect(series(await rig.scrape(), 'webhook_buffer_events', { source: 'full' })).toBe(0);
    expect(series(await rig.scrape(), 'webhook_requests_total', { source: 'full', outcome: 'buffer_full' })).toBe(1);
  });

  it('segment written to object storage: 503 Retry-After 5 when the write does not finish within write_timeout, nothing stored', async () => {
    const gate = storeGate();
    const gated = await rig.startGatedApi({ writeTimeoutMs: 150, writeSegment: gate.writeSegment });
    await rig.createSource('stuck', hmac);
    const answer = await signed('/hooks/stuck', '{"n":1}', {}, gated.url);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.json).toMatchObject({ error: 'write_failed' });
    expect(await rig.segments('stuck')).toEqual([]);
    expect(series(await rig.scrape(), 'webhook_requests_total', { source: 'stuck', outcome: 'write_failed' })).toBe(1);
    // The store answering again, the next request lands and is read back at once.
    gate.open();
    expect((await signed('/hooks/stuck', '{"n":2}', {}, gated.url)).json).toEqual({ accepted: 1 });
    expect(await rig.segments('stuck')).toHaveLength(1);
    expect(await rig.query(`SELECT json_extract_scalar(payload, '$.n') AS n FROM scratch.webhook_stuck`)).toEqual([{ n: '2' }]);
  });

  it('success: 202 {accepted: n} once the events are in a segment at the layout key', async () => {
    await rig.createSource('landing', hmac);
    const answer = await signed('/hooks/landing', '{"hello":"world"}');
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ accepted: 1 });
    expect(await rig.segments('landing')).toEqual([expect.stringMatching(/^webhooks\/landing\/raw\/dt=2026-03-02\/hour=10\/minute=00\/[a-z0-9.]+-[0-9a-f]{8}-\d+-\d+\.jsonl\.gz$/)]);
  });
});

describe('split and body shapes', () => {
  it('split on $ makes each element an event; an empty array is 202 {accepted: 0} and writes nothing', async () => {
    await rig.createSource('batch', hmac, { split: '$' });
    expect((await signed('/hooks/batch', JSON.stringify([{ n: 1 }, { n: 2 }, { n: 3 }]))).json).toEqual({ accepted: 3 });
    expect(await rig.segments('batch')).toHaveLength(1);
    const empty = await signed('/hooks/batch', '[]');
    expect(empty.status).toBe(202);
    expect(empty.json).toEqual({ accepted: 0 });
    expect(await rig.segments('batch')).toHaveLength(1);
    expect((await signed('/hooks/batch', '{"n":1}')).status).toBe(400);
  });

  it('split on a path takes that array; a missing path or a non-array is 400', async () => {
    await rig.createSource('nested', hmac, { split: '$.data.items' });
    expect((await signed('/hooks/nested', JSON.stringify({ data: { items: [{ a: 1 }, { a: 2 }] } }))).json).toEqual({ accepted: 2 });
    expect((await signed('/hooks/nested', JSON.stringify({ data: {} }))).status).toBe(400);
    expect((await signed('/hooks/nested', JSON.stringify({ data: { items: 'x' } }))).status).toBe(400);
  });

  it('a form post carries the JSON in its payload field; the signature covers the form bytes as sent', async () => {
    await rig.createSource('formed', hmac, { split: '$' });
    const body = `payload=${encodeURIComponent(JSON.stringify([{ form: true }, { form: 'yes' }]))}`;
    const answer = await signed('/hooks/formed', body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(answer.json).toEqual({ accepted: 2 });
    const noPayload = await signed('/hooks/formed', 'other=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(noPayload.status).toBe(400);
  });
});

describe('event columns, read through sql_query on the next call', () => {
  const canonical = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : v && typeof v === 'object'
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`
        : JSON.stringify(v);
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('event_id, event_type and key from their paths; content_hash always; json_extract_scalar reads the payload', async () => {
    await rig.createSource('cols-paths', hmac, { split: '$', event_id_path: '$.id', event_type_path: '$.type', key_path: '$.customer.id' });
    const events = [
      { type: 'order.created', id: 'evt-1', customer: { id: 42 }, total: 9.5 },
      { type: 'order.paid', id: 'evt-2', customer: { id: 'c-7' }, total: 3 },
    ];
    expect((await signed('/hooks/cols-paths', JSON.stringify(events, null, 2))).json).toEqual({ accepted: 2 });
    const rows = await rig.query(
      `SELECT event_id, event_type, key, content_hash, json_extract_scalar(payload, '$.total') AS total, replica, dt, hour, minute FROM scratch.webhook_cols_paths ORDER BY event_id`,
    );
    expect(rows).toEqual([
      { event_id: 'evt-1', event_type: 'order.created', key: '42', content_hash: sha256(canonical(events[0])), total: '9.5', replica: expect.any(String), dt: '2026-03-02', hour: expect.any(String), minute: '00' },
      { event_id: 'evt-2', event_type: 'order.paid', key: 'c-7', content_hash: sha256(canonical(events[1])), total: '3', replica: expect.any(String), dt: '2026-03-02', hour: expect.any(String), minute: '00' },
    ]);
  });

  it('without event_id_path the event id is the SHA-256 of the canonical JSON; type and key are null', async () => {
    await rig.createSource('cols-hash', hmac);
    const event = { z: [3, { b: 2, a: 1 }], a: 'x' };
    expect((await signed('/hooks/cols-hash', JSON.stringify(event))).status).toBe(202);
    const rows = await rig.query(
      `SELECT event_id, event_type, key, content_hash, json_extract_scalar(payload, '$.a') AS a, CAST(received_at AS VARCHAR) AS received_at FROM scratch.webhook_cols_hash`,
    );
    const hash = sha256('{"a":"x","z":[3,{"a":1,"b":2}]}');
    // received_at is the injected clock's time of the request (DuckDB drops trailing zeros).
    const received = new Date(rig.clock.now).toISOString().replace('T', ' ').replace(/\.?0*Z$/, '');
    expect(rows).toEqual([{ event_id: hash, event_type: null, key: null, content_hash: hash, a: 'x', received_at: received }]);
  });
});

describe('metrics at /metrics', () => {
  it('counts webhook_requests_total for every outcome (unknown names with source=""), events, segments, the buffer gauge and ack seconds', async () => {
    const before = await rig.scrape();
    await rig.createSource('metered', hmac, { split: '$', max_body_bytes: 256, buffer_limit: 3, rate_limit_per_minute: 60, rate_limit_burst: 3 });
    expect((await signed('/hooks/metered', '[1, 2]')).status).toBe(202);
    expect((await unsigned('/hooks/metered', '[1]')).status).toBe(401);
    expect((await signed('/hooks/metered', JSON.stringify(['x'.repeat(300)]))).status).toBe(413);
    expect((await signed('/hooks/metered', '{}')).status).toBe(400);
    expect((await signed('/hooks/metered', '[1, 2, 3, 4]')).status).toBe(413);
    expect((await signed('/hooks/metered', '[1]')).status).toBe(429);
    expect((await signed('/hooks/no-such-source', '[1]')).status).toBe(404);
    const after = await rig.scrape();
    const delta = (name: string, labels: Record<string, string>) => series(after, name, labels) - series(before, name, labels);
    expect(delta('webhook_requests_total', { source: 'metered', outcome: 'accepted' })).toBe(1);
    expect(delta('webhook_requests_total', { source: 'metered', outcome: 'unauthorized' })).toBe(1);
    expect(delta('webhook_requests_total', { source: 'metered', outcome: 'too_large' })).toBe(2);
    expect(delta('webhook_requests_total', { source: 'metered', outcome: 'invalid_body' })).toBe(1);
    expect(delta('webhook_requests_total', { source: 'metered', outcome: 'rate_limited' })).toBe(1);
    expect(delta('webhook_requests_total', { source: '', outcome: 'unknown_source' })).toBe(1);
    expect(after).not.toContain('no-such-source');
    // buffer_full and write_failed: counted in the 503 tests above, on the same registry.
    expect(delta('webhook_events_total', { source: 'metered' })).toBe(2);
    expect(delta('webhook_segments_written_total', { source: 'metered' })).toBe(1);
    expect(after).toMatch(/^webhook_buffer_events\{source="metered"\} 0$/m);
    expect(delta('webhook_ack_seconds_count', { source: 'metered' })).toBe(1);
    expect(after).toMatch(/^webhook_ack_seconds_bucket\{le="0.005",source="metered"\} 1$/m);
  });
});

describe('rejections', () => {
  it('the admin list shows time, outcome and reason — never body bytes or secrets, and neither do the logs', async () => {
    const MARKER = 'BODY-MARKER-7f3a9c';
    const WRONG = 'WRONG-SECRET-d41d8c';
    await rig.createSource('rejecting', { mode: 'header_token', header: 'X-Token', secret: SECRET });
    await rig.createSource('rejecting-path', { mode: 'path_token', secret: 'Right-Path-Token' });
    const body = JSON.stringify({ note: MARKER });
    expect((await rig.hook('/hooks/rejecting', { headers: { 'content-type': 'application/json', 'x-token': WRONG }, body })).status).toBe(401);
    expect((await rig.hook('/hooks/rejecting', { headers: { 'content-type': 'text/plain', 'x-token': SECRET }, body })).status).toBe(400);
    expect((await rig.hook(`/hooks/rejecting-path/${WRONG}`, { headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await rig.hook('/hooks/rejecting-path/Right-Path-Token', { headers: { 'content-type': 'application/json' }, body })).status).toBe(202);
    // Rejections are recorded without holding up the answer.
    const list = await vi.waitFor(async () => {
      const answer = await rig.admin('GET', '/rejecting/rejections');
      expect(answer.json.rejections).toHaveLength(2);
      return answer;
    });
    // Both were refused at the same instant and recorded concurrently: their order is not fixed.
    const byOutcome = [...list.json.rejections].sort((a, b) => String(a.outcome).localeCompare(String(b.outcome)));
    expect(byOutcome).toEqual([
      { at: new Date(rig.clock.now).toISOString(), outcome: 'invalid_body', reason: expect.stringMatching(/content type/i) },
      { at: new Date(rig.clock.now).toISOString(), outcome: 'unauthorized', reason: 'token does not match' },
    ]);
    const pathList = await vi.waitFor(async () => {
      const answer = await rig.admin('GET', '/rejecting-path/rejections');
      expect(answer.json.rejections).toHaveLength(1);
      return answer;
    });
    expect(pathList.json.rejections[0]).toMatchObject({ outcome: 'unauthorized', reason: 'path token does not match' });
    const everything = [list.text, pathList.text, ...rig.logs].join('\n');
    for (const secret of [MARKER, WRONG, SECRET, 'Right-Path-Token']) expect(everything).not.toContain(secret);
    expect(rig.logs.length).toBeGreaterThan(0);
  });
});

describe('where /hooks/ is served', () => {
  it('webhooks.receiver.address set: /hooks/ is served on that listener and not on the api port', async () => {
    const separate = await startIngestRig({ receiver: ['enabled: true', 'address: "127.0.0.1:0"'] });
    try {
      expect(separate.api.hooksUrl).toBeDefined();
      expect(separate.hooksBase).not.toBe(separate.api.url);
      await separate.createSource('apart', hmac);
      const body = '{"apart":true}';
      const headers = { 'content-type': 'application/json', 'x-signature': sign(SECRET, body) };
      expect((await separate.hook('/hooks/apart', { headers, body })).json).toEqual({ accepted: 1 });
      const onApi = await separate.hook('/hooks/apart', { headers, body }, separate.api.url);
      expect(onApi.status).toBe(404);
      expect(onApi.json.message).toBe('no route for POST /hooks/apart');
      expect(await separate.segments('apart')).toHaveLength(1);
    } finally {
      await separate.stop();
    }
  });

  it('webhooks.receiver.enabled false: no /hooks/ route at all, while sources are still administered', async () => {
    const off = await startIngestRig({ receiver: ['enabled: false'] });
    try {
      expect(off.api.hooksUrl).toBeUndefined();
      await off.createSource('unserved', hmac);
      const body = '{"a":1}';
      const answer = await off.hook('/hooks/unserved', { headers: { 'content-type': 'application/json', 'x-signature': sign(SECRET, body) }, body });
      expect(answer.status).toBe(404);
      expect(answer.json.message).toBe('no route for POST /hooks/unserved');
      expect(await off.scrape()).not.toContain('webhook_requests_total{');
      expect(await off.segments('unserved')).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});
