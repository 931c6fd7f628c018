/**
 * Benchmark (a script, not a test) of thumbnails (issue 19): printed, never asserted.
 *   - tiles per second per family: `drawTile` in this process, one file per family (the test
 *     fixtures, plus a 1 MB PNG of noise and a 20-page PDF), light and dark counting as one tile;
 *   - time from upload to drawn, p50/p99: a write through the resources service whose dispatcher
 *     starts `drawThumbnail` at once, on a real Temporal dev server and a worker with the thumbnail
 *     activities, Postgres and the filesystem store, awaited through the Temporal client. Goal
 *     "within seconds": p99 ≤ 3 s for a 1 MB PNG or a 20-page PDF.
 *
 *   npm run bench:thumbnails
 *   BENCH_SECONDS=2 (per family)  BENCH_UPLOADS=20 (per kind of upload)
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { silentLogger } from '../../shared/logging/index.js';
import { drawTile, ResourceJobDispatcher, thumbnailFamily, type DrawableFamily, type JobStarter } from '../../shared/resources/index.js';
import { thumbnailWorkflowId } from '../../shared/resources/jobs/index.js';
import { connectTemporal } from '../../shared/temporal/index.js';
import { createPlatformWorker, temporalJobStarter } from '../../worker/index.js';
import { familyFiles, type FamilyFile } from '../integration/thumbnail-fixtures.js';
import { person, personLib, startResourceEnv } from '../integration/resources-core-fixtures.js';
import { simplePdf } from '../support/pdf.js';
import { startTestTemporal } from '../support/temporal.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const uploads = Number(process.env.BENCH_UPLOADS ?? 20);

/** A PNG of random pixels just under 1 MB: incompressible, so the file is as large as the bound allows. */
async function noisePng(): Promise<Buffer> {
  for (let side = 580; ; side -= 10) {
    const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 9 }).toBuffer();
    if (png.length <= 1024 * 1024) return png;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function tilesPerSecond(files: FamilyFile[]): Promise<void> {
  console.log(`tiles per second per family (drawTile, ${seconds} s each, one core of this machine)`);
  for (const f of files) {
    const family = thumbnailFamily(f.contentType, f.fileName) as DrawableFamily;
    await drawTile(family, f.bytes, 'bench'); // warm: module loads, font cache
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) {
      await drawTile(family, f.bytes, 'bench');
      n++;
    }
    const elapsed = (performance.now() - start) / 1000;
    console.log(`  ${f.name.padEnd(12)} ${family.padEnd(10)} ${(f.bytes.length / 1024).toFixed(0).padStart(6)} KiB  ${(n / elapsed).toFixed(1).padStart(7)} tiles/s  ${((elapsed * 1000) / n).toFixed(0).padStart(5)} ms/tile`);
  }
}

async function uploadToDrawn(kinds: FamilyFile[]): Promise<void> {
  const temporal = await startTestTemporal();
  const env = await startResourceEnv('filesystem');
  const handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
  const log = silentLogger();
  const queue = 'bench-thumbnails';
  const config = { ...env.config, temporal: { ...env.config.temporal, address: temporal.address, namespace: temporal.namespace, task_queue: queue } };
  const worker = await createPlatformWorker({ config, db: env.db, temporal: handle, log, thumbnails: { config: env.config, db: env.db, objstore: env.connections, log } });
  const running = worker.run();
  // Only the thumbnail jobs are started: the index job each write records beside it is not this benchmark's.
  const temporalStarter = temporalJobStarter(handle.client);
  const starter: JobStarter = { start: (job) => (job.workflowType === 'drawThumbnail' ? temporalStarter.start(job) : Promise.resolve()) };
  const dispatcher = new ResourceJobDispatcher({ db: env.db, starter, platformQueue: queue, log });
  const service = env.replica({ jobs: dispatcher });
  const who = person(env, 'bench');
  try {
    console.log(`time from upload to drawn (${uploads} uploads each, one at a time; Postgres, filesystem store, Temporal dev server)`);
    for (const f of kinds) {
      const times: number[] = [];
      for (let i = 0; i < uploads; i++) {
        const start = performance.now();
        const made = await service.create(who, { library: personLib('bench'), path: 'bench', file_name: `${i}-${f.fileName}`, content_type: f.contentType, if_exists: 'fail', origin: 'portal', body: Readable.from([f.bytes]) });
        // The workflow exists once the dispatcher started it.
        await dispatcher.idle();
        const result = await handle.client.workflow.getHandle(thumbnailWorkflowId(made.resource.id, 1)).result();
        if ((result as { outcome: string }).outcome !== 'drawn') throw new Error(`${f.name}: ${JSON.stringify(result)}`);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      console.log(`  ${f.name.padEnd(12)} ${(f.bytes.length / 1024).toFixed(0).padStart(6)} KiB  p50 ${percentile(times, 50).toFixed(0).padStart(5)} ms  p99 ${percentile(times, 99).toFixed(0).padStart(5)} ms  (goal p99 ≤ 3000 ms)`);
    }
  } finally {
    await dispatcher.close();
    await worker.shutdown();
    await running.catch(() => undefined);
    await handle.close();
    await env.stop();
    await temporal.stop();
  }
}

const fixtures = await familyFiles();
const png1mb: FamilyFile = { name: 'png-1mb', fileName: 'noise.png', contentType: 'image/png', bytes: await noisePng() };
const pdf20: FamilyFile = { name: 'pdf-20pages', fileName: 'report.pdf', contentType: 'application/pdf', bytes: simplePdf(20) };
await tilesPerSecond([...fixtures, png1mb, pdf20]);
await uploadToDrawn([png1mb, pdf20]);
