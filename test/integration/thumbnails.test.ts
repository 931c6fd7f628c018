/**
 * Thumbnails (issue 19, Build 1; spec document 2, "Thumbnail" state table and "Thumbnail drawing
 * rules"): each row of the state table through the real hand-off (outbox → dispatcher → Temporal
 * → `drawThumbnail` on a worker with the thumbnail activities), the REST tile (headers, the
 * portal_preview audit without a last-read stamp) and Recapture (authority, 409 while drawing),
 * icon families and bounds, tiles deleted with their resource, a replayed history — on both
 * storage drivers — and one drawn fixture per family compared with its reference image.
 *
 * The REST fixture's service has no dispatcher, so a write's jobs wait in the outbox until the
 * test sweeps: the states between a write and its draw (none, stale, drawing) are observed
 * without racing the worker. Draws are awaited through the Temporal client, never by sleeping.
 */
import { Worker } from '@temporalio/worker';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { drawTile, MAX_INPUT_PIXELS, ResourceJobDispatcher, resourceActor, type Library, type ResourceActor } from '../../shared/resources/index.js';
import { thumbnailWorkflowId } from '../../shared/resources/jobs/index.js';
import { createPlatformWorker, temporalJobStarter, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import type { DrawThumbnailResult } from '../../workflows/thumbnails.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { as, root, salesAdmin, salesMember, startResourceRestApi, type ResourceRestApi, type Who } from './resources-rest-fixtures.js';
import { differenceFromReference, familyFiles } from './thumbnail-fixtures.js';

const MB = 1024 * 1024;
/** Largest mean channel difference (of 255) from the reference: font hinting and encoders may move a little. */
const TOLERANCE = 3;
const sales: Library = { kind: 'persona', name: 'sales' };

let temporal: TestTemporal;
let handle: TemporalHandle;

beforeAll(async () => {
  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await temporal?.stop();
});

/** The REST api, a worker drawing thumbnails on its own queue, and a dispatcher the test sweeps. */
async function startThumbnailEnv(driver: 'filesystem' | 's3', queue: string) {
  const api = await startResourceRestApi({ driver, maxUploadBytes: 40 * MB });
  const log = silentLogger();
  const config = { ...api.config, temporal: { ...api.config.temporal, address: temporal.address, namespace: temporal.namespace, task_queue: queue } };
  const worker = await createPlatformWorker({ config, db: api.db, temporal: handle, log, thumbnails: { config: api.config, db: api.db, objstore: api.connections, log } });
  const running = worker.run();
  const dispatcher = new ResourceJobDispatcher({ db: api.db, starter: temporalJobStarter(handle.client), platformQueue: queue, log });
  return { api, worker, running, dispatcher };
}

/**
 * Starts the thumbnail jobs waiting in the outbox. The index jobs beside them are dropped: indexing
 * (issue 18) is not what these tests are about, and this worker does not run it.
 */
async function sweepThumbnails(env: { api: ResourceRestApi; dispatcher: ResourceJobDispatcher }): Promise<void> {
  await env.api.db.query(`DELETE FROM resource_jobs WHERE kind <> 'thumbnail'`);
  await env.dispatcher.sweep();
}

async function stopThumbnailEnv(env: { api: ResourceRestApi; worker: PlatformWorker; running: Promise<void>; dispatcher: ResourceJobDispatcher } | undefined) {
  if (!env) return;
  await env.dispatcher.close();
  await env.worker.shutdown();
  await env.running.catch(() => undefined);
  await env.api.close();
}

function actorOf(api: ResourceRestApi, who: Who): ResourceActor {
  const caller: CallerContext = { subject: who.subject, roles: who.roles, authType: 'apikey' };
  return resourceActor(caller, { config: api.config, origin: 'person' });
}

async function tileSize(bytes: Buffer): Promise<{ width?: number; height?: number; format?: string }> {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

describe.each(['filesystem', 's3'] as const)('thumbnails: the state table, the tile route and Recapture (%s)', (driver) => {
  let env: Awaited<ReturnType<typeof startThumbnailEnv>>;
  let png: Buffer;

  beforeAll(async () => {
    env = await startThumbnailEnv(driver, `thumbnails-${driver}`);
    png = (await familyFiles()).find((f) => f.name === 'png')!.bytes;
  }, 120_000);

  afterAll(() => stopThumbnailEnv(env));

  async function upload(who: Who, library: Library, fileName: string, contentType: string, bytes: Buffer) {
    const made = await env.api.service.create(actorOf(env.api, who), {
      library,
      path: 'thumbs',
      file_name: fileName,
      content_type: contentType,
      if_exists: 'fail',
      origin: 'portal',
      body: (await import('node:stream')).Readable.from([bytes]),
    });
    return made.resource;
  }

  /** Starts what waits in the outbox and awaits that version's draw. */
  async function drawn(id: string, version: number, recapture = 0): Promise<DrawThumbnailResult> {
    await sweepThumbnails(env);
    return handle.client.workflow.getHandle(thumbnailWorkflowId(id, version, recapture)).result();
  }

  async function rest(who: Who, method: string, path: string): Promise<Response> {
    return fetch(`${env.api.url}${path}`, { method, headers: as(who) });
  }

  async function thumbnail(id: string, who: Who = root) {
    const res = await rest(who, 'GET', `/api/v1/resources/${id}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { thumbnail: Record<string, unknown> }).thumbnail;
  }

  async function tile(id: string, variant = 'light', who: Who = root) {
    const res = await rest(who, 'GET', `/api/v1/resources/${id}/thumbnail?variant=${variant}`);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  async function tileKeys(id: string): Promise<string[]> {
    return (await env.api.storedObjects()).filter((k) => k.startsWith(`${id}/thumbnails/`));
  }

  it('none → drawing → drawn: a new PNG is drawn, stored beside the resource object, with the moment of its file', async () => {
    const file = await upload(root, sales, 'new.png', 'image/png', png);
    expect(await thumbnail(file.id)).toEqual({ state: 'none', variants: [] });
    expect(await drawn(file.id, 1)).toEqual({ outcome: 'drawn' });
    expect(await thumbnail(file.id)).toMatchObject({ state: 'drawn', variants: ['image'], drawn_from: { version: 1, at: file.created_at } });
    expect(await tileKeys(file.id)).toEqual([`${file.id}/thumbnails/v1-image.png`]);
    const { res, bytes } = await tile(file.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await tileSize(bytes)).toEqual({ width: 800, height: 600, format: 'png' });
  });

  it('a tile read is audited under the portal_preview surface and never stamps last read', async () => {
    const file = await upload(root, sales, 'audited.png', 'image/png', png);
    await drawn(file.id, 1);
    expect((await tile(file.id, 'light', salesMember)).res.status).toBe(200);
    const audit = await env.api.db.query<{ tool: string; subject: string }>(`SELECT tool, subject FROM audit_log WHERE resource_id = $1`, [file.id]);
    expect(audit.rows).toEqual([{ tool: 'portal_preview', subject: salesMember.subject }]);
    const stamped = await env.api.db.query<{ last_read_at: Date | null }>(`SELECT last_read_at FROM resources WHERE id = $1`, [file.id]);
    expect(stamped.rows[0]!.last_read_at).toBeNull();
    // Unreadable to the caller: not found, nothing audited.
    expect((await tile(file.id, 'light', { subject: 'eve', roles: [] })).res.status).toBe(404);
  });

  it('drawing → failed (variant named): the reason is recorded and the draw is not retried automatically', async () => {
    const file = await upload(root, sales, 'broken.png', 'image/png', Buffer.from('not a png at all'));
    expect(await drawn(file.id, 1)).toEqual({ outcome: 'failed' });
    const state = await thumbnail(file.id);
    expect(state).toMatchObject({ state: 'failed', variants: [], failure: { variant: 'image' } });
    expect(String((state['failure'] as { reason: string }).reason)).not.toBe('');
    // One draw attempt: a file that cannot be drawn is an answer, not a retried error; no job waits.
    const history = await handle.client.workflow.getHandle(thumbnailWorkflowId(file.id, 1)).fetchHistory();
    const starts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes);
    expect(starts.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([1, 1, 1]);
    expect((await env.api.db.query(`SELECT 1 FROM resource_jobs WHERE resource_id = $1`, [file.id])).rowCount).toBe(0);
    expect((await tile(file.id)).res.status).toBe(404);
  });

  it('failed → content replaced → drawing, and drawn (retried with the new file)', async () => {
    const file = await upload(root, sales, 'fixed.png', 'image/png', Buffer.from('garbage'));
    await drawn(file.id, 1);
    const who = actorOf(env.api, root);
    await env.api.service.replaceContent(who, file.id, { body: (await import('node:stream')).Readable.from([png]), origin: 'portal' });
    expect(await thumbnail(file.id)).toMatchObject({ state: 'drawing', variants: [] });
    expect(await drawn(file.id, 2)).toEqual({ outcome: 'drawn' });
    expect(await thumbnail(file.id)).toMatchObject({ state: 'drawn', drawn_from: { version: 2 } });
  });

  it('drawn → content replaced → stale: the old tile keeps showing until the new one lands; a details edit draws nothing', async () => {
    const file = await upload(root, sales, 'replaced.png', 'image/png', png);
    await drawn(file.id, 1);
    const old = (await tile(file.id)).bytes;
    const who = actorOf(env.api, root);
    await env.api.service.update(who, file.id, { description: 'metadata only' });
    expect((await env.api.db.query(`SELECT workflow_id FROM resource_jobs WHERE kind = 'thumbnail' AND resource_id = $1`, [file.id])).rowCount).toBe(0);
    const inverted = await sharp(png).negate({ alpha: false }).png().toBuffer();
    await env.api.service.replaceContent(who, file.id, { body: (await import('node:stream')).Readable.from([inverted]), origin: 'portal' });
    expect(await thumbnail(file.id)).toMatchObject({ state: 'stale', variants: ['image'], drawn_from: { version: 1 } });
    expect((await tile(file.id)).bytes.equals(old)).toBe(true);
    expect(await drawn(file.id, 2)).toEqual({ outcome: 'drawn' });
    expect(await thumbnail(file.id)).toMatchObject({ state: 'drawn', drawn_from: { version: 2 } });
    expect((await tile(file.id)).bytes.equals(old)).toBe(false);
    // The older tile's object went once the new one landed.
    expect(await tileKeys(file.id)).toEqual([`${file.id}/thumbnails/v2-image.png`]);
  });

  it('drawn or failed → Recapture: whoever may change the file or add to its library; both variants discarded; refused while drawing', async () => {
    const doc = await upload(salesAdmin, sales, 'notes.md', 'text/markdown', Buffer.from('# Notes\n\nfirst draft\n'));
    await drawn(doc.id, 1);
    expect(await tileKeys(doc.id)).toEqual([`${doc.id}/thumbnails/v1-dark.png`, `${doc.id}/thumbnails/v1-light.png`]);
    // A member who may read but neither change the file nor add to the library.
    expect((await rest(salesMember, 'POST', `/api/v1/resources/${doc.id}/thumbnail/recapture`)).status).toBe(403);
    // Not readable at all: not found.
    expect((await rest({ subject: 'eve', roles: [] }, 'POST', `/api/v1/resources/${doc.id}/thumbnail/recapture`)).status).toBe(404);
    // Another administrator of the persona: may add to the library (not the uploader).
    const other: Who = { subject: 'sid', roles: ['sales', 'persona-admin:sales'] };
    const res = await rest(other, 'POST', `/api/v1/resources/${doc.id}/thumbnail/recapture`);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ state: 'drawing', variants: [] });
    expect(await tileKeys(doc.id)).toEqual([]);
    expect((await tile(doc.id)).res.status).toBe(404);
    const again = await rest(root, 'POST', `/api/v1/resources/${doc.id}/thumbnail/recapture`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('conflict');
    expect(await drawn(doc.id, 1, 1)).toEqual({ outcome: 'drawn' });
    expect(await thumbnail(doc.id)).toMatchObject({ state: 'drawn', variants: ['light', 'dark'] });
    expect(await tileKeys(doc.id)).toEqual([`${doc.id}/thumbnails/v1-r1-dark.png`, `${doc.id}/thumbnails/v1-r1-light.png`]);
    // The uploader, no longer an administrator of the persona, may still change the file: Try again allowed.
    const formerAdmin: Who = { subject: salesAdmin.subject, roles: ['sales'] };
    expect((await rest(formerAdmin, 'POST', `/api/v1/resources/${doc.id}/thumbnail/recapture`)).status).toBe(202);
    expect(await drawn(doc.id, 1, 2)).toEqual({ outcome: 'drawn' });
    // Try again after a failure.
    const broken = await upload(root, sales, 'again.png', 'image/png', Buffer.from('broken'));
    await drawn(broken.id, 1);
    expect((await rest(root, 'POST', `/api/v1/resources/${broken.id}/thumbnail/recapture`)).status).toBe(202);
    expect(await drawn(broken.id, 1, 1)).toEqual({ outcome: 'failed' });
  });

  it('icon families and bounds: office files, archives, audio, video, TIFF and anything over its bound draw nothing', async () => {
    const icons: [string, string, Buffer][] = [
      ['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', Buffer.from('PK\u0003\u0004doc')],
      ['bundle.zip', 'application/zip', Buffer.from('PK\u0003\u0004zip')],
      ['song.mp3', 'audio/mpeg', Buffer.from('ID3')],
      ['clip.mp4', 'video/mp4', Buffer.from('ftyp')],
      ['scan.tiff', 'image/tiff', await sharp(png).tiff().toBuffer()],
      ['big.json', 'application/json', Buffer.alloc(MB + 1, 0x20)],
    ];
    for (const [name, type, bytes] of icons) {
      const file = await upload(root, sales, name, type, bytes);
      expect([name, await drawn(file.id, 1)]).toEqual([name, { outcome: 'skipped', why: 'icon' }]);
      expect([name, (await thumbnail(file.id))['state']]).toEqual([name, 'icon']);
      expect(await tileKeys(file.id)).toEqual([]);
    }
    // A CSV is bounded at 32 MB, not 1 MB: 2 MB of it is drawn (its header and ten records).
    const csv = await upload(root, sales, 'large.csv', 'text/csv', Buffer.from(`a,b\n${'1,2\n'.repeat((2 * MB) / 4)}`));
    expect(await drawn(csv.id, 1)).toEqual({ outcome: 'drawn' });
  });

  it('tiles are deleted with the resource and its versions', async () => {
    const file = await upload(root, sales, 'deleted.png', 'image/png', png);
    await drawn(file.id, 1);
    expect(await tileKeys(file.id)).toHaveLength(1);
    await env.api.service.delete(actorOf(env.api, root), file.id, { force: false });
    expect((await env.api.storedObjects()).filter((k) => k.startsWith(`${file.id}/`))).toEqual([]);
    expect((await env.api.db.query(`SELECT 1 FROM resource_thumbnails WHERE resource_id = $1`, [file.id])).rowCount).toBe(0);
  });

  it('the history of drawThumbnail replays', async () => {
    const file = await upload(root, sales, 'replay.png', 'image/png', png);
    await drawn(file.id, 1);
    const workflowId = thumbnailWorkflowId(file.id, 1);
    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  });
});

describe('thumbnails: one drawn fixture per family', () => {
  let env: Awaited<ReturnType<typeof startThumbnailEnv>>;

  beforeAll(async () => {
    env = await startThumbnailEnv('filesystem', 'thumbnails-families');
  }, 120_000);

  afterAll(() => stopThumbnailEnv(env));

  it('documents in light and dark, images as one: 800x600 PNGs matching their references', async () => {
    const who = actorOf(env.api, root);
    const files = await familyFiles();
    const made = [];
    for (const f of files) {
      const { Readable } = await import('node:stream');
      const r = await env.api.service.create(who, { library: sales, path: 'families', file_name: f.fileName, content_type: f.contentType, if_exists: 'fail', origin: 'portal', body: Readable.from([f.bytes]) });
      made.push({ f, id: r.resource.id });
    }
    await sweepThumbnails(env);
    for (const { f, id } of made) {
      expect([f.name, await handle.client.workflow.getHandle(thumbnailWorkflowId(id, 1)).result()]).toEqual([f.name, { outcome: 'drawn' }]);
      const state = await env.api.service.thumbnails.state(who, id);
      const variants = f.name === 'svg' || f.name === 'pdf' || ['png', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico'].includes(f.name) ? ['image'] : ['light', 'dark'];
      expect([f.name, state.variants]).toEqual([f.name, variants]);
      for (const variant of variants) {
        const res = await fetch(`${env.api.url}/api/v1/resources/${id}/thumbnail?variant=${variant === 'image' ? 'light' : variant}`, { headers: as(root) });
        expect([f.name, res.status]).toEqual([f.name, 200]);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect([f.name, await tileSize(bytes)]).toEqual([f.name, { width: 800, height: 600, format: 'png' }]);
        const name = variant === 'image' ? f.name : `${f.name}-${variant}`;
        expect([name, await differenceFromReference(name, bytes)]).toEqual([name, expect.any(Number)]);
        expect(await differenceFromReference(name, bytes)).toBeLessThanOrEqual(TOLERANCE);
      }
    }
  }, 180_000);

  it('a decompression bomb is refused by the pixel limit, naming the variant', async () => {
    // 10000x6000 of one colour: a small file claiming more pixels than MAX_INPUT_PIXELS.
    const bomb = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(MB);
    expect(10_000 * 6_000).toBeGreaterThan(MAX_INPUT_PIXELS);
    await expect(drawTile('raster', bomb, 'test')).rejects.toMatchObject({ name: 'ThumbnailDrawError', variant: 'image', message: expect.stringMatching(/pixel/i) });
  });
});
