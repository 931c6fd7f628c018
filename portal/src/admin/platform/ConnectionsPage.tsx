/**
 * Connections (docs/admin.md, "GET /connections"): every SQL, object-storage and catalog connection,
 * where it points and a probe of it made when the page asked (Check again probes anew).
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { AdminPage, Badge, Empty, QueryState } from '../common';

export function ConnectionsPage() {
  const connections = useQuery({ queryKey: ['admin-connections'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/connections')) });
  return (
    <AdminPage
      title="Connections"
      description="The platform's SQL, object-storage and catalog connections and their health, probed now (at most 5 s each)."
      actions={
        connections.isError ? null : (
          <Button onPress={() => void connections.refetch()} isDisabled={connections.isFetching}>
            {connections.isFetching ? 'Checking…' : 'Check again'}
          </Button>
        )
      }
    >
      <QueryState query={connections} what="the connections" />
      {connections.data && connections.data.connections.length === 0 ? <Empty>No connection is configured.</Empty> : null}
      {connections.data && connections.data.connections.length > 0 ? (
        <div className="admin-table-wrap" aria-busy={connections.isFetching}>
          <table className="admin-table">
            <caption className="visually-hidden">Connections</caption>
            <thead>
              <tr>
                <th scope="col">Connection</th>
                <th scope="col">Kind</th>
                <th scope="col">Engine</th>
                <th scope="col">Points at</th>
                <th scope="col">Flags</th>
                <th scope="col">Health</th>
              </tr>
            </thead>
            <tbody>
              {connections.data.connections.map((c) => (
                <tr key={`${c.kind}:${c.name}`}>
                  <th scope="row">
                    {c.display_name}
                    {c.display_name !== c.name ? <div className="admin-note mono">{c.name}</div> : null}
                  </th>
                  <td>{c.kind}</td>
                  <td>{c.engine}</td>
                  <td className="mono wrap">{c.target ?? '—'}</td>
                  <td>{[c.is_default ? 'default' : '', c.read_only ? 'read-only' : '', c.internal ? 'platform only' : ''].filter(Boolean).join(', ') || '—'}</td>
                  <td className="wrap">
                    <Badge tone={c.health.ok ? 'ok' : 'bad'}>{c.health.ok ? 'healthy' : 'failing'}</Badge>
                    {c.health.latency_ms !== null ? ` ${c.health.latency_ms} ms` : ''}
                    {c.health.error ? <div className="admin-inline-code">{c.health.error}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </AdminPage>
  );
}
