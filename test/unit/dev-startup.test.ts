/**
 * `platform dev`'s start-up (issue 35, item 2): a slow step says what it is doing and how long it
 * has taken (threshold injected, fake clock), a quick one says nothing; listeners without a host
 * bind loopback; a taken port is refused in one line naming its key.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startupProgress } from '../../cli/progress.js';
import { devListenAddress, listenerRefusal } from '../../cli/dev-listeners.js';

describe('start-up progress', () => {
  afterEach(() => vi.useRealTimers());

  it('announces a step still running after the threshold, again every interval, and when it is done', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const progress = startupProgress({ write: (line) => lines.push(line), afterMs: 2_000, everyMs: 5_000 });
    let finish!: () => void;
    const step = progress('starting Temporal dev server', () => new Promise<string>((resolve) => (finish = () => resolve('up'))));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lines).toEqual(['starting Temporal dev server … 2 s\n']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lines).toEqual(['starting Temporal dev server … 2 s\n', 'starting Temporal dev server … 7 s\n']);
    await vi.advanceTimersByTimeAsync(1_000);
    finish();
    await expect(step).resolves.toBe('up');
    expect(lines.at(-1)).toBe('starting Temporal dev server: done in 8 s\n');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says nothing about a step that ends before the threshold, and passes its failure on', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const progress = startupProgress({ write: (line) => lines.push(line), afterMs: 2_000 });
    await expect(progress('applying database migrations', async () => 'done')).resolves.toBe('done');
    await expect(progress('starting the worker', async () => Promise.reject(new Error('no worker')))).rejects.toThrow('no worker');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lines).toEqual([]);
  });
});

describe("platform dev's listeners", () => {
  let held: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
    held = undefined;
  });

  it('an address without a host binds loopback; a written host is kept', () => {
    expect(devListenAddress(':8080')).toBe('127.0.0.1:8080');
    expect(devListenAddress('0.0.0.0:8080')).toBe('0.0.0.0:8080');
    expect(devListenAddress('[::1]:9090')).toBe('[::1]:9090');
  });

  it('a taken port is refused in one line naming the key and how to change it; a free one passes', async () => {
    held = createServer();
    await new Promise<void>((resolve) => held!.listen(0, '127.0.0.1', resolve));
    const port = (held.address() as { port: number }).port;
    const refusal = await listenerRefusal('server.address', `127.0.0.1:${port}`, '/etc/platform.yaml');
    expect(refusal).toBe(
      `server.address 127.0.0.1:${port} is already in use by another process: stop that process, or set server.address to a free address in /etc/platform.yaml, e.g. "127.0.0.1:${port + 1}"`,
    );
    expect(refusal).not.toContain('\n');
    await new Promise((resolve) => held!.close(resolve));
    held = undefined;
    expect(await listenerRefusal('server.address', `127.0.0.1:${port}`, undefined)).toBeUndefined();
    expect(await listenerRefusal('server.address', '127.0.0.1:0', undefined)).toBeUndefined();
  });
});
