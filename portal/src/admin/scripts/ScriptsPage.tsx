/**
 * Scripts (docs/scripts.md): every script and library the api lists to the caller — name, kind,
 * state, owner, version — and a new one (the caller owns it). Each links to its page.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { ErrorMessage } from '../../ui/Alert';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { AdminPage, Badge, Empty, QueryState, Time } from '../common';
import { scriptStateTone } from './script-model';

const STARTER = `// main() runs on schedules and draft runs; handle(req) answers an endpoint.
export async function main() {
  console.log('hello');
  return { ok: true };
}
`;

export function useScripts() {
  return useQuery({ queryKey: ['scripts'], queryFn: async () => unwrap(await api.GET('/api/v1/portal/scripts')) });
}

export function ScriptsPage() {
  const scripts = useScripts();
  const [creating, setCreating] = useState(false);
  return (
    <AdminPage
      title="Scripts"
      description="Managed scripts and libraries: the source, its versions, runs, schedule and endpoint binding."
      actions={
        scripts.isSuccess ? (
          <Button variant="primary" onPress={() => setCreating(true)}>
            <Plus aria-hidden size={16} /> New script
          </Button>
        ) : null
      }
    >
      <QueryState query={scripts} what="the scripts" />
      {scripts.data && scripts.data.scripts.length === 0 ? <Empty>No script yet.</Empty> : null}
      {scripts.data && scripts.data.scripts.length > 0 ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Scripts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">State</th>
                <th scope="col">Owner</th>
                <th scope="col" className="num">
                  Version
                </th>
                <th scope="col">Entry points</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {scripts.data.scripts.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    <Link to={`/admin/scripts/${s.id}`}>{s.name}</Link>
                  </th>
                  <td>{s.kind}</td>
                  <td>
                    <Badge tone={scriptStateTone(s.state)}>{s.state}</Badge>
                  </td>
                  <td className="wrap">{s.owner.email ?? s.owner.subject}</td>
                  <td className="num">{s.current_version}</td>
                  <td>{s.entry_points.join(', ') || '—'}</td>
                  <td>
                    <Time at={s.updated_at} relative />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <NewScriptDialog isOpen={creating} onOpenChange={setCreating} />
    </AdminPage>
  );
}

function NewScriptDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange(open: boolean): void }) {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/portal/scripts', { body: { name: name.trim(), source: STARTER } })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['scripts'] });
      onOpenChange(false);
      navigate(`/admin/scripts/${saved.script.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog title="New script" isOpen={isOpen} onOpenChange={onOpenChange}>
      <form onSubmit={submit} className="form-stack">
        <Field label="Name" value={name} onChange={setName} autoFocus description="Lowercase letters, digits, - and _, starting with a letter; fixed once created" />
        <p className="admin-note">It starts with a main() that logs and returns; edit the source on its page.</p>
        {create.isError ? <ErrorMessage>{messageOf(create.error)}</ErrorMessage> : null}
        <DialogActions>
          <Button onPress={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" isDisabled={create.isPending}>
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
