/**
 * PDFs read in a thread of their own (thread.ts), for two reasons. pdf.js's legacy build (the one
 * for Node 20) replaces built-ins of the realm that loads it — `Array.prototype.push` 8× slower
 * for every module of the process afterwards — so it must never load in the api's or the worker's
 * own realm. And a PDF is hostile input: parsing it off the event loop, under a heap ceiling and a
 * deadline, means a crafted file can neither stall the process nor exhaust its memory — past the
 * deadline the thread is stopped (and a new one started for the next PDF); out of memory, only
 * the thread dies.
 *
 * One thread per reader, started on the first job and unreferenced (it never keeps the process
 * alive); jobs run one at a time, in order.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../threads/index.js';
import type { PdfAnswer, PdfJob } from './protocol.js';

/** Past this, a job fails and its thread is stopped. */
export const PDF_DEADLINE_MS = 60_000;
/** The thread's V8 old generation (pdf.js's objects; page images are outside it). */
const THREAD_HEAP_MB = 512;

type JobInput = { kind: 'text'; bytes: Uint8Array; maxChars: number } | { kind: 'first_page'; bytes: Uint8Array; limit: number };

interface Queued {
  input: JobInput;
  resolve: (answer: PdfAnswer) => void;
  reject: (error: Error) => void;
}

export class PdfReader {
  readonly #deadlineMs: number;
  #thread: Worker | undefined;
  #queue: Queued[] = [];
  #running: (Queued & { id: number; timer: NodeJS.Timeout }) | undefined;
  #nextId = 1;

  constructor(opts: { deadlineMs?: number } = {}) {
    this.#deadlineMs = opts.deadlineMs ?? PDF_DEADLINE_MS;
  }

  /** The text of the PDF's pages until `maxChars` characters are read (the caller bounds it). */
  async text(bytes: Uint8Array, maxChars: number): Promise<string> {
    const answer = await this.#submit({ kind: 'text', bytes, maxChars });
    if (!('text' in answer)) throw new Error('the PDF thread answered without text');
    return answer.text;
  }

  /** The first page as a PNG, white behind it, at most `limit` pixels on its longer side. */
  async firstPage(bytes: Uint8Array, limit: number): Promise<Buffer> {
    const answer = await this.#submit({ kind: 'first_page', bytes, limit });
    if (!('png' in answer)) throw new Error('the PDF thread answered without a page');
    return Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength);
  }

  /** Stops the thread; queued and running jobs fail. */
  async close(): Promise<void> {
    const queued = this.#queue.splice(0);
    const thread = this.#thread;
    this.#fail(new Error('the PDF reader was closed'));
    for (const job of queued) job.reject(new Error('the PDF reader was closed'));
    await thread?.terminate();
  }

  #submit(input: JobInput): Promise<PdfAnswer> {
    return new Promise<PdfAnswer>((resolve, reject) => {
      this.#queue.push({ input, resolve, reject });
      this.#next();
    }).then((answer) => {
      if (!answer.ok) throw new Error(answer.error);
      return answer;
    });
  }

  #next(): void {
    if (this.#running) return;
    const queued = this.#queue.shift();
    if (!queued) return;
    const thread = this.#started();
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#fail(new Error(`the PDF was not read within ${this.#deadlineMs / 1000} s`)), this.#deadlineMs);
    this.#running = { ...queued, id, timer };
    try {
      // A copy the thread owns: the caller's bytes stay the caller's (pdf.js detaches what it is given).
      const bytes = new Uint8Array(queued.input.bytes);
      thread.postMessage({ ...queued.input, id, bytes } satisfies PdfJob, [bytes.buffer]);
    } catch (error) {
      this.#fail(new Error(`the PDF could not be handed to its thread: ${(error as Error).message}`));
    }
  }

  #started(): Worker {
    if (this.#thread) return this.#thread;
    const thread = startModuleThread(import.meta.url, 'thread', { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    thread.unref();
    thread.on('message', (answer: PdfAnswer) => {
      const running = this.#running;
      if (!running || running.id !== answer.id) return;
      clearTimeout(running.timer);
      this.#running = undefined;
      running.resolve(answer);
      this.#next();
    });
    // An uncaught error or running out of memory ends the thread: its job fails, the next gets a new one.
    thread.on('error', (error) => {
      if (this.#thread === thread) this.#fail(new Error(`the PDF thread failed: ${error.message}`));
    });
    thread.on('exit', (code) => {
      if (this.#thread === thread) this.#fail(new Error(`the PDF thread stopped (exit code ${code})`));
    });
    this.#thread = thread;
    return thread;
  }

  /** Fails the running job and stops its thread (a new one starts for the next job). */
  #fail(error: Error): void {
    const thread = this.#thread;
    this.#thread = undefined;
    void thread?.terminate();
    const running = this.#running;
    this.#running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(error);
    }
    this.#next();
  }
}
