/**
 * platform.yaml sections of the server process and how it is run and observed: server and
 * audit (document 1), and our own temporal, secrets and metrics sections (see schema.ts).
 *
 * Keys this implementation adds here (not in the spec; documented in platform.example.yaml)
 * - temporal.address            host:port of the Temporal frontend. Absent: `platform dev`
 *                                starts an embedded dev server; `serve`/`worker` refuse
 *                                features that need durable jobs.
 * - temporal.namespace          default `default`
 * - temporal.task_queue         default `platform`
 * - temporal.ui_url             the Temporal Web UI's address (e.g. https://temporal.acme.internal);
 *                                the portal links workflows there (a window's compaction). Empty:
 *                                no links; `platform dev` sets its dev server's UI when empty
 * - temporal.tls.enabled        default false; cert_file, key_file, ca_file, server_name
 * - secrets.encryption_key      base64 of exactly 32 bytes; AES-256-GCM key for secrets at rest
 * - metrics.address             when set, Prometheus /metrics is served on its own listener there
 * - server.body_limit           bytes, default 4194304; larger HTTP bodies get 413
 * - server.headers_timeout      default 10s: a request's headers must have arrived by then (408, closed)
 * - server.request_timeout      default 5m: a whole request, headers and body, must have arrived by
 *                                then, authenticated or not (408, closed; 0s: no limit)
 * - server.body_read_timeout    default 30s: a body read before its request authenticated must have
 *                                arrived this long after the request started (408, closed)
 * - server.unauthenticated_body_bytes  default 67108864: bytes of such bodies one replica holds at
 *                                once; past it 503 with Retry-After: 1, closed (docs/security.md)
 * - server.allowed_origins      Origin values allowed on /mcp besides same-host origins
 * - server.workers              default 1: api processes `platform serve` runs on the one
 *                                listen address (node:cluster); above 1 needs sessions.store
 *                                database and an HTTP transport (rules.ts)
 * - audit.queue_size            default 10000: audit records held in memory (queued plus the batch
 *                                being written) before they reach the database
 * - audit.on_queue_full         what happens to a tool call's audit record when that queue is full:
 *                                `drop` (default) discards the record, counts it in
 *                                platform_audit_dropped_total{reason="queue_full"} and the call
 *                                returns at once; `block` makes the call wait until a written batch
 *                                frees room (backpressure: no record lost, calls slow down while the
 *                                database is slow or down). See docs/audit.md.
 */

import { z } from 'zod';
import { BUILTIN_SERVER_NAME } from './builtins.js';
import {
  ADDRESS,
  address,
  base64Key,
  bool,
  dur,
  emptyOrHttpUrl,
  emptyToUndefined,
  int,
  obj,
  oneOf,
  optStr,
  origin,
  str,
  strArray,
} from './schema-fields.js';

// ---------------------------------------------------------------------------
// server

const promptArgument = obj({
  name: str(),
  description: optStr(),
  required: bool().default(false),
});

/** One operator prompt: a server.prompts entry, and a tuning.prompts_dir file's front matter plus body. */
export const serverPrompt = obj({
  name: str().min(1, 'must not be empty'),
  description: optStr(),
  content: str(),
  arguments: z.array(promptArgument).default([]),
});

export const server = obj({
  name: str().default(BUILTIN_SERVER_NAME),
  version: str().default('1.0.0'),
  description: optStr(),
  tags: strArray().default([]),
  agent_instructions: optStr(),
  prompts: z.array(serverPrompt).default([]),
  transport: oneOf(['stdio', 'http', 'sse']).default('stdio'),
  address: address().default(':8080'),
  streamable: obj({
    session_timeout: dur('30m'),
    stateless: bool().default(false),
    // ours: resumable streams (Last-Event-ID replay, priming events, SSE polling)
    retry_interval: dur('1s'),
    keep_alive: dur('15s', { positive: false }),
    replay_window: int({ min: 1 }).default(500),
    replay_ttl: dur('5m'),
    // ours: a request answered at once gets one JSON body instead of a stream (0s: always a stream)
    json_answer_within: dur('1s', { positive: false }),
  }).prefault({}),
  tls: obj({
    enabled: bool().default(false),
    cert_file: optStr(),
    key_file: optStr(),
  }).prefault({}),
  shutdown: obj({
    grace_period: dur('25s', { positive: false }),
    pre_shutdown_delay: dur('2s', { positive: false }),
  }).prefault({}),
  // ours
  body_limit: int({ min: 1 }).default(4_194_304),
  headers_timeout: dur('10s'),
  request_timeout: dur('5m', { positive: false }),
  body_read_timeout: dur('30s'),
  unauthenticated_body_bytes: int({ min: 1 }).default(64 * 1024 * 1024),
  allowed_origins: z.array(origin()).default([]),
  workers: int({ min: 1 }).default(1),
});

// ---------------------------------------------------------------------------
// audit

export const audit = obj({
  enabled: bool().default(false),
  log_tool_calls: bool().default(false),
  retention_days: int({ min: 1 }).default(90),
  // ours
  queue_size: int({ min: 1 }).default(10_000),
  on_queue_full: oneOf(['drop', 'block']).default('drop'),
});

// ---------------------------------------------------------------------------
// our own sections

export const temporal = obj({
  address: z.preprocess(
    emptyToUndefined,
    str()
      .refine((v) => {
        const m = ADDRESS.exec(v);
        return m !== null && m[1] !== '' && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
      }, 'expected host:port, like temporal.internal:7233')
      .optional(),
  ),
  namespace: str().min(1, 'must not be empty').default('default'),
  task_queue: str().min(1, 'must not be empty').default('platform'),
  ui_url: emptyOrHttpUrl(),
  tls: obj({
    enabled: bool().default(false),
    cert_file: optStr(),
    key_file: optStr(),
    ca_file: optStr(),
    server_name: optStr(),
  }).prefault({}),
});

export const secrets = obj({
  /** base64 of exactly 32 bytes (AES-256-GCM). */
  encryption_key: base64Key({ exact: 32 }),
});

export const metrics = obj({
  address: z.preprocess(emptyToUndefined, address().optional()),
});
