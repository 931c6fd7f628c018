import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { housekeepingSchedule, housekeepingTasks } from '../../worker/index.js';

const sessionsTask = { name: 'purgeExpiredSessions', ttlMs: 86_400_000, idleTimeoutMs: 1_800_000 };

function config(yaml: string) {
  return parseConfig(yaml, {}).config;
}

describe('housekeepingTasks and audit retention', () => {
  it('adds purgeAuditLog with audit.retention_days when audit is active (enabled + database)', () => {
    const c = config('database:\n  dsn: postgresql://db/platform\naudit:\n  enabled: true\n  log_tool_calls: true\n  retention_days: 30\n');
    const tasks = housekeepingTasks(c);
    expect(tasks.map((t) => t.name)).toEqual(['purgeExpiredSessions', 'purgeAuditLog', 'purgeBotCheckAnswers', 'purgeEndpointFailures']);
    expect(tasks[1]).toEqual({ name: 'purgeAuditLog', retentionDays: 30 });
    expect(housekeepingSchedule(c).args).toEqual([{ tasks }]);
  });

  it('keeps pruning old rows when log_tool_calls is switched off but audit stays enabled', () => {
    const c = config('database:\n  dsn: postgresql://db/platform\naudit:\n  enabled: true\n');
    expect(housekeepingTasks(c)).toContainEqual({ name: 'purgeAuditLog', retentionDays: 90 });
  });

  it.each([
    ['audit disabled', 'database:\n  dsn: postgresql://db/platform\n'],
    ['no database', 'audit:\n  enabled: true\n  log_tool_calls: true\n'],
  ])('no audit task with %s', (_name, yaml) => {
    expect(housekeepingTasks(config(yaml)).map((t) => t.name)).not.toContain('purgeAuditLog');
  });

  it('a worker config without audit keys has no audit task', () => {
    const sessions = { store: 'memory', ttl: 86_400_000, idle_timeout: 1_800_000, cleanup_interval: 60_000 };
    expect(housekeepingTasks({ sessions })).toEqual([sessionsTask]);
  });
});

describe('housekeepingTasks and OAuth retention', () => {
  const oauth = 'oauth:\n  enabled: true\n  issuer: https://platform.example\n';

  it('adds purgeOAuthRecords, with the DCR retention windows, when the OAuth server keeps its records in the database', () => {
    const c = config(`database:\n  dsn: postgresql://db/platform\n${oauth}`);
    const tasks = housekeepingTasks(c);
    expect(tasks.map((t) => t.name)).toEqual(['purgeExpiredSessions', 'purgeOAuthRecords', 'purgeBotCheckAnswers', 'purgeEndpointFailures']);
    // Unused registrations a day after registration, used ones 90 days after their last use.
    expect(tasks[1]).toEqual({ name: 'purgeOAuthRecords', unusedClientMs: 86_400_000, idleClientMs: 90 * 86_400_000 });
    expect(housekeepingSchedule(c).args).toEqual([{ tasks }]);
  });

  it.each([
    ['the OAuth server disabled', 'database:\n  dsn: postgresql://db/platform\n'],
    ['no database (records in memory, swept by the api)', oauth],
  ])('no OAuth task with %s', (_name, yaml) => {
    expect(housekeepingTasks(config(yaml)).map((t) => t.name)).not.toContain('purgeOAuthRecords');
  });
});

describe('housekeepingTasks and the bot check', () => {
  it('adds purgeBotCheckAnswers and purgeEndpointFailures with a database (where the bot check records the answers it accepted, and endpoints their failed requests)', () => {
    expect(housekeepingTasks(config('database:\n  dsn: postgresql://db/platform\n'))).toEqual([
      { name: 'purgeExpiredSessions', ttlMs: 1_800_000, idleTimeoutMs: 1_800_000 },
      { name: 'purgeBotCheckAnswers' },
      { name: 'purgeEndpointFailures' },
    ]);
  });

  it('no bot-check or endpoint task without a database', () => {
    expect(housekeepingTasks(config('audit:\n  enabled: false\n')).map((t) => t.name)).toEqual(['purgeExpiredSessions']);
  });
});
