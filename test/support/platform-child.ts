/**
 * `platform <role>` as a child process of a test, run from source (test/support/cli.ts): its
 * output kept (the tail, for failure messages), a wait for a log line, and SIGKILL. Tests keep
 * every child they spawn and kill them all in afterAll, so a failing test leaves none behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cliEnv, platformBin, repoRoot } from './cli.js';

export interface PlatformChild {
  process: ChildProcess;
  /** Settles when the process has exited (however it ended). */
  exited: Promise<void>;
  /** The last few KB of its stdout and stderr. */
  output(): string;
  /** Resolves once `text` appears in its output; rejects when it exits first or after `timeoutMs`. */
  waitFor(text: string, timeoutMs: number): Promise<void>;
  /** SIGKILL (unless it already ended), then waits for the exit. */
  kill(): Promise<void>;
}

const keptChars = 16_000;

export function spawnPlatform(args: string[], env: Record<string, string> = {}): PlatformChild {
  const child = spawn(process.execPath, [platformBin, ...args], { cwd: repoRoot, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-keptChars);
    for (const listener of [...listeners]) listener();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    process: child,
    exited,
    output: () => output,
    waitFor(text, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          listeners.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (output.includes(text)) done();
        };
        const timer = setTimeout(() => done(new Error(`no "${text}" from platform ${args[0]} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
        listeners.add(check);
        void exited.then(() => done(new Error(`platform ${args[0]} exited (${child.exitCode ?? child.signalCode}) before "${text}":\n${output}`)));
        check();
      });
    },
    async kill() {
      if (!ended()) child.kill('SIGKILL');
      await exited;
    },
  };
}
