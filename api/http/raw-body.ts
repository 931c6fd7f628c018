/**
 * A request body read as raw bytes within a limit, for routes that take any content type and
 * must not buffer past their own limit (webhooks, scripted endpoints): as soon as the body passes
 * `limit` the read stops, the rest is left unread (the route answers 413 and closes the connection).
 */
import type { IncomingMessage } from 'node:http';

/** The body, or undefined as soon as it passes `limit` bytes. */
export function readBodyWithin(raw: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      raw.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        raw.pause();
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onAborted = () => onError(new Error('the sender closed the connection before the body ended'));
    raw.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
