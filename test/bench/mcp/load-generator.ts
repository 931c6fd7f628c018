/**
 * The load generator: a process of its own (forked by the orchestrator), so its client work never
 * shares an event loop with the server it measures. For each round it receives over IPC it opens
 * `connections` virtual users on one keep-alive agent with as many sockets, runs them for the
 * round's seconds, and answers with the counts. Only operations that complete inside the timed
 * window count; setup (sessions opened) and teardown (sessions deleted) are outside it.
 */
import http from 'node:http';
import { virtualUser, type LoadMessage, type RoundRequest, type RoundResult } from './workloads.js';

const maxErrorSamples = 5;

function post(message: LoadMessage): void {
  process.send?.(message);
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function runRound(request: RoundRequest): Promise<RoundResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: request.connections });
  try {
    const users = await Promise.all(Array.from({ length: request.connections }, () => virtualUser(agent, request)));
    let ops = 0;
    let errors = 0;
    const samples = new Set<string>();
    const fail = (error: unknown) => {
      errors++;
      if (samples.size < maxErrorSamples) samples.add(describe(error));
    };

    post({ type: 'window-start' });
    const cpuAtStart = process.cpuUsage();
    const deadline = performance.now() + request.seconds * 1000;
    let loadCpuSeconds = 0;
    const windowEnd = new Promise<void>((resolve) =>
      setTimeout(() => {
        const used = process.cpuUsage(cpuAtStart);
        loadCpuSeconds = (used.user + used.system) / 1e6;
        post({ type: 'window-end' });
        resolve();
      }, request.seconds * 1000),
    );
    await Promise.all(
      users.map(async (user) => {
        while (performance.now() < deadline) {
          try {
            await user.op();
            if (performance.now() <= deadline) ops++;
          } catch (error) {
            fail(error);
          }
        }
      }),
    );
    await windowEnd;

    await Promise.all(users.map((user) => user.close().catch(fail)));
    return { workload: request.workload, ops, errors, errorSamples: [...samples], seconds: request.seconds, loadCpuSeconds };
  } finally {
    agent.destroy();
  }
}

process.on('message', (request: RoundRequest) => {
  runRound(request).then(
    (result) => post({ type: 'result', result }),
    (error: unknown) => post({ type: 'failed', message: `${request.workload} setup failed: ${describe(error)}` }),
  );
});
// The orchestrator went away (finished, interrupted or crashed): nothing left to measure for.
process.on('disconnect', () => process.exit(0));
