/**
 * The Parquet viewer (spec document 3: "The file opens in the portal's Parquet viewer"): any
 * `.parquet` resource the caller may read, at /portal/resources/<id>/parquet, as a paged table with
 * its schema. The file is read by range requests (reader.ts): the footer, then the row groups of the
 * page shown — never the whole file.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ErrorMessage } from '../../ui/Alert';
import { formatBytes } from '../../ui/format';
import { AdminPage, Facts, QueryState, Section, formatCount } from '../common';
import { SelectField } from '../form';
import { cellText, openParquet, readRows, schemaColumns, type OpenParquet } from './reader';

const PAGE_SIZES = ['25', '50', '100', '250'] as const;

export function ParquetViewerPage() {
  const id = useParams().id!;
  const resource = useQuery({ queryKey: ['resource', id], queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}', { params: { path: { id } } })) });
  const file = useQuery({ queryKey: ['parquet', id, resource.data?.version], queryFn: () => openParquet(id), enabled: resource.isSuccess, staleTime: Infinity, retry: false });
  const name = resource.data?.display_name ?? resource.data?.file_name ?? 'Parquet file';
  return (
    <AdminPage title={name} description="Parquet viewer: a paged table read by range requests, with the file's schema." back={{ to: `/resources/${id}`, label: 'The resource' }} wide>
      <QueryState query={resource} what="the resource" />
      {resource.data ? (
        <Facts
          items={[
            ['File', <code className="admin-inline-code">{resource.data.file_name}</code>],
            ['Size', formatBytes(resource.data.size)],
            ['Version', String(resource.data.version)],
            ['Rows', file.data ? formatCount(file.data.rows) : '…'],
            ['Row groups', file.data ? String(file.data.metadata.row_groups.length) : '…'],
            ['Written by', file.data?.metadata.created_by ?? '—'],
          ]}
        />
      ) : null}
      {file.isError ? <ErrorMessage>{`The file could not be read as Parquet: ${messageOf(file.error)}`}</ErrorMessage> : null}
      {resource.isSuccess && file.isPending ? <p className="loading">Reading the file's footer…</p> : null}
      {file.data ? <ParquetTable key={file.data.etag ?? id} open={file.data} /> : null}
      {file.data ? <SchemaTable open={file.data} /> : null}
      <p className="admin-note">
        <Link to={`/resources/${id}`}>The resource&apos;s page</Link>
      </p>
    </AdminPage>
  );
}

function ParquetTable({ open }: { open: OpenParquet }) {
  const [pageSize, setPageSize] = useState<(typeof PAGE_SIZES)[number]>('50');
  const [page, setPage] = useState(0);
  const size = Number(pageSize);
  const pages = Math.max(1, Math.ceil(open.rows / size));
  const start = page * size;
  const end = Math.min(open.rows, start + size);
  const rows = useQuery({ queryKey: ['parquet-rows', open.etag, start, end], queryFn: () => readRows(open, start, end), placeholderData: (previous) => previous, staleTime: Infinity, retry: false });
  const columns = open.schema.children.map((c) => c.element.name);
  return (
    <Section
      title="Rows"
      actions={
        <div className="pager">
          <SelectField
            label="Rows per page"
            value={pageSize}
            onChange={(v) => {
              setPageSize(v);
              setPage(0);
            }}
            options={PAGE_SIZES.map((n) => ({ value: n, label: n }))}
          />
          <Button onPress={() => setPage((p) => Math.max(0, p - 1))} isDisabled={page === 0} aria-label="Previous page">
            <ChevronLeft aria-hidden size={16} /> Previous
          </Button>
          <span role="status" aria-live="polite">
            {open.rows === 0 ? 'No rows' : `Rows ${formatCount(start + 1)}–${formatCount(end)} of ${formatCount(open.rows)} (page ${page + 1} of ${pages})`}
          </span>
          <Button onPress={() => setPage((p) => Math.min(pages - 1, p + 1))} isDisabled={page >= pages - 1} aria-label="Next page">
            Next <ChevronRight aria-hidden size={16} />
          </Button>
        </div>
      }
    >
      {rows.isError ? <ErrorMessage>{`These rows could not be read: ${messageOf(rows.error)}`}</ErrorMessage> : null}
      <div className="admin-table-wrap" aria-busy={rows.isFetching}>
        <table className="admin-table">
          <caption className="visually-hidden">Rows of the Parquet file</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              {columns.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(rows.data ?? []).map((row, i) => (
              <tr key={start + i}>
                <td className="num">{formatCount(start + i + 1)}</td>
                {columns.map((c) => {
                  const text = cellText(row[c]);
                  return (
                    <td key={c} className="parquet-cell" title={text.length > 48 ? text : undefined}>
                      {text}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function SchemaTable({ open }: { open: OpenParquet }) {
  const columns = schemaColumns(open.schema);
  return (
    <Section title="Schema">
      <div className="admin-table-wrap">
        <table className="admin-table parquet-schema">
          <caption className="visually-hidden">The file's columns</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Repetition</th>
            </tr>
          </thead>
          <tbody>
            {columns.map((c) => (
              <tr key={c.name}>
                <td>{c.name}</td>
                <td>{c.type}</td>
                <td>{c.repetition}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
