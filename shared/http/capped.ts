/**
 * Reading an upstream's answer without letting it exhaust memory: its bytes up to a limit, and
 * refused (the caller's error) once they pass it, whether the answer declared its length or not.
 */

/** The chunks of `body`, failing with `tooLarge()` once more than `maxBytes` have passed. */
export async function* cappedChunks(body: AsyncIterable<Uint8Array>, maxBytes: number, tooLarge: () => Error): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    yield chunk;
  }
}

/**
 * The response body as UTF-8 text, refused with `tooLarge()` past `maxBytes`: at once when its
 * declared content-length is larger (the body is cancelled unread), else as the bytes arrive.
 */
export async function readCappedText(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  for await (const chunk of cappedChunks(response.body, maxBytes, tooLarge)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
