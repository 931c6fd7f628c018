/**
 * The measured workloads and the messages between the orchestrator and the load generator.
 * A workload is what one virtual user (one keep-alive connection's worth of load) does:
 * an untimed setup, then one operation repeated until the round ends, then an untimed teardown.
 */
import type http from 'node:http';
import { OpError, openSession, send, type McpSession, type Target } from './mcp-http.js';

export const workloadNames = ['bare', 'W1', 'W2', 'W3', 'W4'] as const;
export type WorkloadName = (typeof workloadNames)[number];

export const workloadTitles: Record<WorkloadName, string> = {
  bare: 'bare route (POST /bare)',
  W1: 'tools/call platform_info',
  W2: 'session churn (init+call+DELETE)',
  W3: 'tools/list',
  W4: 'objstore_get_object 64 KiB',
};

/** The object W4 reads, written by the orchestrator before the platform starts. */
export interface BenchObject {
  bucket: string;
  key: string;
  size: number;
}

export interface RoundRequest {
  workload: WorkloadName;
  /** The bare server for `bare`, else the platform. */
  target: Target;
  seconds: number;
  connections: number;
  object: BenchObject;
}

export interface RoundResult {
  workload: WorkloadName;
  /** Operations completed inside the timed window. */
  ops: number;
  errors: number;
  /** A few distinct error messages, for the report. */
  errorSamples: string[];
  /** Length of the timed window. */
  seconds: number;
  /** CPU time the load generator used in the window (user + system). */
  loadCpuSeconds: number;
}

/** Load generator -> orchestrator. The window events let the orchestrator sample server CPU over exactly the timed part. */
export type LoadMessage =
  | { type: 'window-start' }
  | { type: 'window-end' }
  | { type: 'result'; result: RoundResult }
  | { type: 'failed'; message: string };

export interface VirtualUser {
  /** One operation; throws on any answer that is not a success. */
  op(): Promise<void>;
  /** Ends what setup opened (not timed). */
  close(): Promise<void>;
}

const bareBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'platform_info', arguments: {} } });

function bareUser(agent: http.Agent, target: Target): VirtualUser {
  const url = new URL('/bare', target.baseUrl);
  const headers = { accept: 'application/json', 'content-type': 'application/json' };
  return {
    async op() {
      const answer = await send(agent, url, 'POST', headers, bareBody);
      if (answer.status !== 200) throw new OpError(`HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
      JSON.parse(answer.body);
    },
    async close() {},
  };
}

/** A virtual user holding one session for the whole round, repeating `call` on it. */
async function sessionUser(agent: http.Agent, target: Target, call: (session: McpSession) => Promise<void>): Promise<VirtualUser> {
  const session = await openSession(agent, target);
  return { op: () => call(session), close: () => session.close() };
}

const callPlatformInfo = async (session: McpSession) => {
  await session.request('tools/call', { name: 'platform_info', arguments: {} });
};

/** W2's operation: a whole session. A failed call still ends its session, so churn never piles up sessions. */
async function churn(agent: http.Agent, target: Target): Promise<void> {
  const session = await openSession(agent, target);
  try {
    await callPlatformInfo(session);
  } finally {
    await session.close();
  }
}

function readObject(object: BenchObject) {
  return async (session: McpSession) => {
    const result = (await session.request('tools/call', { name: 'objstore_get_object', arguments: { bucket: object.bucket, key: object.key } })) as {
      structuredContent?: { size?: number; truncated?: boolean };
    };
    const read = result.structuredContent;
    if (read?.size !== object.size || read.truncated !== false) throw new OpError(`objstore_get_object read ${JSON.stringify(read?.size)} bytes, truncated ${JSON.stringify(read?.truncated)}`);
  };
}

/** Sets up one virtual user of the round's workload. */
export async function virtualUser(agent: http.Agent, request: RoundRequest): Promise<VirtualUser> {
  const { target } = request;
  switch (request.workload) {
    case 'bare':
      return bareUser(agent, target);
    case 'W1':
      return sessionUser(agent, target, callPlatformInfo);
    case 'W2':
      return { op: () => churn(agent, target), async close() {} };
    case 'W3':
      return sessionUser(agent, target, async (session) => {
        await session.request('tools/list', {});
      });
    case 'W4':
      return sessionUser(agent, target, readObject(request.object));
  }
}
