/**
 * Issue 9, item 5: "The executable refusal cannot be dodged" — by a trailing dot or space, an NTFS
 * stream suffix, a bidirectional-override character in the name, a PE header whose `e_lfanew`
 * lies beyond the sniffed window, or the script and installer types missing before. Every variant
 * is refused through REST (upload, replace, move) and manage_resource (create, replace_content),
 * and nothing is stored: no row, no version, no object — on both storage drivers (a sniffed
 * refusal stops bytes already streaming into the store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, send, startResourceRestApi, type ResourceRestApi } from '../integration/resources-rest-fixtures.js';
import type { Driver } from '../integration/objstore-fixtures.js';
import { call, expectRefused, fileForm, manageResource, unchangedBy, upload } from './resources-fixtures.js';

/** An `MZ` file whose PE signature sits at `at` (its `e_lfanew`), `size` bytes in all. */
function peAt(at: number, size = at + 1024): Buffer {
  const b = Buffer.alloc(size, 0x20);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(at, 0x3c);
  if (at + 4 <= size) b.write('PE\0\0', at, 'latin1');
  return b;
}

describe.each<Driver>(['filesystem', 's3'])('issue 9 item 5: the executable refusal cannot be dodged (%s driver)', (driver) => {
  let api: ResourceRestApi;
  let tool: ReturnType<typeof manageResource>;

  beforeAll(async () => {
    api = await startResourceRestApi({ driver, maxUploadBytes: 4 * 1024 * 1024 });
    tool = manageResource(api);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const refusedUpload = async (name: string, data: Buffer | string = 'x', type = 'application/octet-stream') =>
    unchangedBy(api, () => upload(api, alice, fileForm({ path: 'exe', name, data, type })));

  it('by a trailing dot or space, or an NTFS stream suffix', async () => {
    for (const name of ['x.exe.', 'x.exe..', 'x.exe ', 'X.ExE. .', 'x.exe::$DATA', 'x.exe:stream', 'x.exe.:Zone.Identifier', 'notes.txt:payload.exe', 'run.ps1::$DATA']) {
      expectRefused(await refusedUpload(name), 415, 'unsupported', /executables are refused/);
    }
  });

  it('by a bidirectional control in the name: refused outright', async () => {
    for (const name of ['notes\u202egnp.txt', 'invoice\u2067fdp.txt', 'a\u200fb.md', 'a\u061cb.md']) {
      expectRefused(await refusedUpload(name), 400, 'invalid', /bidirectional control/);
    }
    expectRefused(await refusedUpload('invoice\u202efdp.exe'), 415, 'unsupported');
  });

  it('by the script, installer, shortcut, help, add-in, disk-image and macro types', async () => {
    const exts = ['js', 'jse', 'wsf', 'msc', 'scf', 'url', 'chm', 'xll', 'iso', 'img', 'docm', 'xlsm', 'pptm',
      'vbe', 'wsh', 'sct', 'ps1xml', 'appref-ms', 'settingcontent-ms', 'library-ms', 'vhdx', 'msix', 'dotm', 'ppam', 'inf', 'reg', 'lnk'];
    for (const ext of exts) expectRefused(await refusedUpload(`file.${ext}`), 415, 'unsupported', new RegExp(`\\.${ext}`));
  });

  it('by declaring a macro-enabled or disk-image type on an innocent name', async () => {
    expectRefused(await refusedUpload('book.xlsx', 'x', 'application/vnd.ms-excel.sheet.macroEnabled.12'), 415, 'unsupported', /executable type/);
    expectRefused(await refusedUpload('disk.bin', 'x', 'application/x-iso9660-image'), 415, 'unsupported', /executable type/);
  });

  it('by a PE header beyond the sniffed window: followed through the stream, nothing stored', async () => {
    for (const at of [4096, 65_536, 2 * 1024 * 1024]) {
      expectRefused(await refusedUpload(`payload-${at}.bin`, peAt(at)), 415, 'unsupported', /Windows executable \(PE\)/);
    }
  });

  it('by a tiny PE whose header overlaps the DOS header', async () => {
    const tiny = Buffer.alloc(512);
    tiny.write('MZ\0\0PE\0\0', 0, 'latin1');
    tiny.writeUInt32LE(4, 0x3c);
    expectRefused(await refusedUpload('tiny.dat', tiny), 415, 'unsupported', /PE/);
  });

  it('still accepts MZ text and macro-free documents', async () => {
    const text = await upload(api, alice, fileForm({ path: 'exe', name: 'countries.csv', data: 'MZ,Mozambique\nZA,South Africa\n'.repeat(500), type: 'text/csv' }));
    expect(text.status, JSON.stringify(text.json)).toBe(201);
    const beyondEnd = await upload(api, alice, fileForm({ path: 'exe', name: 'short.bin', data: peAt(100_000, 8_000) }));
    expect(beyondEnd.status, JSON.stringify(beyondEnd.json)).toBe(201);
    const docx = await upload(api, alice, fileForm({ path: 'exe', name: 'report.docx', data: 'PK', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }));
    expect(docx.status, JSON.stringify(docx.json)).toBe(201);
  });

  it('on replace: a PE beyond the window, raw or in a form, writes no version', async () => {
    const made = await upload(api, alice, fileForm({ path: 'exe', name: 'replace-me.bin', data: 'v1' }));
    expect(made.status).toBe(201);
    const raw = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${made.json.id}/content`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'application/octet-stream' }, body: peAt(300_000) }),
    );
    expectRefused(raw, 415, 'unsupported', /PE/);
  });

  it('on move: a legacy file whose name is now refused is not re-filed', async () => {
    const made = await upload(api, alice, fileForm({ path: 'exe', name: 'legacy-tool.txt', data: 'WScript.Echo(1)' }));
    expect(made.status).toBe(201);
    // As a file uploaded before .js was refused would be.
    await api.db.query(`UPDATE resources SET file_name = 'legacy-tool.js' WHERE id = $1`, [made.json.id]);
    const moved = await unchangedBy(api, () => call(api, alice, 'PATCH', `/api/v1/resources/${made.json.id}`, { path: 'elsewhere' }));
    expectRefused(moved, 415, 'unsupported', /\.js/);
    const replaced = await unchangedBy(api, () =>
      send(`${api.url}/api/v1/resources/${made.json.id}/content`, { method: 'PUT', headers: { ...as(alice), 'content-type': 'text/plain' }, body: 'v2' }),
    );
    expectRefused(replaced, 415, 'unsupported', /\.js/);
    // Details may still be edited in place; the file can be read and deleted.
    expect((await call(api, alice, 'PATCH', `/api/v1/resources/${made.json.id}`, { description: 'old' })).status).toBe(200);
    expect((await call(api, alice, 'DELETE', `/api/v1/resources/${made.json.id}`)).status).toBe(204);
  });

  it('through manage_resource: create and replace_content refuse the same variants', async () => {
    for (const filename of ['x.exe.', 'x.exe::$DATA', 'run.js', 'macro.xlsm']) {
      const answer = await unchangedBy(api, () => tool(alice, { action: 'create', path: 'agent', filename, content: 'x' }));
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.body.error, answer.text).toBe('unsupported');
    }
    const bidi = await unchangedBy(api, () => tool(alice, { action: 'create', path: 'agent', filename: 'a\u202eb.txt', content: 'x' }));
    expect(bidi.body.error, bidi.text).toBe('invalid');
    const pe = await unchangedBy(api, () => tool(alice, { action: 'create', path: 'agent', filename: 'data.bin', content_base64: peAt(70_000).toString('base64') }));
    expect(pe.body.error, pe.text).toBe('unsupported');
    const made = await tool(alice, { action: 'create', path: 'agent', filename: 'ok.bin', content: 'v1' });
    expect(made.isError, made.text).toBe(false);
    const replaced = await unchangedBy(api, () =>
      tool(alice, { action: 'replace_content', reference: made.body.resource.reference, content_base64: peAt(70_000).toString('base64') }),
    );
    expect(replaced.body.error, replaced.text).toBe('unsupported');
  });
});
