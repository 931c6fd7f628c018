/**
 * The script's runs, newest first (GET …/{id}/runs, paged): when, what started it, the version,
 * status, duration, error and console. An administrator retries a failed scheduled run.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { StatusMessage } from '../../ui/Alert';
import { Badge, Empty, QueryState, Time, formatDuration } from '../common';
import { runTone, type ScriptDetail, type ScriptRun } from './script-model';

export function RunsTab({ script, administrator }: { script: ScriptDetail; administrator: boolean }) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | undefined>();
  const runs = useInfiniteQuery({
    queryKey: ['script-runs', script.id],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(await api.GET('/api/v1/portal/scripts/{id}/runs', { params: { path: { id: script.id }, query: { limit: 25, ...(pageParam ? { before: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const retry = useMutation({
    mutationFn: async (run: ScriptRun) => unwrap(await api.POST('/api/v1/portal/scripts/{id}/runs/{runId}/retry', { params: { path: { id: script.id, runId: run.id } } })),
    onSuccess: async (answer) => {
      setNotice(`Retry started (workflow ${answer.workflow_id}); its run appears here when it finished.`);
      await queryClient.invalidateQueries({ queryKey: ['script-runs', script.id] });
    },
    onError: (error) => setNotice(`Not retried: ${messageOf(error)}`),
  });
  const all = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  return (
    <>
      <div className="form-actions">
        <Button onPress={() => void runs.refetch()} isDisabled={runs.isFetching}>
          Refresh
        </Button>
        {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      </div>
      <QueryState query={runs} what="the runs" />
      {runs.isSuccess && all.length === 0 ? <Empty>No run yet.</Empty> : null}
      {all.length > 0 ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Trigger</th>
                <th scope="col" className="num">
                  Version
                </th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Error and console</th>
                <th scope="col">Started by</th>
              </tr>
            </thead>
            <tbody>
              {all.map((run) => (
                <tr key={run.id}>
                  <td>
                    <Time at={run.started_at} />
                  </td>
                  <td>
                    {run.trigger}
                    {run.retry_of ? ' (retry)' : ''}
                  </td>
                  <td className="num">{run.version ?? '—'}</td>
                  <td>
                    <Badge tone={runTone(run.status)}>{run.status}</Badge>
                  </td>
                  <td className="num">{formatDuration(run.duration_ms)}</td>
                  <td className="wrap">
                    {run.error ? <span className="admin-inline-code">{run.error}</span> : null}
                    {run.console ? (
                      <details className="params-details">
                        <summary>Console</summary>
                        <pre className="console">{run.console}</pre>
                      </details>
                    ) : null}
                    {administrator && run.trigger === 'schedule' && run.status !== 'ok' ? (
                      <Button onPress={() => retry.mutate(run)} isDisabled={retry.isPending} aria-label={`Retry the run of ${run.started_at}`}>
                        <RotateCcw aria-hidden size={14} /> Retry
                      </Button>
                    ) : null}
                  </td>
                  <td className="wrap">{run.started_by}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {runs.hasNextPage ? (
        <Button onPress={() => void runs.fetchNextPage()} isDisabled={runs.isFetchingNextPage}>
          Older runs
        </Button>
      ) : null}
    </>
  );
}
