import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export const MiB = 1024 * 1024;

/** `bytes` of random-looking data in 1 MiB chunks (each distinct), hashed as it is produced — never held whole. */
export function generatedBytes(bytes: number): { stream: Readable; sha256: () => string } {
  const base = randomBytes(MiB);
  const hash = createHash('sha256');
  let produced = 0;
  let index = 0;
  const stream = new Readable({
    read() {
      if (produced >= bytes) {
        this.push(null);
        return;
      }
      const size = Math.min(MiB, bytes - produced);
      const chunk = Buffer.allocUnsafe(size);
      base.copy(chunk, 0, 0, size);
      if (size >= 4) chunk.writeUInt32BE(index++, 0);
      produced += size;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

/** Samples this process's RSS every 20 ms; `stop()` reports the peak growth over the start. */
export function rssSampler() {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return { start, peak, growth: peak - start };
    },
  };
}
