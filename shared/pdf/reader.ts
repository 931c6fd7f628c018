/**
 * PDFs read in threads of their own (thread.ts), for two reasons. pdf.js's legacy build (the one
 * for Node 20) replaces built-ins of the realm that loads it — `Array.prototype.push` 8× slower
 * for every module of the process afterwards — so it must never load in the api's or the worker's
 * own realm. And a PDF is hostile input: parsing it off the event loop, under a heap ceiling and a
 * deadline, means a crafted file can neither stall the process nor exhaust its memory — past the
 * deadline its thread is stopped (and a new one started for the next PDF); out of memory, only
 * that thread dies.
 *
 * A small pool of threads, each started on its first job and unreferenced (none keeps the process
 * alive). Jobs wait per caller (whose queue: a library, a user) and callers are served in turn, so
 * one caller's backlog never delays another's; a caller never holds every thread at once, so one
 * caller's slow PDFs leave a thread for the others. The waiting jobs are bounded, in all and per
 * caller: past either bound a job is refused at once with PdfReaderBusy (retry later).
 */
import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../threads/index.js';
import type { PdfAnswer, PdfJob } from './protocol.js';

/** Past this, a job fails and its thread is stopped. */
export const PDF_DEADLINE_MS = 60_000;
/** The thread's V8 old generation (pdf.js's objects; page images are outside it). */
const THREAD_HEAP_MB = 512;

export interface PdfReaderLimits {
  /** Threads reading at once. */
  threads: number;
  /** Jobs waiting, all callers together; past it a job is refused. A caller may have a quarter of them waiting. */
  queue: number;
}

const DEFAULT_PDF_LIMITS: PdfReaderLimits = { threads: 2, queue: 32 };

/** A job refused because too many wait already (in all, or of its caller): nothing was read; try again later. */
export class PdfReaderBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfReaderBusy';
  }
}

type JobInput = { kind: 'text'; bytes: Uint8Array; maxChars: number } | { kind: 'first_page'; bytes: Uint8Array; limit: number };

interface Queued {
  caller: string;
  input: JobInput;
  resolve: (answer: PdfAnswer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  thread: Worker | undefined;
  running: (Queued & { id: number; timer: NodeJS.Timeout }) | undefined;
}

export class PdfReader {
  readonly #deadlineMs: number;
  #limits: PdfReaderLimits;
  #slots: Slot[] = [];
  /** Waiting jobs by caller. */
  #waiting = new Map<string, Queued[]>();
  #waitingCount = 0;
  /** When each caller with jobs waiting or running was last served (its turn): the least recent goes next. */
  #lastServed = new Map<string, number>();
  #turn = 0;
  #nextId = 1;

  constructor(opts: { deadlineMs?: number } & Partial<PdfReaderLimits> = {}) {
    this.#deadlineMs = opts.deadlineMs ?? PDF_DEADLINE_MS;
    this.#limits = { threads: opts.threads ?? DEFAULT_PDF_LIMITS.threads, queue: opts.queue ?? DEFAULT_PDF_LIMITS.queue };
  }

  /** New limits (the composition root's, from the configuration): threads past the count stop once idle. */
  configure(limits: PdfReaderLimits): void {
    this.#limits = { ...limits };
    this.#trimIdle();
    this.#next();
  }

  /** The text of the PDF's pages until `maxChars` characters are read (the caller bounds it), in `caller`'s turn. */
  async text(bytes: Uint8Array, maxChars: number, caller: string): Promise<string> {
    const answer = await this.#submit(caller, { kind: 'text', bytes, maxChars });
    if (!('text' in answer)) throw new Error('the PDF thread answered without text');
    return answer.text;
  }

  /** The first page as a PNG, white behind it, at most `limit` pixels on its longer side, in `caller`'s turn. */
  async firstPage(bytes: Uint8Array, limit: number, caller: string): Promise<Buffer> {
    const answer = await this.#submit(caller, { kind: 'first_page', bytes, limit });
    if (!('png' in answer)) throw new Error('the PDF thread answered without a page');
    return Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength);
  }

  /** Stops the threads; waiting and running jobs fail. */
  async close(): Promise<void> {
    const closed = new Error('the PDF reader was closed');
    const waiting = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#waitingCount = 0;
    this.#lastServed.clear();
    for (const job of waiting) job.reject(closed);
    const threads: Worker[] = [];
    for (const slot of this.#slots.splice(0)) {
      if (slot.thread) threads.push(slot.thread);
      slot.thread = undefined;
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.reject(closed);
        slot.running = undefined;
      }
    }
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  /** A caller may have this many jobs waiting: a quarter of the queue, so no one caller fills it. */
  #callerQueue(): number {
    return Math.max(1, Math.floor(this.#limits.queue / 4));
  }

  /** A caller may have this many jobs running: all threads but one, so another caller always finds one. */
  #callerThreads(): number {
    return Math.max(1, this.#limits.threads - 1);
  }

  #submit(caller: string, input: JobInput): Promise<PdfAnswer> {
    const mine = this.#waiting.get(caller) ?? [];
    if (this.#waitingCount >= this.#limits.queue) {
      return Promise.reject(new PdfReaderBusy(`PDF reading is busy: ${this.#waitingCount} PDFs are waiting; try again in a minute`));
    }
    if (mine.length >= this.#callerQueue()) {
      return Promise.reject(new PdfReaderBusy(`PDF reading is busy: ${mine.length} PDFs of the same caller are waiting; try again in a minute`));
    }
    return new Promise<PdfAnswer>((resolve, reject) => {
      mine.push({ caller, input, resolve, reject });
      if (mine.length === 1) this.#waiting.set(caller, mine);
      this.#waitingCount++;
      this.#next();
    }).then((answer) => {
      if (!answer.ok) throw new Error(answer.error);
      return answer;
    });
  }

  /** Starts waiting jobs on idle threads, callers in turn, each within its share of threads. */
  #next(): void {
    while (this.#waitingCount > 0) {
      const slot = this.#idleSlot();
      if (!slot) return;
      const queued = this.#take();
      if (!queued) return;
      this.#start(slot, queued);
    }
  }

  #idleSlot(): Slot | undefined {
    const idle = this.#slots.slice(0, this.#limits.threads).find((slot) => !slot.running);
    if (idle) return idle;
    if (this.#slots.length >= this.#limits.threads) return undefined;
    const slot: Slot = { thread: undefined, running: undefined };
    this.#slots.push(slot);
    return slot;
  }

  /** The first waiting job of the caller served least recently among those with a thread to spare. */
  #take(): Queued | undefined {
    const share = this.#callerThreads();
    let next: string | undefined;
    for (const caller of this.#waiting.keys()) {
      if (this.#slots.filter((slot) => slot.running?.caller === caller).length >= share) continue;
      if (next === undefined || (this.#lastServed.get(caller) ?? 0) < (this.#lastServed.get(next) ?? 0)) next = caller;
    }
    if (next === undefined) return undefined;
    const jobs = this.#waiting.get(next)!;
    const job = jobs.shift()!;
    if (jobs.length === 0) this.#waiting.delete(next);
    this.#waitingCount--;
    this.#lastServed.set(next, ++this.#turn);
    return job;
  }

  /** A caller with nothing waiting or running is forgotten (its next job is served as a newcomer's). */
  #forget(caller: string): void {
    if (!this.#waiting.has(caller) && !this.#slots.some((slot) => slot.running?.caller === caller)) this.#lastServed.delete(caller);
  }

  #start(slot: Slot, queued: Queued): void {
    const thread = this.#started(slot);
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#fail(slot, new Error(`the PDF was not read within ${this.#deadlineMs / 1000} s`)), this.#deadlineMs);
    slot.running = { ...queued, id, timer };
    try {
      // A copy the thread owns: the caller's bytes stay the caller's (pdf.js detaches what it is given).
      const bytes = new Uint8Array(queued.input.bytes);
      thread.postMessage({ ...queued.input, id, bytes } satisfies PdfJob, [bytes.buffer]);
    } catch (error) {
      this.#fail(slot, new Error(`the PDF could not be handed to its thread: ${(error as Error).message}`));
    }
  }

  #started(slot: Slot): Worker {
    if (slot.thread) return slot.thread;
    const thread = startModuleThread(import.meta.url, 'thread', { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    thread.unref();
    thread.on('message', (answer: PdfAnswer) => {
      const running = slot.running;
      if (slot.thread !== thread || !running || running.id !== answer.id) return;
      clearTimeout(running.timer);
      slot.running = undefined;
      this.#forget(running.caller);
      running.resolve(answer);
      this.#trimIdle();
      this.#next();
    });
    // An uncaught error or running out of memory ends the thread: its job fails, the next gets a new one.
    thread.on('error', (error) => {
      if (slot.thread === thread) this.#fail(slot, new Error(`the PDF thread failed: ${error.message}`));
    });
    thread.on('exit', (code) => {
      if (slot.thread === thread) this.#fail(slot, new Error(`the PDF thread stopped (exit code ${code})`));
    });
    slot.thread = thread;
    return thread;
  }

  /** Fails the slot's running job and stops its thread (a new one starts for its next job). */
  #fail(slot: Slot, error: Error): void {
    const thread = slot.thread;
    slot.thread = undefined;
    void thread?.terminate();
    const running = slot.running;
    slot.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      this.#forget(running.caller);
      running.reject(error);
    }
    this.#trimIdle();
    this.#next();
  }

  /** Idle threads past the configured count stop. */
  #trimIdle(): void {
    for (let i = this.#slots.length - 1; i >= this.#limits.threads; i--) {
      const slot = this.#slots[i]!;
      if (slot.running) continue;
      this.#slots.splice(i, 1);
      void slot.thread?.terminate();
    }
  }
}
