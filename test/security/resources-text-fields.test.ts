/**
 * Issue 9, item 5: "A NUL or other disallowed control character in any text field (display name,
 * description, tags, folder description, change summary, upload fields, content type) answers 400
 * `invalid`, never 500" — and nothing is stored: no row, no version, no folder, no event, no
 * object. Through REST over real Postgres, and through manage_resource (an `isError` result with
 * error `invalid`). The refusals come before any byte is stored, so one storage driver
 * (filesystem) serves; the executable and download suites run on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, multipart, root, send, startResourceRestApi, type ResourceRestApi } from '../integration/resources-rest-fixtures.js';
import { call, expectRefused, fileForm, manageResource, snapshot, unchangedBy, upload } from './resources-fixtures.js';

let api: ResourceRestApi;
let tool: ReturnType<typeof manageResource>;
/** A file of alice's the edits aim at. */
let base: { id: string; uri: string };

beforeAll(async () => {
  api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024 });
  tool = manageResource(api);
  const made = await upload(api, alice, fileForm({ path: 'notes', name: 'base.txt', data: 'base', fields: { description: 'the base' } }));
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  base = { id: made.json.id, uri: made.json.uri };
}, 120_000);
afterAll(async () => {
  await api?.close();
});

const NUL = '\u0000';

describe('issue 9 item 5: NUL in each upload field answers 400 invalid and stores nothing', () => {
  const fields: Record<string, string> = {
    display_name: `Quarterly${NUL}report`,
    description: `first line${NUL}`,
    tags: `fin${NUL}ance`,
    change_summary: `initial${NUL}`,
    search_setting: `default${NUL}`,
    if_exists: `fail${NUL}`,
    library: `persona:sa${NUL}les`,
  };
  for (const [field, value] of Object.entries(fields)) {
    it(`form field ${field}`, async () => {
      const res = await unchangedBy(api, () => upload(api, alice, fileForm({ path: 'notes', name: `fresh-${field}.txt`, data: 'x', fields: { [field]: value } })));
      expectRefused(res, 400, 'invalid');
    });
  }
  it('form field path (the folder rule)', async () => {
    const res = await unchangedBy(api, () => upload(api, alice, fileForm({ path: `no${NUL}tes`, name: 'fresh-path.txt', data: 'x' })));
    expectRefused(res, 400, 'invalid', /folder name/);
  });
  it('the file name', async () => {
    const res = await unchangedBy(api, () => upload(api, alice, fileForm({ path: 'notes', name: `fresh${NUL}.txt`, data: 'x' })));
    expectRefused(res, 400, 'invalid', /file name must not contain control characters \(U\+0000/);
  });
  it('the file part\'s content type', async () => {
    const res = await unchangedBy(api, () => upload(api, alice, fileForm({ path: 'notes', name: 'fresh-type.txt', data: 'x', type: `text/plain${NUL}` })));
    expectRefused(res, 400, 'invalid', /content type must not contain control characters/);
  });
  it('a change summary on a revision (if_exists=replace) writes no version', async () => {
    const res = await unchangedBy(api, () =>
      upload(api, alice, fileForm({ path: 'notes', name: 'base.txt', data: 'v2', fields: { if_exists: 'replace', change_summary: `second${NUL}` } })),
    );
    expectRefused(res, 400, 'invalid', /change.summary/);
  });
});

describe('issue 9 item 5: NUL in edits, folders and replacements answers 400 invalid and changes nothing', () => {
  for (const [field, value] of [
    ['display_name', `Base${NUL}`],
    ['description', `described${NUL}`],
    ['tags', ['ok', `t${NUL}`]],
  ] as const) {
    it(`PATCH ${field}`, async () => {
      expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { [field]: value })), 400, 'invalid');
    });
  }
  it('PATCH a move to a folder or library holding NUL', async () => {
    expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { path: `arch${NUL}ive` })), 400, 'invalid');
    expectRefused(await unchangedBy(api, () => call(api, root, 'PATCH', `/api/v1/resources/${base.id}`, { library: `person:bo${NUL}b` })), 400, 'invalid');
  });
  it('PUT a folder description', async () => {
    const res = await unchangedBy(api, () => call(api, alice, 'PUT', '/api/v1/resources/folders/description', { library: 'personal', path: 'notes', description: `d${NUL}` }));
    expectRefused(res, 400, 'invalid', /description/);
  });
  it('POST and DELETE a folder whose path or library holds NUL', async () => {
    expectRefused(await unchangedBy(api, () => call(api, alice, 'POST', '/api/v1/resources/folders', { library: 'personal', path: `ne${NUL}w` })), 400, 'invalid');
    expectRefused(await unchangedBy(api, () => call(api, root, 'POST', '/api/v1/resources/folders', { library: `person:x${NUL}`, path: 'new' })), 400, 'invalid');
    expectRefused(await unchangedBy(api, () => call(api, root, 'DELETE', '/api/v1/resources/folders', { library: `person:x${NUL}`, path: 'new' })), 400, 'invalid');
  });
  it('PUT content: change_summary in the query, the raw body\'s type, a form\'s change_summary', async () => {
    const raw = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${base.id}/content?change_summary=v%00`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/plain' }, body: 'v2' }),
    );
    expectRefused(raw, 400, 'invalid', /change.summary/);
    // A header cannot carry NUL (HTTP refuses it); a C1 control arrives as a latin1 byte.
    const typed = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${base.id}/content`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/plain\x85' }, body: 'v2' }),
    );
    expectRefused(typed, 400, 'invalid', /content type must not contain control characters \(U\+0085/);
    const form = multipart([
      { name: 'change_summary', value: `v${NUL}` },
      { name: 'file', filename: 'x.txt', type: 'text/plain', data: 'v2' },
    ]);
    const formed = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${base.id}/content`, { method: 'PUT', headers: { ...as(alice), 'content-type': form.contentType }, body: form.body }),
    );
    expectRefused(formed, 400, 'invalid', /change.summary/);
  });
  it('listing a library or with a cursor that holds NUL, or a forged cursor', async () => {
    expectRefused(await call(api, root, 'GET', '/api/v1/resources?path=person:x%00'), 400, 'invalid');
    const forged = Buffer.from(JSON.stringify(['size', 'person:alice/notes', 0, 'abc', base.id])).toString('base64url');
    expectRefused(await call(api, alice, 'GET', `/api/v1/resources?path=person:alice/notes&sort=size&cursor=${forged}`), 400, 'invalid', /cursor/);
    const nul = Buffer.from(JSON.stringify(['name', 'person:alice/notes', 0, `a${NUL}`, base.id])).toString('base64url');
    expectRefused(await call(api, alice, 'GET', `/api/v1/resources?path=person:alice/notes&cursor=${nul}`), 400, 'invalid', /cursor/);
  });
});

describe('issue 9 item 5: the other disallowed characters', () => {
  const controls: Record<string, string> = { SOH: '\u0001', ESC: '\u001b', DEL: '\u007f', NEL: '\u0085', 'C1 CSI': '\u009b' };
  for (const [label, ch] of Object.entries(controls)) {
    it(`${label} in a display name, description and tag`, async () => {
      for (const body of [{ display_name: `a${ch}b` }, { description: `a${ch}b` }, { tags: [`a${ch}b`] }]) {
        expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, body)), 400, 'invalid', /control characters/);
      }
    });
  }
  it('bidirectional controls in a file name, display name or tag (names), never in prose', async () => {
    for (const ch of ['\u202e', '\u2066', '\u200f', '\u061c']) {
      const named = await unchangedBy(api, () => upload(api, alice, fileForm({ path: 'notes', name: `photo${ch}gnp.txt`, data: 'x' })));
      expectRefused(named, 400, 'invalid', /bidirectional/);
      expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { display_name: `a${ch}b` })), 400, 'invalid', /bidirectional/);
      expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { tags: [`a${ch}b`] })), 400, 'invalid', /bidirectional/);
    }
  });
  it('a tab or line break in a name', async () => {
    expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { display_name: 'a\nb' })), 400, 'invalid');
    expectRefused(await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { tags: ['a\tb'] })), 400, 'invalid');
  });
  it('an unpaired surrogate', async () => {
    const body = '{"description":"a\\ud800b"}';
    const res = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${base.id}`, { method: 'PATCH', headers: { ...as(alice), 'content-type': 'application/json' }, body }),
    );
    expectRefused(res, 400, 'invalid', /unpaired surrogate/);
  });
  it('keeps tabs, CR LF and bidi marks in prose exactly', async () => {
    const description = 'line one\r\n\tline two \u200fשלום\u200e';
    const res = await call(api, alice, 'PATCH', `/api/v1/resources/${base.id}`, { description });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.description).toBe(description);
    expect((await call(api, alice, 'GET', `/api/v1/resources/${base.id}`)).json.description).toBe(description);
  });
});

describe('issue 9 item 5: manage_resource refuses the same values with an isError result (error invalid)', () => {
  const create = (extra: Record<string, unknown>) => ({ action: 'create', path: 'agent', filename: 'made.md', content: '# x', ...extra });
  const cases: Record<string, Record<string, unknown>> = {
    'create: filename': create({ filename: `ma${NUL}de.md` }),
    'create: display_name': create({ display_name: `d${NUL}` }),
    'create: description': create({ description: `d${NUL}` }),
    'create: tags': create({ tags: [`t${NUL}`] }),
    'create: content_type': create({ content_type: `text/markdown${NUL}` }),
    'create: change_summary': create({ change_summary: `c${NUL}` }),
    'create: library': create({ library: `persona:a${NUL}` }),
    'update: folder description': { action: 'update', path: 'notes', description: `d${NUL}` },
    'read: an address holding NUL': { action: 'read', reference: 'mcp://user/alice/notes/%00.txt' },
  };
  for (const [label, args] of Object.entries(cases)) {
    it(label, async () => {
      const answer = await unchangedBy(api, () => tool(alice, args));
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.body.error, answer.text).toBe('invalid');
    });
  }
  it('update and replace_content of an existing file', async () => {
    for (const args of [
      { action: 'update', reference: `mcp:resource:${base.id}`, description: `d${NUL}` },
      { action: 'update', reference: `mcp:resource:${base.id}`, tags: [`t${NUL}`] },
      { action: 'update', reference: `mcp:resource:${base.id}`, display_name: `\u202ed` },
      { action: 'replace_content', reference: `mcp:resource:${base.id}`, content: 'v2', change_summary: `c${NUL}` },
      { action: 'replace_content', reference: `mcp:resource:${base.id}`, content: 'v2', content_type: 'text/plain\u0085' },
    ]) {
      const answer = await unchangedBy(api, () => tool(alice, args));
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.body.error, answer.text).toBe('invalid');
    }
  });
  it('nothing was ever stored by a refusal: only the base file exists', async () => {
    const state = await snapshot(api);
    expect(state.resources).toHaveLength(1);
    expect(state.objects).toHaveLength(1);
  });
});
