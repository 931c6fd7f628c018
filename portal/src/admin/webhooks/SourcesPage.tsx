/**
 * Webhook sources (Admin > Webhooks): each source with its state, sender URL, table, requests and
 * events of the last hour and day, last event, windows owed and last failure — the figures its page
 * shows (GET …/webhooks/sources?figures=true), refreshed every 15 s — and the way to a new one.
 */
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { api, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';
import { AdminPage, Badge, Empty, QueryState, Time, formatCount } from '../common';
import { refusedRequests, stateTone } from './source-model';

export type SourceRow = Answer<'listWebhookSources'>['sources'][number];

export function useSources() {
  return useQuery({
    queryKey: ['webhook-sources'],
    queryFn: async () => unwrap(await api.GET('/api/v1/admin/webhooks/sources', { params: { query: { figures: 'true' } } })),
    refetchInterval: 15_000,
  });
}

export function SourcesPage() {
  const sources = useSources();
  return (
    <AdminPage
      title="Webhook sources"
      description="Partner systems POST events to /hooks/<name>; each event is queryable at once and every window is compacted into one Parquet file."
      actions={
        sources.isSuccess ? (
          <Link className="button button-primary" to="/admin/webhooks/new">
            <Plus aria-hidden size={16} /> New source
          </Link>
        ) : null
      }
    >
      <QueryState query={sources} what="the webhook sources" />
      {sources.data && sources.data.sources.length === 0 ? <Empty>No webhook source yet.</Empty> : null}
      {sources.data && sources.data.sources.length > 0 ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Webhook sources</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">State</th>
                <th scope="col">Sender URL</th>
                <th scope="col">Table</th>
                <th scope="col" className="num">
                  Events 1 h / 24 h
                </th>
                <th scope="col" className="num">
                  Refused 24 h
                </th>
                <th scope="col">Last event</th>
                <th scope="col" className="num">
                  Windows owed
                </th>
                <th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {sources.data.sources.map((source) => (
                <SourceRowView key={source.id} source={source} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </AdminPage>
  );
}

function SourceRowView({ source }: { source: SourceRow }) {
  const figures = source.figures;
  return (
    <tr>
      <th scope="row">
        <Link to={`/admin/webhooks/${encodeURIComponent(source.name)}`}>{source.name}</Link>
      </th>
      <td>
        <Badge tone={stateTone(source.state)}>{source.state}</Badge>
      </td>
      <td className="mono wrap">{figures?.sender_url ?? source.path}</td>
      <td className="mono">{source.table}</td>
      <td className="num">{figures ? `${formatCount(figures.events.last_hour)} / ${formatCount(figures.events.last_day)}` : '—'}</td>
      <td className="num">{figures ? formatCount(refusedRequests(figures.requests.last_day)) : '—'}</td>
      <td>{figures ? <Time at={figures.last_event_at} relative /> : '—'}</td>
      <td className="num">{figures ? formatCount(figures.windows_owed) : '—'}</td>
      <td className="wrap">
        {figures?.last_failure ? (
          <>
            <Badge tone="bad">failing</Badge> {figures.last_failure.window}: {figures.last_failure.reason} ({figures.last_failure.attempts}{' '}
            {figures.last_failure.attempts === 1 ? 'attempt' : 'attempts'})
          </>
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}
