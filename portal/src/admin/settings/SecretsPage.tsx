/**
 * Stored secrets (docs/botcheck.md, "Stored secrets"): names, the connections and personas allowed
 * to read them, who changed them — never a value. A value is write-only: typed to create a secret
 * or replace its value; a change without one keeps the stored value.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { AdminPage, Empty, QueryState, Time } from '../common';

type Secret = Answer<'listSecrets'>['secrets'][number];

const list = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function SecretsPage() {
  const secrets = useQuery({ queryKey: ['secrets'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/secrets')) });
  const [editing, setEditing] = useState<Secret | 'new' | undefined>();
  const [deleting, setDeleting] = useState<Secret | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  return (
    <AdminPage
      title="Secrets"
      description="Values the platform reads on the server only, for the connections they allow (e.g. bot_check). A value is never shown again once stored."
      actions={
        secrets.isSuccess ? (
          <Button variant="primary" onPress={() => setEditing('new')}>
            <Plus aria-hidden size={16} /> New secret
          </Button>
        ) : null
      }
    >
      {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      <QueryState query={secrets} what="the secrets" />
      {secrets.data && secrets.data.secrets.length === 0 ? <Empty>No stored secret.</Empty> : null}
      {secrets.data && secrets.data.secrets.length > 0 ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Stored secrets</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Allowed connections</th>
                <th scope="col">Personas</th>
                <th scope="col">Changed</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.secrets.map((s) => (
                <tr key={s.name}>
                  <th scope="row" className="mono">
                    {s.name}
                  </th>
                  <td>set (never shown)</td>
                  <td>{s.allow_connections.join(', ') || '—'}</td>
                  <td>{s.personas.join(', ') || '—'}</td>
                  <td>
                    <Time at={s.updated_at} /> by {s.updated_by}
                  </td>
                  <td>
                    <span className="form-actions">
                      <Button onPress={() => setEditing(s)} aria-label={`Change ${s.name}`}>
                        Change
                      </Button>
                      <Button variant="danger" onPress={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                        Delete
                      </Button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {editing ? <SecretDialog secret={editing === 'new' ? undefined : editing} onClose={(text) => { setEditing(undefined); if (text) setNotice(text); }} /> : null}
      {deleting ? <DeleteDialog secret={deleting} onClose={(text) => { setDeleting(undefined); if (text) setNotice(text); }} /> : null}
    </AdminPage>
  );
}

function SecretDialog({ secret, onClose }: { secret: Secret | undefined; onClose(notice?: string): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(secret?.name ?? '');
  const [value, setValue] = useState('');
  const [connections, setConnections] = useState(secret?.allow_connections.join(', ') ?? '');
  const [personas, setPersonas] = useState(secret?.personas.join(', ') ?? '');
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PUT('/api/v1/admin/secrets/{name}', {
          params: { path: { name: name.trim() } },
          body: { ...(value !== '' ? { value } : {}), allow_connections: list(connections), personas: list(personas) },
        }),
      ),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['secrets'] });
      onClose(secret ? `${saved.name} changed${value !== '' ? ', with its new value' : ''}.` : `${saved.name} stored.`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Dialog title={secret ? `Change ${secret.name}` : 'New secret'} isOpen onOpenChange={(open) => !open && onClose()}>
      <form className="form-stack" onSubmit={submit}>
        {save.isError ? <ErrorMessage>{`The api refused the secret: ${messageOf(save.error)}`}</ErrorMessage> : null}
        <Field label="Name" value={name} onChange={setName} isReadOnly={secret !== undefined} autoFocus={!secret} description="Lowercase letters, digits, . _ -" />
        <Field
          label={secret ? 'New value' : 'Value'}
          type="password"
          autoComplete="new-password"
          value={value}
          onChange={setValue}
          autoFocus={secret !== undefined}
          description={secret ? 'Empty keeps the stored value; it is never shown' : 'Write-only: stored encrypted, never shown again'}
        />
        <Field label="Allowed connections" value={connections} onChange={setConnections} description="Comma-separated, e.g. bot_check" />
        <Field label="Personas" value={personas} onChange={setPersonas} description="Comma-separated; a platform connection reads only secrets listing no persona" />
        <DialogActions>
          <Button onPress={() => onClose()}>Cancel</Button>
          <Button type="submit" variant="primary" isDisabled={save.isPending}>
            {secret ? 'Save' : 'Store secret'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ secret, onClose }: { secret: Secret; onClose(notice?: string): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/admin/secrets/{name}', { params: { path: { name: secret.name } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['secrets'] });
      onClose(`${secret.name} deleted.`);
    },
  });
  return (
    <Dialog title={`Delete ${secret.name}?`} role="alertdialog" isOpen onOpenChange={(open) => !open && onClose()}>
      <p>Whatever names it can no longer read it (a hosted bot check naming it answers 503).</p>
      {remove.isError ? <ErrorMessage>{messageOf(remove.error)}</ErrorMessage> : null}
      <DialogActions>
        <Button onPress={() => onClose()} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
          Delete secret
        </Button>
      </DialogActions>
    </Dialog>
  );
}
