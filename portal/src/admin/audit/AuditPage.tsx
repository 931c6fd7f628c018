/**
 * The audit trail (docs/audit.md, "Reading the trail"): who did what when — tool or event, outcome,
 * duration, parameters with secrets redacted by the api — filtered by user, tool, outcome and time
 * range (kept in the address, so a filtered view is a link), paged by the api's cursor, and the
 * filtered range exported as CSV.
 */
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { DEFAULT_ADMIN_PREFIX, api, unwrap } from '../../api/client';
import { usePortalSettings } from '../../app/settings';
import type { Answer } from '../../api/types';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { AdminPage, Badge, Empty, QueryState, Time, formatDuration } from '../common';
import { SelectField } from '../form';

type Record_ = Answer<'listAuditRecords'>['items'][number];
const OUTCOMES = [
  { value: '', label: 'any' },
  { value: 'ok', label: 'ok' },
  { value: 'error', label: 'error' },
  { value: 'denied', label: 'denied' },
] as const;
type Outcome = (typeof OUTCOMES)[number]['value'];
const FILTERS = ['user', 'tool', 'outcome', 'from', 'to'] as const;

/** A datetime-local value (the browser's zone) as ISO 8601, or undefined. */
function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** ISO 8601 as a datetime-local value in the browser's zone. */
function localOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.flatMap((f) => (params.get(f) ? [[f, params.get(f)!]] : []))) as Partial<Record<(typeof FILTERS)[number], string>>;
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({
    queryKey: ['audit', filters, cursor],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/admin/audit', {
          params: { query: { ...filters, outcome: filters.outcome as 'ok' | 'error' | 'denied' | undefined, limit: 50, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const exportQuery = new URLSearchParams(filters).toString();
  const prefix = usePortalSettings().data?.admin_path_prefix || DEFAULT_ADMIN_PREFIX;
  const settings = page.data?.settings;
  return (
    <AdminPage
      title="Audit"
      description="Tool calls, script changes and runs, endpoint requests and resource reads, newest first. Parameters are shown with secrets redacted."
      wide
      actions={
        page.isSuccess ? (
          <a className="button" href={`${prefix}/audit/export.csv${exportQuery ? `?${exportQuery}` : ''}`} download>
            <Download aria-hidden size={16} /> Export CSV
          </a>
        ) : null
      }
    >
      {page.isError && !page.data ? null : (
        <AuditFilters
          key={params.toString()}
          initial={filters}
          onApply={(next) => {
            setCursors([]);
            setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as Record<string, string>);
          }}
        />
      )}
      {settings && (!settings.enabled || !settings.log_tool_calls) ? (
        <p className="admin-note" role="note">
          {!settings.enabled ? 'Audit is off (audit.enabled): nothing new is recorded.' : 'Tool calls are not recorded (audit.log_tool_calls is off); script changes, runs, endpoint requests and resource reads are.'}
        </p>
      ) : null}
      <QueryState query={page} what="the audit trail" />
      {page.data && page.data.items.length === 0 ? <Empty>No audit row matches.</Empty> : null}
      {page.data && page.data.items.length > 0 ? <AuditTable items={page.data.items} busy={page.isFetching} /> : null}
      {page.data ? (
        <div className="pager">
          <Button onPress={() => setCursors((c) => c.slice(0, -1))} isDisabled={cursors.length === 0}>
            Newer
          </Button>
          <span role="status">{`Page ${cursors.length + 1}${settings ? ` · kept ${settings.retention_days} days` : ''}`}</span>
          <Button onPress={() => page.data?.next_cursor && setCursors((c) => [...c, page.data!.next_cursor!])} isDisabled={!page.data?.next_cursor}>
            Older
          </Button>
        </div>
      ) : null}
    </AdminPage>
  );
}

function AuditFilters({ initial, onApply }: { initial: Partial<Record<(typeof FILTERS)[number], string>>; onApply(filters: Record<string, string | undefined>): void }) {
  const [user, setUser] = useState(initial.user ?? '');
  const [tool, setTool] = useState(initial.tool ?? '');
  const [outcome, setOutcome] = useState<Outcome>((initial.outcome as Outcome) ?? '');
  const [from, setFrom] = useState(localOf(initial.from ?? null));
  const [to, setTo] = useState(localOf(initial.to ?? null));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ user: user.trim(), tool: tool.trim(), outcome, from: isoOf(from), to: isoOf(to) });
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filter the audit trail">
      <Field label="User" value={user} onChange={setUser} description="Subject or email contains" />
      <Field label="Tool or event" value={tool} onChange={setTool} description="e.g. sql_query, or endpoint:* for a prefix" />
      <SelectField label="Outcome" value={outcome} onChange={(v) => setOutcome(v as Outcome)} options={OUTCOMES} />
      <Field label="From" type="datetime-local" value={from} onChange={setFrom} />
      <Field label="To" type="datetime-local" value={to} onChange={setTo} />
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
      <Button
        onPress={() => {
          setUser('');
          setTool('');
          setOutcome('');
          setFrom('');
          setTo('');
          onApply({});
        }}
      >
        Clear
      </Button>
    </form>
  );
}

function AuditTable({ items, busy }: { items: Record_[]; busy: boolean }) {
  return (
    <div className="admin-table-wrap" aria-busy={busy}>
      <table className="admin-table">
        <caption className="visually-hidden">Audit rows, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Tool or event</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Parameters</th>
          </tr>
        </thead>
        <tbody>
          {items.map((row) => (
            <tr key={row.id}>
              <td>
                <Time at={row.occurred_at} />
              </td>
              <td className="wrap">
                {row.email ?? row.subject}
                {row.email ? <div className="admin-note">{row.subject}</div> : null}
                {row.persona ? <div className="admin-note">persona {row.persona}</div> : null}
              </td>
              <td className="mono">{row.tool}</td>
              <td>
                <Badge tone={row.outcome === 'ok' ? 'ok' : row.outcome === 'denied' ? 'warn' : 'bad'}>{row.outcome}</Badge>
                {row.error_text ? <div className="wrap admin-inline-code">{row.error_text}</div> : null}
              </td>
              <td className="num">{formatDuration(row.duration_ms)}</td>
              <td>
                <details className="params-details">
                  <summary>{summaryOf(row.parameters)}</summary>
                  <pre className="params">{JSON.stringify(row.parameters, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A one-line glimpse of the parameters (the whole is under it). */
function summaryOf(parameters: unknown): string {
  if (parameters === null || typeof parameters !== 'object') return String(parameters);
  const text = Object.entries(parameters as Record<string, unknown>)
    .slice(0, 3)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text || '(none)';
}
