/**
 * What the file's history says about who touches it: Written by (GET …/writers), Usage
 * (GET …/usage: reads over 30 and 90 days by door, last read, never read; or that usage is not
 * recorded while audit is off) and Used by (GET …/used-by counts).
 */
import type { Resource } from '../../api/types';
import { messageOf } from '../../api/client';
import { ErrorMessage } from '../../ui/Alert';
import { formatRelative, formatTime } from '../../ui/format';
import { readDoors, writerKinds } from './labels';
import { useUsage, useUsedBy, useWriters } from './queries';

export function WrittenBy({ resource }: { resource: Resource }) {
  const writers = useWriters(resource.id);
  return (
    <section className="details-section" aria-labelledby="writers-title">
      <h2 id="writers-title">Written by</h2>
      {writers.isError ? <ErrorMessage>{messageOf(writers.error)}</ErrorMessage> : null}
      {writers.isPending ? <p className="muted">Loading…</p> : null}
      {writers.data && writers.data.length === 0 ? <p className="muted">No writers recorded (the file was uploaded before writers were recorded).</p> : null}
      {writers.data && writers.data.length > 0 ? (
        <ul className="writers">
          {writers.data.map((w) => (
            <li key={`${w.kind}:${w.id}`} className="writer">
              <span className="writer-name wrap-anywhere">{w.display}</span>
              <span className="writer-meta">
                {writerKinds[w.kind] ?? w.kind} · {w.created ? 'created' : 'modified'} · <time dateTime={w.last_written_at}>{formatTime(w.last_written_at)}</time>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function UsagePanel({ resource }: { resource: Resource }) {
  const usage = useUsage(resource.id);
  const data = usage.data;
  return (
    <section className="details-section" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      {usage.isError ? <ErrorMessage>{messageOf(usage.error)}</ErrorMessage> : null}
      {usage.isPending ? <p className="muted">Loading…</p> : null}
      {data && !data.recorded ? <p className="usage-not-recorded">{data.message}</p> : null}
      {data && data.recorded ? (
        <>
          <p className="usage-last-read">
            {data.never_read ? (
              <span className="badge badge-warning">Never read</span>
            ) : data.last_read_at ? (
              <>
                Last read <time dateTime={data.last_read_at}>{formatRelative(data.last_read_at)}</time> ({formatTime(data.last_read_at)})
              </>
            ) : (
              'No reads on record yet'
            )}
          </p>
          <table className="details-table usage-table">
            <caption className="visually-hidden">Reads by door</caption>
            <thead>
              <tr>
                <th scope="col">Door</th>
                <th scope="col" className="numeric">
                  30 days
                </th>
                <th scope="col" className="numeric">
                  90 days
                </th>
              </tr>
            </thead>
            <tbody>
              {readDoors.map((door) => (
                <tr key={door.key}>
                  <th scope="row">{door.label}</th>
                  <td className="numeric">{data.last_30_days[door.key] ?? 0}</td>
                  <td className="numeric">{data.last_90_days[door.key] ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Counted from the audit trail (kept {data.retention_days} days). Thumbnail views are not reads
            {data.last_90_days.portal_preview ? ` (${data.last_90_days.portal_preview} in 90 days)` : ''}.
          </p>
        </>
      ) : null}
    </section>
  );
}

export function UsedByPanel({ resource }: { resource: Resource }) {
  const usedBy = useUsedBy(resource.id);
  const counts = usedBy.data;
  return (
    <section className="details-section" aria-labelledby="used-by-title">
      <h2 id="used-by-title">Used by</h2>
      {usedBy.isError ? <ErrorMessage>{messageOf(usedBy.error)}</ErrorMessage> : null}
      {usedBy.isPending ? <p className="muted">Loading…</p> : null}
      {counts ? (
        <dl className="used-by">
          <div>
            <dt>Assets</dt>
            <dd>{counts.assets}</dd>
          </div>
          <div>
            <dt>Prompts</dt>
            <dd>{counts.prompts}</dd>
          </div>
          <div>
            <dt>Registered tables</dt>
            <dd>{counts.tables}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
