/**
 * platform.yaml section of managed scripts (issue 16; docs/scripts.md). Every key is ours:
 * - scripts.max_concurrent_runs   runs at once per replica; the next is refused busy
 * - scripts.max_runs_per_caller   of them, runs at once counted against one caller (a draft run's starter, a
 *                                 scheduled run's script, an endpoint's signed-in caller); the next is refused busy
 * - scripts.handler_reserved_runs of them, slots only endpoint handlers may take (at most half of
 *                                 max_concurrent_runs): draft and scheduled runs get the rest
 * - scripts.run_memory_bytes      memory ceiling of one run (the QuickJS module's whole linear memory)
 * - scripts.run_deadline          wall-clock budget of one run, enforced by interrupting it
 * - scripts.console_limit_bytes   console output a run keeps; what follows is "[truncated]"
 * - scripts.fetch.allow_hosts     hosts (and ports) platform.fetch may reach, none by default: `host` (its
 *                                 scheme's default port), `host:port`, `host:*`, `[v6]:port` (http/allowed-hosts.ts)
 * - scripts.fetch.timeout / max_response_bytes   bounds of one platform.fetch
 */

import { parseHostRule } from '../http/allowed-hosts.js';
import { dur, int, obj, strArray } from './schema-fields.js';

/** allow_hosts: each entry that states no host rule is refused with the reason. */
const hostEntries = () =>
  strArray().superRefine((entries, ctx) => {
    entries.forEach((entry, i) => {
      const rule = parseHostRule(entry);
      if ('problem' in rule) ctx.addIssue({ code: 'custom', path: [i], message: rule.problem });
    });
  });

export const scripts = obj({
  max_concurrent_runs: int({ min: 1 }).default(32),
  max_runs_per_caller: int({ min: 1 }).default(8),
  handler_reserved_runs: int({ min: 0 }).default(8),
  // The sandbox's floor is 16 MiB (the QuickJS build's initial memory).
  run_memory_bytes: int({ min: 16 * 1024 * 1024 }).default(64 * 1024 * 1024),
  run_deadline: dur('30s'),
  console_limit_bytes: int({ min: 1 }).default(64 * 1024),
  fetch: obj({
    allow_hosts: hostEntries().default([]),
    timeout: dur('10s'),
    max_response_bytes: int({ min: 1 }).default(4 * 1024 * 1024),
  }).prefault({}),
});
