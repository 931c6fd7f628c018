/**
 * The script's versions, newest first (who saved each and with which roles, its entry points,
 * imports and the library versions it pins), and a line diff between any two of them.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorMessage } from '../../ui/Alert';
import { Section, Time } from '../common';
import { SelectField } from '../form';
import { foldedDiff } from './diff';
import type { ScriptDetail } from './script-model';

function useVersionSource(script: ScriptDetail, version: number) {
  return useQuery({
    queryKey: ['script-source', script.id, version],
    queryFn: async () => unwrap(await api.GET('/api/v1/portal/scripts/{id}', { params: { path: { id: script.id }, query: { version } } })).source ?? '',
    enabled: script.allowed_actions.read_source,
    staleTime: Infinity,
  });
}

export function VersionsTab({ script }: { script: ScriptDetail }) {
  const numbers = script.versions.map((v) => v.number);
  const [to, setTo] = useState(String(numbers[0] ?? 1));
  const [from, setFrom] = useState(String(numbers[1] ?? numbers[0] ?? 1));
  return (
    <>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <caption className="visually-hidden">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Version
              </th>
              <th scope="col">Saved</th>
              <th scope="col">Author</th>
              <th scope="col">Author&apos;s roles</th>
              <th scope="col">Entry points</th>
              <th scope="col">Library versions pinned</th>
              <th scope="col">SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {script.versions.map((v) => (
              <tr key={v.number}>
                <th scope="row" className="num">
                  {v.number}
                  {v.number === script.current_version ? ' (current)' : ''}
                </th>
                <td>
                  <Time at={v.created_at} />
                </td>
                <td className="wrap">{v.author.email ?? v.author.subject}</td>
                <td>{v.author_roles.join(', ') || '—'}</td>
                <td>{v.entry_points.join(', ') || '—'}</td>
                <td>{v.pins.map((p) => `${p.library}${p.version !== null ? ` v${p.version}` : ' (deleted)'}`).join(', ') || '—'}</td>
                <td className="mono">{v.sha256.slice(0, 12)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {script.allowed_actions.read_source && numbers.length > 0 ? (
        <Section title="Compare versions">
          <div className="filters">
            <SelectField label="From version" value={from} onChange={setFrom} options={numbers.map((n) => ({ value: String(n), label: String(n) }))} />
            <SelectField label="To version" value={to} onChange={setTo} options={numbers.map((n) => ({ value: String(n), label: String(n) }))} />
          </div>
          <VersionDiff script={script} from={Number(from)} to={Number(to)} />
        </Section>
      ) : null}
    </>
  );
}

function VersionDiff({ script, from, to }: { script: ScriptDetail; from: number; to: number }) {
  const a = useVersionSource(script, from);
  const b = useVersionSource(script, to);
  if (a.isError || b.isError) return <ErrorMessage>The versions could not be read.</ErrorMessage>;
  if (a.data === undefined || b.data === undefined) return <p className="loading">Reading the versions…</p>;
  const lines = foldedDiff(a.data, b.data);
  const changed = lines.some((l) => l.kind === 'add' || l.kind === 'del');
  return (
    <div className="diff" role="region" aria-label={`Changes from version ${from} to version ${to}`} tabIndex={0}>
      {!changed ? <p className="diff-skip">The two versions have the same source.</p> : null}
      {changed
        ? lines.map((line, i) =>
            line.kind === 'skip' ? (
              <div key={i} className="diff-skip">
                … {line.count} unchanged {line.count === 1 ? 'line' : 'lines'}
              </div>
            ) : (
              <div key={i} className={`diff-line${line.kind === 'add' ? ' diff-add' : line.kind === 'del' ? ' diff-del' : ''}`}>
                <span className="ln">{line.a ?? ''}</span>
                <span className="ln">{line.b ?? ''}</span>
                <span>
                  {line.kind === 'add' ? '+' : line.kind === 'del' ? '−' : ' '}
                  {line.kind !== 'same' ? <span className="visually-hidden">{line.kind === 'add' ? ' added:' : ' removed:'}</span> : null}
                </span>
                <span>{line.text}</span>
              </div>
            ),
          )
        : null}
    </div>
  );
}
