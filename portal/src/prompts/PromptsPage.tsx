/**
 * Prompts (issue 40): the signed-in person's prompts — list, create (personal), edit, move to a
 * scope the server offers (`allowed_actions.scopes`), delete — and their attachments in order:
 * attach through the Resources tree (AttachDialog), move up or down, detach. Attachments that were
 * deleted show as missing, as prompts/get reports them. Controls appear only where
 * `allowed_actions` says the server would accept them; a refusal shows the server's message.
 * Addresses: /portal/prompts and /portal/prompts/<id>.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useNavigate, useParams } from 'react-router';
import { messageOf } from '../api/client';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../ui/Alert';
import { Field } from '../ui/Field';
import { formatBytes, formatRelative } from '../ui/format';
import { AttachDialog } from './AttachDialog';
import { promptApi, scopeFields, scopeLabel, scopeText, useMyPrompts, usePrompt, useRefreshPrompts, type Attachment, type Prompt } from './queries';
import './prompts.css';

function NewPromptDialog(props: { isOpen: boolean; onOpenChange(open: boolean): void }) {
  const navigate = useNavigate();
  const refresh = useRefreshPrompts();
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const [error, setError] = useState('');
  const create = async () => {
    try {
      const created = await promptApi.create({ name: name.trim(), content });
      await refresh();
      props.onOpenChange(false);
      setName('');
      setContent('');
      setError('');
      navigate(`/prompts/${created.id}`, { state: { focusEditor: true } });
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Dialog title="New prompt" isOpen={props.isOpen} onOpenChange={props.onOpenChange}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field label="Name" value={name} onChange={setName} description="Lowercase letters, digits, hyphens and underscores" isRequired autoFocus />
        <Field label="Content" value={content} onChange={setContent} description="{name} placeholders are filled from the prompt's arguments" multiline isRequired />
        <ErrorMessage>{error}</ErrorMessage>
        <DialogActions>
          <Button onPress={() => props.onOpenChange(false)}>Cancel</Button>
          <Button variant="primary" type="submit">
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function AttachmentRow(props: { prompt: Prompt; attachment: Attachment; index: number; busy: boolean; onMove(from: number, to: number): void; onDetach(id: string): void }) {
  const { attachment: a, index, prompt } = props;
  const last = prompt.attachments.length - 1;
  const may = prompt.allowed_actions.attach;
  return (
    <li className="attachment">
      <span className="attachment-name">
        {a.readable ? <Link to={`/resources/${a.resource_id}`}>{a.name}</Link> : a.name}
        <span className="muted attachment-meta">
          {a.missing ? 'Missing: the file was deleted' : a.readable ? `${a.library ?? ''} · ${a.content_type ?? ''}${a.size !== undefined ? ` · ${formatBytes(a.size)}` : ''}` : 'Not available to you'}
        </span>
      </span>
      {may ? (
        <span className="attachment-actions">
          <Button onPress={() => props.onMove(index, index - 1)} isDisabled={props.busy || index === 0} aria-label={`Move ${a.name} up`}>
            Up
          </Button>
          <Button onPress={() => props.onMove(index, index + 1)} isDisabled={props.busy || index === last} aria-label={`Move ${a.name} down`}>
            Down
          </Button>
          <Button onPress={() => props.onDetach(a.resource_id)} isDisabled={props.busy} aria-label={`Detach ${a.name}`}>
            Detach
          </Button>
        </span>
      ) : null}
    </li>
  );
}

function PromptEditor({ prompt }: { prompt: Prompt }) {
  const navigate = useNavigate();
  const refresh = useRefreshPrompts();
  const heading = useRef<HTMLHeadingElement>(null);
  const [name, setName] = useState(prompt.name);
  const [description, setDescription] = useState(prompt.description);
  const [content, setContent] = useState(prompt.content);
  const [scope, setScope] = useState(scopeText(prompt));
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [attaching, setAttaching] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const may = prompt.allowed_actions;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      await refresh();
      setError('');
      setStatus(done);
    } catch (e) {
      setStatus('');
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(
      () =>
        promptApi.update(prompt.id, {
          name: name.trim(),
          description,
          content,
          ...(scope !== scopeText(prompt) ? scopeFields(scope) : {}),
        }),
      'Saved',
    );
  const move = (from: number, to: number) => {
    const ids = prompt.attachments.map((a) => a.resource_id);
    const [moved] = ids.splice(from, 1);
    ids.splice(to, 0, moved!);
    void run(() => promptApi.reorder(prompt.id, ids), 'Order saved');
  };

  return (
    <div className="prompt-editor">
      <h2 ref={heading} tabIndex={-1} id="prompt-title">
        {prompt.name}
      </h2>
      <p className="muted">
        {scopeLabel(scopeText(prompt))} · updated {formatRelative(prompt.updated_at)} · <code>{prompt.reference}</code>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field label="Name" value={name} onChange={setName} isReadOnly={!may.change} />
        <Field label="Description" value={description} onChange={setDescription} isReadOnly={!may.change} />
        <Field label="Content" value={content} onChange={setContent} multiline isReadOnly={!may.change} description="{name} placeholders are filled from the arguments" />
        {prompt.arguments.length > 0 ? (
          <p className="muted">Arguments: {prompt.arguments.map((a) => `${a.name}${a.required ? ' (required)' : ''}`).join(', ')}</p>
        ) : null}
        {may.change && may.scopes.length > 0 ? (
          <div className="field">
            <label className="field-label" htmlFor="prompt-scope">
              Who can use it
            </label>
            <select id="prompt-scope" className="field-input" value={scope} onChange={(e) => setScope(e.target.value)}>
              {[scopeText(prompt), ...may.scopes].map((s) => (
                <option key={s} value={s}>
                  {scopeLabel(s)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {may.change ? (
          <div className="prompt-actions">
            <Button variant="primary" type="submit" isDisabled={busy}>
              Save
            </Button>
            <Button variant="danger" onPress={() => setDeleting(true)} isDisabled={busy}>
              Delete
            </Button>
          </div>
        ) : null}
      </form>
      <ErrorMessage>{error}</ErrorMessage>
      {status ? <StatusMessage>{status}</StatusMessage> : null}

      <section className="prompt-attachments" aria-labelledby="attachments-title">
        <div className="prompt-attachments-head">
          <h3 id="attachments-title">Attachments</h3>
          {may.attach ? <Button onPress={() => setAttaching(true)}>Attach resources…</Button> : null}
        </div>
        {prompt.attachments.length === 0 ? (
          <p className="muted">No attachments. prompts/get returns attached files as resource links after the text, in this order.</p>
        ) : (
          <ol className="attachments">
            {prompt.attachments.map((a, i) => (
              <AttachmentRow key={a.resource_id} prompt={prompt} attachment={a} index={i} busy={busy} onMove={move} onDetach={(id) => void run(() => promptApi.detach(prompt.id, id), 'Detached')} />
            ))}
          </ol>
        )}
      </section>

      {attaching ? <AttachDialog prompt={prompt} isOpen={attaching} onOpenChange={setAttaching} onChanged={() => void refresh()} /> : null}
      <Dialog title={`Delete ${prompt.name}?`} isOpen={deleting} onOpenChange={setDeleting} role="alertdialog">
        <p>The prompt and its attachments are deleted; the attached files stay.</p>
        <DialogActions>
          <Button onPress={() => setDeleting(false)}>Cancel</Button>
          <Button
            variant="danger"
            onPress={() =>
              void promptApi.remove(prompt.id).then(
                async () => {
                  setDeleting(false);
                  await refresh();
                  navigate('/prompts', { state: { focusHeading: true } });
                },
                (e: unknown) => {
                  setDeleting(false);
                  setError(messageOf(e));
                },
              )
            }
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}

export function PromptsPage() {
  const { id } = useParams();
  const list = useMyPrompts();
  const selected = usePrompt(id);
  const [creating, setCreating] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!id) heading.current?.focus({ preventScroll: true });
  }, [id]);

  return (
    <section className="prompts-page" aria-labelledby="prompts-title">
      <header className="prompts-header">
        <h1 id="prompts-title" ref={heading} tabIndex={-1}>
          Prompts
        </h1>
        <Button variant="primary" onPress={() => setCreating(true)}>
          New prompt
        </Button>
      </header>
      <div className="prompts-body">
        <nav aria-label="My prompts" className="prompts-list">
          {list.isError ? <ErrorMessage>{messageOf(list.error)}</ErrorMessage> : null}
          {list.isPending ? <p className="loading">Loading…</p> : null}
          {list.data?.length === 0 ? <p className="muted">No prompts yet. Create one, or ask an agent to (manage_prompt).</p> : null}
          <ul>
            {list.data?.map((p) => (
              <li key={p.id}>
                <NavLink to={`/prompts/${p.id}`} className="prompts-link">
                  <span className="prompts-link-name">{p.name}</span>
                  <span className="muted">
                    {scopeLabel(scopeText(p))}
                    {p.attachments.length ? ` · ${p.attachments.length} attached` : ''}
                  </span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="prompts-detail">
          {!id ? <p className="muted">Choose a prompt to edit it and its attachments.</p> : null}
          {selected.isError ? <ErrorMessage>{messageOf(selected.error)}</ErrorMessage> : null}
          {selected.data ? <PromptEditor key={selected.data.id} prompt={selected.data} /> : null}
        </div>
      </div>
      <NewPromptDialog isOpen={creating} onOpenChange={setCreating} />
    </section>
  );
}
