/**
 * Version history (spec document 2, "Version"): number, who, when, size, SHA-256, change summary and
 * the version a restore came from, newest first. Restore is offered on every older version where
 * the server would accept it (allowed_actions.change); it writes a new head with that version's
 * exact bytes, so the history stays append-only.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { Button } from '../../ui/Button';
import { ErrorMessage } from '../../ui/Alert';
import { formatBytes, formatTime } from '../../ui/format';
import { refreshAfterChange, useVersions } from './queries';

export function VersionHistory({ resource }: { resource: Resource }) {
  const versions = useVersions(resource.id);
  const queryClient = useQueryClient();
  const [said, setSaid] = useState('');
  const restore = useMutation({
    mutationFn: async (version: number) =>
      unwrap(await api.POST('/api/v1/resources/{id}/versions/{version}/restore', { params: { path: { id: resource.id, version } } })),
    onSuccess: async (restored, version) => {
      setSaid(`Version ${version} restored as version ${restored.version}.`);
      await refreshAfterChange(queryClient);
    },
    onError: () => setSaid(''),
  });

  return (
    <section className="details-section" aria-labelledby="versions-title">
      <h2 id="versions-title">Version history</h2>
      {versions.isError ? <ErrorMessage>{messageOf(versions.error)}</ErrorMessage> : null}
      {versions.isPending ? <p className="muted">Loading versions…</p> : null}
      {versions.data ? (
        <div className="table-scroll">
          <table className="details-table versions-table" aria-labelledby="versions-title">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Written by</th>
                <th scope="col">When</th>
                <th scope="col">Size</th>
                <th scope="col">Change</th>
                <th scope="col">SHA-256</th>
                {resource.allowed_actions.change ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {versions.data.map((v) => (
                <tr key={v.version}>
                  <th scope="row">
                    {v.version}
                    {v.version === resource.version ? <span className="badge">current</span> : null}
                  </th>
                  <td className="wrap-anywhere">{v.uploader}</td>
                  <td>{formatTime(v.created_at)}</td>
                  <td>{formatBytes(v.size)}</td>
                  <td>
                    {v.change_summary ? <span className="change-summary">{v.change_summary}</span> : <span className="muted">—</span>}
                    {v.restored_from !== null ? <span className="restored-from">Restored from version {v.restored_from}</span> : null}
                  </td>
                  <td>{v.content_sha256 ? <code className="sha">{v.content_sha256}</code> : <span className="muted">not recorded</span>}</td>
                  {resource.allowed_actions.change ? (
                    <td>
                      {v.version !== resource.version ? (
                        <Button
                          className="button-small"
                          onPress={() => {
                            // Not disabled while a restore runs: a disabled button would drop the focus.
                            if (!restore.isPending) restore.mutate(v.version);
                          }}
                          aria-label={`Restore version ${v.version}`}
                        >
                          <RotateCcw aria-hidden size={14} /> Restore
                        </Button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {restore.isError ? <ErrorMessage>{messageOf(restore.error)}</ErrorMessage> : null}
      <p className="status-message" role="status">
        {said}
      </p>
    </section>
  );
}
