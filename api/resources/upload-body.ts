/**
 * Upload bodies of the resource routes, streamed and never buffered: a multipart form whose fields
 * all precede one file part (the file's bytes flow straight to the service as they arrive), or a
 * raw request body. Both count bytes on the way and fail once more than the upload limit passed,
 * so an oversized upload is refused before anything is kept.
 */
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ResourceError } from '../../shared/resources/index.js';

export interface UploadFormRules {
  /** Field names allowed before the file part. */
  fields: readonly string[];
  /** Of those, the ones that may repeat (values kept in order), each with the most times it may come. */
  repeatable?: Readonly<Record<string, number>>;
  /** Name of the one file part, which must come last. */
  fileField: string;
  /** Most bytes the file may have. */
  maxBytes: number;
  /** Most bytes of one field value. */
  maxFieldBytes: number;
}

/** Most fields a form may carry: each field once, a repeatable one as often as it may repeat. */
export function maxFormFields(rules: Pick<UploadFormRules, 'fields' | 'repeatable'>): number {
  return rules.fields.reduce((sum, name) => sum + (rules.repeatable?.[name] ?? 1), 0);
}

/** File parts busboy lets through: one is the upload, a further one is refused as coming after it. */
const maxFileParts = 4;

/**
 * Busboy limits. The file size is ours to count (busboy would silently truncate). The field count
 * is exactly what the form may hold, so a form with more is refused (`countLimitError`), never cut.
 */
export function multipartLimits(rules: Pick<UploadFormRules, 'fields' | 'repeatable' | 'maxFieldBytes'>) {
  const fields = maxFormFields(rules);
  return {
    fieldNameSize: 100,
    fieldSize: rules.maxFieldBytes,
    fields,
    files: maxFileParts,
    parts: fields + maxFileParts,
    headerPairs: 100,
    fileSize: Infinity,
  };
}

/**
 * The parser's count limits (@fastify/multipart answers them 413 "reach … limit"): too many parts
 * is a malformed form, refused 400 naming the limit.
 */
function countLimitError(code: unknown, limits: ReturnType<typeof multipartLimits>): ResourceError | undefined {
  switch (code) {
    case 'FST_FIELDS_LIMIT':
      return new ResourceError('invalid', `the form has more than ${limits.fields} fields, the most this form takes (each field once, a repeatable one up to its limit)`, {
        limit_fields: limits.fields,
      });
    case 'FST_FILES_LIMIT':
      return new ResourceError('invalid', `the form has more than ${limits.files} file parts; it takes one, the last part`, { limit_files: limits.files });
    case 'FST_PARTS_LIMIT':
      return new ResourceError('invalid', `the form has more than ${limits.parts} parts`, { limit_parts: limits.parts });
    default:
      return undefined;
  }
}

/** An upload in progress. `failure` is the route's own reason the bytes were cut off, if any. */
export interface StreamedUpload {
  body: Readable;
  /** Set when the route stopped the stream (over the limit, a part after the file, a broken form). */
  failure(): Error | undefined;
  /**
   * Stop reading the request (the service refused or failed): unread bytes are discarded, so the
   * client finishes sending and reads the refusal, and the connection stays usable.
   */
  abandon(): void;
}

export interface StreamedForm extends StreamedUpload {
  fields: Record<string, string[]>;
  file: { name: string; type: string };
}

function tooLarge(maxBytes: number): ResourceError {
  return new ResourceError('too_large', `the file is larger than the upload limit of ${maxBytes} bytes (resources.managed.max_upload_bytes)`, {
    limit_bytes: maxBytes,
  });
}

/**
 * Errors of the multipart parser: its count limits are 400 naming the limit, its other 4xx errors
 * keep their status, anything else is a broken form.
 */
function formError(err: unknown, limits: ReturnType<typeof multipartLimits>): Error {
  if (err instanceof ResourceError) return err;
  const counted = countLimitError((err as { code?: unknown }).code, limits);
  if (counted) return counted;
  const status = (err as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && err instanceof Error) return err;
  return new ResourceError('invalid', `malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
}

function discardRequest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}

/**
 * Reads the fields of a multipart upload up to its file part and returns the file as a stream. The
 * stream ends only once the form is known to end after the file; a part after it makes the stream
 * fail (so the service stores nothing) with a 400 refusal.
 */
export async function readUploadForm(request: FastifyRequest, rules: UploadFormRules): Promise<StreamedForm> {
  const limits = multipartLimits(rules);
  const parts = request.parts({ limits })[Symbol.asyncIterator]();
  let abandoned = false;
  let failure: Error | undefined;
  // The file part's stream, once the form reaches it.
  const current: { file?: NodeJS.ReadableStream } = {};
  const abandon = () => {
    if (abandoned) return;
    abandoned = true;
    if (!body.destroyed) body.destroy();
    current.file?.resume();
    discardRequest(request);
  };
  // Backpressure: the service reading `body` pulls the file part, which pulls the request.
  const body = new Readable({
    // A few socket reads' worth: fewer pause/resume turns of the parser per megabyte.
    highWaterMark: 1024 * 1024,
    read() {
      current.file?.resume();
    },
  });
  // The failure is reported through failure(); the body may fail before its consumer listens.
  body.on('error', () => {});
  const fail = (err: Error) => {
    failure ??= err;
    if (!body.destroyed) body.destroy(err);
  };

  const fields: Record<string, string[]> = {};
  let part: Multipart;
  try {
    for (;;) {
      const next = await parts.next().catch((err: unknown) => {
        throw formError(err, limits);
      });
      if (next.done) throw new ResourceError('invalid', `the form has no file part "${rules.fileField}" (it must be the last part)`);
      part = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== rules.fileField) {
          part.file.resume();
          throw new ResourceError('invalid', `unexpected file part "${part.fieldname}": the file part is named "${rules.fileField}"`);
        }
        break;
      }
      const name = part.fieldname;
      if (!rules.fields.includes(name)) {
        throw new ResourceError('invalid', `unknown form field "${name}" (known fields: ${rules.fields.join(', ')}, then the file part "${rules.fileField}")`);
      }
      if (part.fieldnameTruncated || part.valueTruncated) {
        throw new ResourceError('invalid', `form field "${name}" is longer than ${rules.maxFieldBytes} bytes`);
      }
      const list = (fields[name] ??= []);
      if (list.length > 0 && rules.repeatable?.[name] === undefined) {
        throw new ResourceError('invalid', `form field "${name}" is given more than once`);
      }
      list.push(typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
    }
  } catch (err) {
    abandon();
    throw err;
  }

  const file = part;
  const source = file.file;
  current.file = source;
  let size = 0;
  let cutOff = false;
  source.on('data', (chunk: Buffer) => {
    if (cutOff || abandoned) return;
    size += chunk.length;
    if (size > rules.maxBytes) {
      cutOff = true;
      fail(tooLarge(rules.maxBytes));
      source.resume();
      return;
    }
    if (!body.push(chunk)) source.pause();
  });
  source.on('error', (err: Error) => {
    cutOff = true;
    fail(formError(err, limits));
  });
  source.on('end', () => {
    if (cutOff || abandoned) return;
    // The file is complete; it becomes the upload only if nothing follows it in the form.
    parts.next().then(
      (next) => {
        if (abandoned) return;
        if (next.done) {
          body.push(null);
          return;
        }
        const after = next.value;
        if (after.type === 'file') after.file.resume();
        fail(new ResourceError('invalid', `form part "${after.fieldname}" comes after the file part: every field must precede the file "${rules.fileField}"`));
      },
      (err: unknown) => fail(formError(err, limits)),
    );
  });
  // The consumer gave up on the body (the service refused): keep the parser moving until abandoned.
  body.once('close', () => {
    if (!body.readableEnded) source.resume();
  });

  return {
    fields,
    file: { name: file.filename, type: file.mimetype },
    body,
    failure: () => failure,
    abandon,
  };
}

/** A raw request body (PUT content), counted against the limit on the way. */
export function readRawBody(request: FastifyRequest, maxBytes: number): StreamedUpload {
  let failure: Error | undefined;
  let size = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      size += chunk.length;
      if (size > maxBytes) {
        failure ??= tooLarge(maxBytes);
        done(failure);
        return;
      }
      done(null, chunk);
    },
  });
  limiter.on('error', () => {}); // reported through failure() and the consumer's own listeners
  request.raw.on('error', (err) => limiter.destroy(err));
  request.raw.pipe(limiter);
  let abandoned = false;
  return {
    body: limiter,
    failure: () => failure,
    abandon() {
      if (abandoned) return;
      abandoned = true;
      if (!limiter.destroyed) limiter.destroy();
      discardRequest(request);
    },
  };
}

/**
 * A small raw body read whole (the source editor's text): at most `maxBytes`, else `tooLarge()` is
 * the refusal once the limit passes; the rest of the body is read and dropped (the request is
 * never destroyed), so the client finishes sending and reads the refusal.
 */
export function readSmallBody(request: FastifyRequest, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const raw = request.raw;
    raw.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    raw.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks, size));
    });
    raw.on('error', (err) => {
      if (!refused) reject(err);
    });
  });
}
