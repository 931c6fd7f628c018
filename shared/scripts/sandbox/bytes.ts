/**
 * Bytes across the sandbox's edge. Values cross the thread boundary as JSON, so bytes travel as
 * `{base64}` (the wire form: `req.body` in, a handler's bytes `body` out), turned into and out of
 * an ArrayBuffer by these native functions — Node's base64 and UTF-8 codecs, fast where the
 * same loop in QuickJS would spend the run's time. The prelude (instance.ts) keeps them private
 * and builds `TextEncoder`/`TextDecoder` (UTF-8 only) on them: QuickJS has neither.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';

/** A copy of `length` bytes from `offset` of the ArrayBuffer `buffer`. */
function bytesOf(context: QuickJSContext, buffer: QuickJSHandle, offset: QuickJSHandle, length: QuickJSHandle): Buffer {
  const start = context.getNumber(offset);
  return context.getArrayBuffer(buffer).consume((view) => Buffer.from(view.value.subarray(start, start + context.getNumber(length))));
}

const newArrayBuffer = (context: QuickJSContext, bytes: Uint8Array): QuickJSHandle => context.newArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

/** The native functions the prelude takes, in its parameter order: toBase64, fromBase64, decodeUtf8, encodeUtf8. */
export function bytesNatives(context: QuickJSContext): QuickJSHandle[] {
  return [
    context.newFunction('toBase64', (buffer, offset, length) => context.newString(bytesOf(context, buffer, offset, length).toString('base64'))),
    context.newFunction('fromBase64', (text) => newArrayBuffer(context, Buffer.from(context.getString(text), 'base64'))),
    // undefined when `fatal` and the bytes are not UTF-8: the prelude throws the TypeError a TextDecoder would.
    context.newFunction('decodeUtf8', (buffer, offset, length, fatal, ignoreBOM) => {
      const decoder = new TextDecoder('utf-8', { fatal: context.dump(fatal) === true, ignoreBOM: context.dump(ignoreBOM) === true });
      try {
        return context.newString(decoder.decode(bytesOf(context, buffer, offset, length)));
      } catch {
        return context.undefined;
      }
    }),
    context.newFunction('encodeUtf8', (text) => newArrayBuffer(context, Buffer.from(context.getString(text), 'utf8'))),
  ];
}
