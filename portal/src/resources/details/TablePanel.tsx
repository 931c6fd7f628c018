/**
 * "Query as a table" (spec document 2, "Table registration"; GET/POST /api/v1/resources/{id}/tables):
 * the file's registered tables with where each stands — registered at the current revision, at an
 * older revision (which), its first correction still running, correcting the file — and the name
 * agents query; Register where the api says it would accept it, and after a refusal for line
 * breaks in cells (the server's message names the rows and columns) "Save a corrected copy and
 * register". A file that is not a CSV, TSV or NDJSON file and has no table shows no panel.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button as AriaButton, Checkbox, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, TextField } from 'react-aria-components';
import { Check, ChevronDown, Table2 } from 'lucide-react';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import type { Answer, Resource } from '../../api/types';
import { ErrorMessage } from '../../ui/Alert';
import { formatTime } from '../../ui/format';
import { CopyValue } from './CopyValue';
import { refreshAfterChange } from './queries';

type Panel = Answer<'getResourceTables'>;
type PanelTable = Panel['tables'][number];

export function TablePanel({ resource }: { resource: Resource }) {
  const panel = useQuery({
    queryKey: ['resource', resource.id, 'tables'],
    queryFn: async () => unwrap(await api.GET('/api/v1/resources/{id}/tables', { params: { path: { id: resource.id } } })),
  });
  // 503: this api registers no tables at all; nothing to show on any file.
  if (panel.isError && panel.error instanceof ApiError && panel.error.status === 503) return null;
  if (panel.data && panel.data.format === null && panel.data.tables.length === 0) return null;
  return (
    <section className="details-section table-panel" aria-labelledby="table-panel-title">
      <h2 id="table-panel-title">
        <Table2 aria-hidden size={16} /> Query as a table
      </h2>
      {panel.isError ? <ErrorMessage>{messageOf(panel.error)}</ErrorMessage> : null}
      {panel.isPending ? <p className="muted">Loading…</p> : null}
      {panel.data ? <PanelBody resource={resource} panel={panel.data} /> : null}
    </section>
  );
}

function statusText(t: PanelTable): string {
  if (t.status === 'current') return `Registered at the current revision (version ${t.version})`;
  if (t.status === 'older') return `Registered at an older revision: version ${t.version} (the file is at version ${t.head_version})`;
  return 'Registering: its first correction is still running';
}

function PanelBody({ resource, panel }: { resource: Resource; panel: Panel }) {
  return (
    <>
      {panel.tables.length === 0 ? (
        <p className="table-state">Not registered as a table.</p>
      ) : (
        <ul className="registered-tables">
          {panel.tables.map((t) => (
            <li key={`${t.connection}/${t.table}`} className="registered-table">
              <p className={`table-state table-state-${t.status}`}>{statusText(t)}</p>
              {t.status === 'older' && panel.register.allowed ? <p className="muted small">Register again to move it to version {t.head_version}.</p> : null}
              <div className="table-name">
                <span className="muted">Agents query it as</span>
                <CopyValue value={t.table} label={`table name ${t.table}`} />
              </div>
              <p className="muted small">
                On {panel.connections.find((c) => c.name === t.connection)?.display_name ?? t.connection} ({t.relation}) ·{' '}
                {t.follow ? 'follows new versions from exports and extractions' : 'pinned to its version'} · registered by {t.registered_by},{' '}
                {formatTime(t.registered_at)}
              </p>
              {t.corrects ? <span className="badge">Corrects the file</span> : null}
            </li>
          ))}
        </ul>
      )}
      {panel.register.allowed ? (
        <RegisterForm resource={resource} panel={panel} />
      ) : panel.register.reason ? (
        <p className="muted small">{panel.register.reason}</p>
      ) : null}
    </>
  );
}

interface Refusal {
  message: string;
  correctable: boolean;
}

function RegisterForm({ resource, panel }: { resource: Resource; panel: Panel }) {
  const queryClient = useQueryClient();
  const registerRef = useRef<HTMLButtonElement>(null);
  const [connection, setConnection] = useState(panel.connections.find((c) => c.default)?.name ?? panel.connections[0]?.name ?? '');
  const [tableName, setTableName] = useState('');
  const [follow, setFollow] = useState(true);
  const existing = panel.tables.find((t) => t.connection === connection);
  const [keepCorrecting, setKeepCorrecting] = useState(true);
  const [refusal, setRefusal] = useState<Refusal | undefined>();
  const [said, setSaid] = useState('');

  const register = useMutation({
    mutationFn: async (correct: boolean) =>
      unwrap(
        await api.POST('/api/v1/resources/{id}/tables', {
          params: { path: { id: resource.id } },
          body: {
            connection,
            follow,
            ...(tableName.trim() ? { table_name: tableName.trim() } : {}),
            ...(correct ? { correct: true } : {}),
          },
        }),
      ),
    onMutate: () => {
      setSaid('');
    },
    onSuccess: async (result, correct) => {
      setRefusal(undefined);
      const parts = [`${result.table.table}: ${result.change}.`];
      if (result.corrected) parts.push(`Corrected copy saved as version ${result.corrected.version}.`);
      if (result.workflow_id) parts.push('The correction runs in the background; the table moves when it is done.');
      setSaid(parts.join(' '));
      // The corrected-copy button goes away with the refusal: keep the focus on Register.
      if (correct) registerRef.current?.focus();
      await refreshAfterChange(queryClient);
    },
    onError: (error) => {
      setRefusal({ message: messageOf(error), correctable: error instanceof ApiError && error.code === 'refused' });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!register.isPending) register.mutate(Boolean(existing?.corrects && keepCorrecting));
  }

  return (
    <form className="register-table" onSubmit={submit}>
      {panel.connections.length > 1 ? (
        <Select className="field select-field" value={connection} onChange={(v) => v !== null && setConnection(String(v))}>
          <Label className="field-label">SQL connection</Label>
          <AriaButton className="field-input select-button">
            <SelectValue />
            <ChevronDown aria-hidden size={16} />
          </AriaButton>
          <Popover className="select-popover">
            <ListBox className="select-list" items={panel.connections.map((c) => ({ id: c.name, label: c.display_name }))}>
              {(c) => (
                <ListBoxItem id={c.id} className="select-option" textValue={c.label}>
                  {c.label}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </Select>
      ) : null}
      <TextField className="field" value={tableName} onChange={setTableName} maxLength={200}>
        <Label className="field-label">Table name</Label>
        <Input className="field-input" placeholder={existing?.table ?? panel.default_table_name ?? ''} />
        <Text slot="description" className="field-description">
          {panel.default_table_name ? `Empty: ${existing?.table ?? panel.default_table_name}. ` : ''}The persona is always added as a prefix
          {panel.connections.length === 1 ? `; registered on ${panel.connections[0]!.display_name}` : ''}.
        </Text>
      </TextField>
      <Checkbox className="checkbox" isSelected={follow} onChange={setFollow}>
        <span className="checkbox-box" aria-hidden>
          {follow ? <Check size={12} /> : null}
        </span>
        Follow new versions written by exports and extractions
      </Checkbox>
      {existing?.corrects ? (
        <Checkbox className="checkbox" isSelected={keepCorrecting} onChange={setKeepCorrecting}>
          <span className="checkbox-box" aria-hidden>
            {keepCorrecting ? <Check size={12} /> : null}
          </span>
          Keep correcting the file (unchecked: registering turns correction off)
        </Checkbox>
      ) : null}
      <ErrorMessage>{refusal?.message}</ErrorMessage>
      <div className="register-actions">
        <AriaButton ref={registerRef} type="submit" className="button button-primary">
          {register.isPending && !register.variables ? 'Registering…' : existing ? 'Register again' : 'Register'}
        </AriaButton>
        {refusal?.correctable ? (
          <AriaButton
            className="button"
            onPress={() => {
              if (!register.isPending) register.mutate(true);
            }}
          >
            {register.isPending && register.variables ? 'Saving a corrected copy…' : 'Save a corrected copy and register'}
          </AriaButton>
        ) : null}
      </div>
      <p className="status-message" role="status">
        {said}
      </p>
    </form>
  );
}
