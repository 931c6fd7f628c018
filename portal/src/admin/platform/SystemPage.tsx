/**
 * System (docs/admin.md, "GET /system"): versions, the platform database and Temporal with a probe
 * of each, the audit switches and where the Temporal UI is.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { AdminPage, Badge, Facts, QueryState, Section, Time } from '../common';

type Health = { ok: boolean; latency_ms: number | null; error: string | null };

function HealthBadge({ health, configured }: { health: Health; configured: boolean }) {
  if (!configured) return <Badge tone="off">not configured</Badge>;
  return (
    <>
      <Badge tone={health.ok ? 'ok' : 'bad'}>{health.ok ? 'reachable' : 'unreachable'}</Badge>
      {health.latency_ms !== null ? ` ${health.latency_ms} ms` : ''}
      {health.error ? <div className="admin-inline-code">{health.error}</div> : null}
    </>
  );
}

export function SystemPage() {
  const system = useQuery({ queryKey: ['admin-system'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/system')) });
  const s = system.data;
  return (
    <AdminPage
      title="System"
      description="What runs, and the state of the platform database and Temporal, probed now."
      actions={
        system.isError ? null : (
          <Button onPress={() => void system.refetch()} isDisabled={system.isFetching}>
            {system.isFetching ? 'Checking…' : 'Check again'}
          </Button>
        )
      }
    >
      <QueryState query={system} what="the system's state" />
      {s ? (
        <div className="admin-grid">
          <Section title="Platform">
            <Facts
              items={[
                ['Server', `${s.server.name} ${s.server.version}`],
                ['Description', s.server.description],
                ['Build', s.platform.version],
                ['Node.js', s.platform.node],
                ['Started', <Time at={s.platform.started_at} />],
                ['Portal', s.portal.enabled ? s.portal.public_base_url || 'enabled' : 'off'],
                ['Admin API', `${s.admin.path_prefix} · persona ${s.admin.persona}`],
              ]}
            />
          </Section>
          <Section title="Database">
            <Facts
              items={[
                ['State', <HealthBadge health={s.database.health} configured={s.database.configured} />],
                ['Version', s.database.version],
                ['Newest migration', s.database.migration ? `${String(s.database.migration.version).padStart(4, '0')} ${s.database.migration.name}` : null],
              ]}
            />
          </Section>
          <Section title="Temporal">
            <Facts
              items={[
                ['State', <HealthBadge health={s.temporal.health} configured={s.temporal.configured} />],
                ['Address', s.temporal.address],
                ['Namespace', s.temporal.namespace],
                ['Task queue', s.temporal.task_queue],
                [
                  'Web UI',
                  s.temporal.ui_url ? (
                    <a href={s.temporal.ui_url} target="_blank" rel="noreferrer noopener">
                      {s.temporal.ui_url}
                    </a>
                  ) : (
                    'not known (temporal.ui_url)'
                  ),
                ],
              ]}
            />
          </Section>
          <Section title="Audit">
            <Facts
              items={[
                ['Recording', s.audit.recording ? <Badge tone="ok">on</Badge> : <Badge tone="off">off</Badge>],
                ['Tool calls', s.audit.log_tool_calls ? 'recorded' : 'not recorded (audit.log_tool_calls)'],
                ['Kept', `${s.audit.retention_days} days`],
              ]}
            />
          </Section>
        </div>
      ) : null}
    </AdminPage>
  );
}
