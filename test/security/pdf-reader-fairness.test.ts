/**
 * One caller's PDFs never hold up another's (shared/pdf): the reader is a small pool of threads,
 * callers are served in turn and no caller holds every thread, so a slow, hostile PDF of one caller
 * leaves a thread for the next caller's small one; the waiting jobs are bounded, in all and per
 * caller, and a job past the bound is refused at once with PdfReaderBusy. The assertions are on
 * order, not on time: the hostile first page takes minutes, a small PDF's text a few seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { retryWhenPdfBusy } from '../../activities/pdf-busy.js';
import { pdfReader, PdfReader, PdfReaderBusy } from '../../shared/pdf/index.js';
import { drawTile } from '../../shared/resources/thumbnails/index.js';
import { extractContents } from '../../shared/search/extract/index.js';
import { pdf } from '../fixtures/search/documents.js';
import { nestedFormsPdf } from '../support/pdf.js';

let reader: PdfReader | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

/** Whether the promise has settled (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('PDF reading is fair between callers', () => {
  it("serves caller B's small PDF while caller A's hostile PDFs hold a thread", async () => {
    reader = new PdfReader({ threads: 2, queue: 32 });
    const hostile = [reader.firstPage(nestedFormsPdf(), 1600, 'A'), reader.firstPage(nestedFormsPdf(), 1600, 'A')];
    for (const job of hostile) job.catch(() => undefined);
    expect(await reader.text(pdf(['caller B report']), 1000, 'B')).toContain('caller B report');
    // A's first still draws, its second still waits: A never held both threads.
    for (const job of hostile) expect(await settled(job)).toBe(false);
  });

  it('serves waiting callers in turn, not in arrival order', async () => {
    reader = new PdfReader({ threads: 1, queue: 32 });
    const order: string[] = [];
    const read = (caller: string, name: string) => reader!.text(pdf([name]), 100, caller).then(() => order.push(name));
    await Promise.all([read('A', 'a1'), read('A', 'a2'), read('A', 'a3'), read('B', 'b1')]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('refuses a job past the bound on waiting jobs, at once and clearly', async () => {
    // A quarter of the queue per caller: 1 of 4.
    reader = new PdfReader({ threads: 1, queue: 4 });
    const held: Promise<unknown>[] = [reader.firstPage(nestedFormsPdf(), 1600, 'A')];
    held.push(reader.text(pdf(['a']), 100, 'A'));
    await expect(reader.text(pdf(['a again']), 100, 'A')).rejects.toThrow(/PDF reading is busy: 1 PDFs of the same caller are waiting/);
    held.push(reader.text(pdf(['b']), 100, 'B'), reader.text(pdf(['c']), 100, 'C'), reader.text(pdf(['d']), 100, 'D'));
    for (const job of held) job.catch(() => undefined);
    const refused = reader.text(pdf(['e']), 100, 'E');
    await expect(refused).rejects.toBeInstanceOf(PdfReaderBusy);
    await expect(refused).rejects.toThrow('PDF reading is busy: 4 PDFs are waiting; try again in a minute');
  });

  it('a busy refusal reaches indexing and thumbnails as itself, and their activities retry it later', async () => {
    pdfReader.configure({ threads: 1, queue: 4 });
    const held = ['l1', 'l2', 'l3', 'l4', 'l5'].map((caller) => pdfReader.firstPage(nestedFormsPdf(), 1600, caller).catch(() => undefined));
    try {
      // Not an unreadable file (a reason, indexed empty) nor a failed draw (recorded, never retried).
      await expect(extractContents(pdf(['x']), 'application/pdf', 'x.pdf', 100, 'library:other')).rejects.toBeInstanceOf(PdfReaderBusy);
      await expect(drawTile('pdf', pdf(['x']), 'library:other')).rejects.toBeInstanceOf(PdfReaderBusy);
      const failure = await retryWhenPdfBusy(() => extractContents(pdf(['x']), 'application/pdf', 'x.pdf', 100, 'library:other')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: 'PdfReaderBusy', nonRetryable: false, nextRetryDelay: '1 minute' });
    } finally {
      await pdfReader.close();
      await Promise.all(held);
    }
  });
});
