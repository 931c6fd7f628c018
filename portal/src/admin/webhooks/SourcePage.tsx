/**
 * A webhook source's page (spec document 3, "The source page"): the sender URL, the table and how
 * to query it, requests by outcome for the last hour and day, the last event, the windows (length,
 * last compacted with its Parquet file, the oldest five owed, the last failure) with Retry per
 * window and Retry all failing, retention, the last 50 rejected requests; enable/disable, edit,
 * delete (with the removal state). Figures from GET …/{name}/status, refreshed every 5 s.
 */
import { useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Pencil, Power, RotateCcw, Trash2 } from 'lucide-react';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { AdminPage, Badge, Empty, Facts, QueryState, Section, Time, formatCount, relativeTime } from '../common';
import { OUTCOME_LABELS, stateTone, toggleBody, type OutcomeCounts, type SourceView } from './source-model';

type Status = Answer<'getWebhookSourceStatus'>;

export function SourcePage() {
  const name = useParams().name!;
  const location = useLocation();
  const status = useQuery({
    queryKey: ['webhook-status', name],
    queryFn: async () => unwrap(await api.GET('/api/v1/admin/webhooks/sources/{name}/status', { params: { path: { name } } })),
    refetchInterval: 5_000,
  });
  const view = useQuery({
    queryKey: ['webhook-source', name],
    queryFn: async () => unwrap(await api.GET('/api/v1/admin/webhooks/sources/{name}', { params: { path: { name } } })),
    refetchInterval: 5_000,
  });
  const [notice, setNotice] = useState<string | undefined>((location.state as { saved?: string } | null)?.saved ? `Source ${(location.state as { saved: string }).saved}.` : undefined);
  const noticeRef = useRef<HTMLDivElement>(null);
  const announce = (text: string) => {
    setNotice(text);
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const gone = status.error instanceof ApiError && status.error.status === 404;
  if (gone) {
    return (
      <AdminPage title={name} back={{ to: '/admin/webhooks', label: 'Webhook sources' }}>
        <p role="status">There is no source named {name} (any more): a deleted source is gone once its removal finished.</p>
      </AdminPage>
    );
  }
  const source = view.data;
  return (
    <AdminPage
      title={name}
      back={{ to: '/admin/webhooks', label: 'Webhook sources' }}
      description={source ? <Badge tone={stateTone(source.state)}>{source.state}</Badge> : undefined}
      actions={source && source.state !== 'removing' ? <SourceActions source={source} announce={announce} /> : null}
    >
      <div ref={noticeRef} tabIndex={-1} className="admin-notice">
        {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      </div>
      {source?.state === 'removing' ? (
        <p role="status" className="admin-refused">
          <strong>Being removed</strong> since <Time at={source.removing_since} />: it receives nothing; its table, windows, Parquet files and raw segments are
          removed step by step, then the source itself (its name is free again once that finished).
        </p>
      ) : null}
      <QueryState query={status} what="the source's figures" />
      {status.data ? <StatusView status={status.data} source={source} announce={announce} /> : null}
    </AdminPage>
  );
}

function SourceActions({ source, announce }: { source: SourceView; announce(text: string): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['webhook-source', source.name] }),
      queryClient.invalidateQueries({ queryKey: ['webhook-status', source.name] }),
      queryClient.invalidateQueries({ queryKey: ['webhook-sources'] }),
    ]);
  const toggle = useMutation({
    mutationFn: async () => unwrap(await api.PUT('/api/v1/admin/webhooks/sources/{name}', { params: { path: { name: source.name } }, body: toggleBody(source, !source.enabled) as never })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(['webhook-source', source.name], saved);
      await refresh();
      announce(saved.enabled ? 'Enabled: the source receives events again.' : 'Disabled: the source answers 404 until it is enabled.');
    },
    onError: (error) => announce(`Not changed: ${messageOf(error)}`),
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/admin/webhooks/sources/{name}', { params: { path: { name: source.name } } })),
    onSuccess: async (removed) => {
      setConfirming(false);
      queryClient.setQueryData(['webhook-source', source.name], removed);
      await refresh();
      announce('Deleted: the source receives nothing now and is being removed.');
    },
  });
  return (
    <>
      <Button onPress={() => navigate(`/admin/webhooks/${encodeURIComponent(source.name)}/edit`)}>
        <Pencil aria-hidden size={16} /> Edit
      </Button>
      <Button onPress={() => toggle.mutate()} isDisabled={toggle.isPending}>
        <Power aria-hidden size={16} /> {source.enabled ? 'Disable' : 'Enable'}
      </Button>
      <Button variant="danger" onPress={() => setConfirming(true)}>
        <Trash2 aria-hidden size={16} /> Delete
      </Button>
      <Dialog title={`Delete ${source.name}?`} role="alertdialog" isOpen={confirming} onOpenChange={setConfirming}>
        <p>
          It stops receiving at once (its address answers 404). Its table <code>{source.table}</code>, every window, the Parquet files and the raw
          segments are removed; the name is free again once that finished.
        </p>
        {remove.isError ? <ErrorMessage>{messageOf(remove.error)}</ErrorMessage> : null}
        <DialogActions>
          <Button onPress={() => setConfirming(false)} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
            Delete source
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function StatusView({ status, source, announce }: { status: Status; source: SourceView | undefined; announce(text: string): void }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: async (window: string | 'failing') =>
      window === 'failing'
        ? unwrap(await api.POST('/api/v1/admin/webhooks/sources/{name}/windows/retry-failing', { params: { path: { name: status.name } } }))
        : unwrap(await api.POST('/api/v1/admin/webhooks/sources/{name}/windows/{window}/retry', { params: { path: { name: status.name, window } } })),
    onSuccess: async (answer, window) => {
      await queryClient.invalidateQueries({ queryKey: ['webhook-status', status.name] });
      const names = answer.retried.map((r) => r.window).join(', ');
      announce(
        answer.retried.length === 0
          ? 'No window was failing: nothing to retry.'
          : `Compaction started again for ${names}${window === 'failing' ? ' (every failing window)' : ''}.`,
      );
    },
    onError: (error) => announce(`Not retried: ${messageOf(error)}`),
  });
  const editable = source?.state !== 'removing';
  const connection = source?.connection;
  return (
    <>
      <div className="admin-grid">
        <Section title="Sending">
          <Facts
            items={[
              ['Sender URL', <code className="admin-inline-code">{status.sender_url}</code>],
              ...(status.sender_url_note ? ([['Path token', status.sender_url_note]] as Array<[string, ReactNode]>) : []),
              ['Authentication', source ? `${source.auth.mode}${source.auth.secret_set ? ', secret set' : ', no secret set'}` : '—'],
              ['Table', <code className="admin-inline-code">{status.table}</code>],
              ['Connection', connection],
            ]}
          />
          <p className="admin-note">
            Query it with <code>sql_query</code> on connection <code>{connection ?? '…'}</code>:{' '}
            <code className="admin-inline-code">
              SELECT received_at, event_type, json_extract_scalar(payload, '$.id') FROM {status.table} ORDER BY received_at DESC LIMIT 100
            </code>
          </p>
        </Section>
        <Section title="Requests">
          <Facts
            items={[
              ['Events, last hour', formatCount(status.events.last_hour)],
              ['Events, last day', formatCount(status.events.last_day)],
              ['Last event', status.last_event_at ? <><Time at={status.last_event_at} /> ({relativeTime(status.last_event_at)})</> : 'none yet'],
            ]}
          />
          <OutcomeChart title="Requests by outcome, last hour" counts={status.requests.last_hour} />
          <OutcomeChart title="Requests by outcome, last day" counts={status.requests.last_day} />
        </Section>
      </div>

      <Section
        title="Windows"
        actions={
          editable && status.last_failure ? (
            <Button onPress={() => retry.mutate('failing')} isDisabled={retry.isPending}>
              <RotateCcw aria-hidden size={16} /> Retry all failing
            </Button>
          ) : null
        }
      >
        <Facts
          items={[
            ['Window length', `${status.window_minutes} min`],
            [
              'Last compacted',
              status.last_compacted ? (
                <>
                  {status.last_compacted.window} at <Time at={status.last_compacted.compacted_at} />
                  {status.last_compacted.resource_id ? (
                    <>
                      {' — '}
                      <Link to={`/resources/${status.last_compacted.resource_id}/parquet`}>Open the Parquet file (version {status.last_compacted.version})</Link>
                    </>
                  ) : null}
                  <WorkflowLink url={status.last_compacted.workflow_url} />
                </>
              ) : (
                'none yet'
              ),
            ],
            ['Windows owed', formatCount(status.windows_owed.count)],
          ]}
        />
        {status.last_failure ? (
          <div className="admin-card" role="group" aria-labelledby="last-failure-title">
            <h3 id="last-failure-title">
              <Badge tone="bad">failing</Badge> Last failure: window {status.last_failure.window}
            </h3>
            <Facts
              items={[
                ['Reason', <span className="admin-inline-code">{status.last_failure.reason}</span>],
                ['Attempts', String(status.last_failure.attempts)],
                ['Failed', <Time at={status.last_failure.failed_at} />],
                ['Next try', status.last_failure.next_try_at ? <Time at={status.last_failure.next_try_at} /> : 'at the next sweep (retried)'],
              ]}
            />
            <div className="form-actions">
              {editable ? (
                <Button onPress={() => retry.mutate(status.last_failure!.window)} isDisabled={retry.isPending} aria-label={`Retry window ${status.last_failure.window}`}>
                  <RotateCcw aria-hidden size={16} /> Retry
                </Button>
              ) : null}
              <WorkflowLink url={status.last_failure.workflow_url} />
            </div>
          </div>
        ) : null}
        {status.windows_owed.oldest.length > 0 ? (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption>
                {status.windows_owed.count === 1 ? 'The window owed a compaction' : `The oldest ${status.windows_owed.oldest.length} of ${status.windows_owed.count} windows owed a compaction`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Ended</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {status.windows_owed.oldest.map((w) => (
                  <tr key={w.window}>
                    <th scope="row" className="mono">
                      {w.window}
                    </th>
                    <td>
                      <Time at={w.ended_at} />
                    </td>
                    <td>{w.attempts > 0 ? <Badge tone="bad">{`failing (${w.attempts} ${w.attempts === 1 ? 'attempt' : 'attempts'})`}</Badge> : <Badge tone="info">owed</Badge>}</td>
                    <td>
                      <span className="form-actions">
                        {editable ? (
                          <Button onPress={() => retry.mutate(w.window)} isDisabled={retry.isPending} aria-label={`Retry window ${w.window}`}>
                            <RotateCcw aria-hidden size={14} /> Retry
                          </Button>
                        ) : null}
                        <WorkflowLink url={w.workflow_url} />
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <Empty>No window is owed a compaction.</Empty>
        )}
      </Section>

      <Section title="Retention">
        <Facts
          items={[
            ['Oldest window held', status.retention.oldest_window ?? 'none'],
            ['Raw segments kept', `${status.retention.raw_retention_days} days after their window is compacted`],
            ['Compacted windows kept', status.retention.compacted_retention_days === 0 ? 'forever' : `${status.retention.compacted_retention_days} days`],
          ]}
        />
      </Section>

      <Section title="Rejected requests">
        {status.rejections.length === 0 ? (
          <Empty>No request was refused.</Empty>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption>
                {status.rejections.length === 1 ? 'The last refused request' : `The last ${status.rejections.length} refused requests, newest first`} (never their bodies)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {status.rejections.map((r, i) => (
                  <tr key={`${r.at}-${i}`}>
                    <td>
                      <Time at={r.at} />
                    </td>
                    <td>{OUTCOME_LABELS[r.outcome as keyof OutcomeCounts] ?? r.outcome}</td>
                    <td className="wrap">{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

function WorkflowLink({ url }: { url: string | null }) {
  if (!url) return null;
  return (
    <>
      {' '}
      <a href={url} target="_blank" rel="noreferrer noopener">
        Compaction workflow <ExternalLink aria-hidden size={12} />
        <span className="visually-hidden"> (Temporal UI, opens a new tab)</span>
      </a>
    </>
  );
}

/** Requests by outcome as horizontal bars (a table for screen readers: each bar's label and count are its text). */
function OutcomeChart({ title, counts }: { title: string; counts: OutcomeCounts }) {
  const entries = (Object.keys(OUTCOME_LABELS) as Array<keyof OutcomeCounts>).map((outcome) => [outcome, counts[outcome] ?? 0] as const);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return (
    <figure className="bar-chart" aria-label={title}>
      <figcaption>
        <strong>{title}</strong> ({formatCount(total)} in all)
      </figcaption>
      {entries.map(([outcome, n]) => (
        <div className="bar-row" key={outcome}>
          <span>{OUTCOME_LABELS[outcome]}</span>
          <span className="bar-track" aria-hidden>
            <span className={outcome === 'accepted' ? 'bar-fill' : 'bar-fill bar-bad'} style={{ width: `${(n / max) * 100}%`, display: 'block' }} />
          </span>
          <span className="bar-value">{formatCount(n)}</span>
        </div>
      ))}
    </figure>
  );
}
