/**
 * HTTP/1.1 over a raw socket, for tests of what a server does with a request that is never
 * finished: the head and some chunks are written, never the rest of the body the head announces.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HalfSent {
  /** The first complete answer. */
  answer: Promise<RawAnswer>;
  /** Resolves when the server has closed (or reset) the connection. */
  closed: Promise<void>;
  socket: Socket;
}

/** Sends `head` and then each of `chunks` to `base` (its host and port), and nothing more. */
export function halfSent(base: string, head: string, chunks: Array<string | Uint8Array> = []): HalfSent {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) }, () => {
    socket.write(head);
    for (const chunk of chunks) socket.write(chunk);
  });
  let received = Buffer.alloc(0);
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = received.subarray(end + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: body.toString() });
    });
    socket.on('error', reject);
  });
  const closed = new Promise<void>((resolve) => {
    socket.on('end', () => resolve());
    socket.on('close', () => resolve());
  });
  // A reset after the answer is one way of closing; the answer's own failure is reported by `answer`.
  answer.catch(() => undefined);
  return { answer, closed, socket };
}
