/** A logger whose lines the test reads back (to prove what is, and is never, logged). */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../shared/logging/index.js';

export function capturingLogger(level: 'trace' | 'info' | 'warn' = 'info'): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLogger({ level, destination }), lines };
}
