/**
 * The PDF thread (reader.ts starts it): pdf.js, through pdf-parse for text and directly for a
 * first page drawn onto @napi-rs/canvas. pdf.js's legacy build — the one that runs on Node 20 —
 * carries core-js polyfills that replace built-ins of the realm loading it (`Array.prototype.push`,
 * measured 8× slower afterwards; `JSON.parse`; `Function.prototype.toString`) and add globals
 * (`navigator`, `DOMMatrix`, …): loaded here, they change this thread's realm only.
 */
import { parentPort } from 'node:worker_threads';
import type { PdfAnswer, PdfJob } from './protocol.js';

if (!parentPort) throw new Error('pdf thread: run as a worker thread');
const port = parentPort;

const pagesPerBatch = 20;

async function text(bytes: Uint8Array, maxChars: number): Promise<string> {
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: bytes, verbosity: 0 });
  try {
    const { total } = await parser.getInfo();
    let read = '';
    for (let first = 1; first <= total && read.length < maxChars; first += pagesPerBatch) {
      const batch = await parser.getText({ first, last: Math.min(total, first + pagesPerBatch - 1), pageJoiner: '' });
      read += (read && batch.text ? '\n' : '') + batch.text.trim();
    }
    return read;
  } finally {
    await parser.destroy();
  }
}

async function firstPage(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { createCanvas } = await import('@napi-rs/canvas');
  // No eval, no system fonts fetched, no font face injection: the PDF is data, never code.
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  try {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const unit = page.getViewport({ scale: 1 });
    const scale = Math.min(limit / unit.width, limit / unit.height, 4);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
    // A copy of its own: the encoded Buffer may share a pooled ArrayBuffer, which must not be transferred.
    return new Uint8Array(await canvas.encode('png'));
  } finally {
    await task.destroy();
  }
}

async function answer(job: PdfJob): Promise<PdfAnswer> {
  try {
    if (job.kind === 'text') return { id: job.id, ok: true, text: await text(job.bytes, job.maxChars) };
    return { id: job.id, ok: true, png: await firstPage(job.bytes, job.limit) };
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (job: PdfJob) => {
  void answer(job).then((answered) => port.postMessage(answered, 'png' in answered ? [answered.png.buffer as ArrayBuffer] : []));
});
