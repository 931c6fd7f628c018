/**
 * platform.yaml section of inbound webhooks: document 3's deployment keys (see schema.ts).
 */

import { z } from 'zod';
import { address, bool, dur, int, obj } from './schema-fields.js';

// ---------------------------------------------------------------------------
// webhooks (document 3 deployment keys)

export const webhooks = obj({
  receiver: obj({
    enabled: bool().default(true),
    address: z.union([z.literal(''), address()], { error: 'expected a listen address like :8081' }).default(''),
    write_timeout: dur('30s'),
  }).prefault({}),
  compactor: obj({
    enabled: bool().default(true),
    grace: dur('2m', { positive: false }),
    poll: dur('30s'),
    lease: dur('10m'),
    batch: int({ min: 1 }).default(4),
    retry_backoff: dur('1m'),
    retention_every: dur('10m'),
    // ours: DuckDB's memory for one compaction's merge (bytes): a thread per 64 MiB beyond 512 MiB
    // (at least one, at most one per core); it spills past it (docs/webhooks.md)
    memory_limit: int({ min: 1 }).default(1_073_741_824),
  }).prefault({}),
});
