/**
 * Create or edit a webhook source: every field and auth mode of the api (spec document 3, "Webhook
 * source"), the secret write-only ("set" shown, a new one with its rotation overlap), and the api's
 * own validation messages under the fields they name. Name, connection and persona are fixed once
 * created.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { ErrorMessage } from '../../ui/Alert';
import { AdminPage, QueryState, Time, fieldMessages } from '../common';
import { CheckField, RadioGroupField, SelectField } from '../form';
import {
  AUTH_MODES,
  CONFIG_NUMBERS,
  CONFIG_PATHS,
  WINDOW_LENGTHS,
  createBody,
  newSourceForm,
  sourceFormOf,
  updateBody,
  type SourceForm,
  type SourceView,
} from './source-model';

export function SourceFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const name = useParams().name;
  const source = useQuery({
    queryKey: ['webhook-source', name],
    queryFn: async () => unwrap(await api.GET('/api/v1/admin/webhooks/sources/{name}', { params: { path: { name: name! } } })),
    enabled: mode === 'edit',
  });
  const title = mode === 'create' ? 'New webhook source' : `Edit ${name}`;
  const back = mode === 'create' ? { to: '/admin/webhooks', label: 'Webhook sources' } : { to: `/admin/webhooks/${encodeURIComponent(name!)}`, label: name! };
  if (mode === 'edit' && !source.data) {
    return (
      <AdminPage title={title} back={back}>
        <QueryState query={source} what="the source" />
      </AdminPage>
    );
  }
  return (
    <AdminPage title={title} back={back}>
      <SourceFormView mode={mode} {...(source.data ? { view: source.data } : {})} />
    </AdminPage>
  );
}

function useChoices() {
  const connections = useQuery({ queryKey: ['admin-connections'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/connections')), staleTime: 60_000 });
  const personas = useQuery({ queryKey: ['admin-personas'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/personas')), staleTime: 60_000 });
  return { connections, personas };
}

function SourceFormView({ mode, view }: { mode: 'create' | 'edit'; view?: SourceView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { connections, personas } = useChoices();
  const [form, setForm] = useState<SourceForm>(() => (view ? sourceFormOf(view) : newSourceForm({ connection: '', persona: '' })));
  const [rotating, setRotating] = useState(mode === 'create');
  const [refusal, setRefusal] = useState<{ byField: Record<string, string>; rest: string[] } | undefined>();
  const errorRef = useRef<HTMLDivElement>(null);

  const sqlConnections = (connections.data?.connections ?? []).filter((c) => c.kind === 'sql');
  // Defaults the api would take anyway, filled in once known so the form shows them.
  useEffect(() => {
    if (mode !== 'create') return;
    setForm((f) => ({
      ...f,
      connection: f.connection || (sqlConnections.find((c) => c.is_default) ?? sqlConnections[0])?.name || '',
      persona: f.persona || personas.data?.admin_persona || '',
    }));
  }, [connections.data, personas.data, mode]);

  const set = <K extends keyof SourceForm>(key: K, value: SourceForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (field: string) => refusal?.byField[field];

  const save = useMutation({
    mutationFn: async () => {
      if (mode === 'create') return unwrap(await api.POST('/api/v1/admin/webhooks/sources', { body: createBody(form) as never }));
      return unwrap(await api.PUT('/api/v1/admin/webhooks/sources/{name}', { params: { path: { name: view!.name } }, body: updateBody(rotating ? form : { ...form, secret: '' }) as never }));
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['webhook-sources'] });
      queryClient.setQueryData(['webhook-source', saved.name], saved);
      await queryClient.invalidateQueries({ queryKey: ['webhook-status', saved.name] });
      navigate(`/admin/webhooks/${encodeURIComponent(saved.name)}`, { state: { saved: mode === 'create' ? 'created' : 'saved' } });
    },
    onError: (error) => {
      setRefusal(error instanceof ApiError ? fieldMessages(error.message) : { byField: {}, rest: [messageOf(error)] });
      // The refusal is announced; focus goes to it so a keyboard user reads it next.
      requestAnimationFrame(() => errorRef.current?.focus());
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(undefined);
    save.mutate();
  };

  const fixed = mode === 'edit';
  return (
    <form className="form-stack" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New webhook source' : `Edit ${view?.name}`}>
      <div ref={errorRef} tabIndex={-1}>
        {refusal ? <ErrorMessage>{`The api refused the source: ${[...refusal.rest, ...Object.entries(refusal.byField).map(([f, m]) => `${f}: ${m}`)].join('; ')}`}</ErrorMessage> : null}
      </div>
      <fieldset className="form-fieldset">
        <legend>Source</legend>
        <div className="form-grid">
          <Field label="Name" value={form.name} onChange={(v) => set('name', v)} isReadOnly={fixed} isRequired description="Lowercase letters, digits and -, starting with a letter; the path /hooks/<name>" error={err('name')} />
          {sqlConnections.length > 0 || fixed ? (
            <SelectField
              label="Connection"
              value={form.connection}
              onChange={(v) => set('connection', v)}
              isDisabled={fixed}
              options={fixed ? [{ value: form.connection, label: form.connection }] : sqlConnections.map((c) => ({ value: c.name, label: c.display_name === c.name ? c.name : `${c.display_name} (${c.name})` }))}
              description="The SQL connection whose scratch catalog holds the table; fixed once created"
              error={err('connection')}
            />
          ) : (
            <Field label="Connection" value={form.connection} onChange={(v) => set('connection', v)} description="A toolkits.sql connection; fixed once created" error={err('connection')} />
          )}
          {personas.data || fixed ? (
            <SelectField
              label="Persona"
              value={form.persona}
              onChange={(v) => set('persona', v)}
              isDisabled={fixed}
              options={fixed ? [{ value: form.persona, label: form.persona }] : (personas.data?.personas ?? []).map((p) => ({ value: p.name, label: p.display_name ? `${p.display_name} (${p.name})` : p.name }))}
              description="Whose members see the compacted files in Resources and search; fixed once created"
              error={err('config.persona')}
            />
          ) : (
            <Field label="Persona" value={form.persona} onChange={(v) => set('persona', v)} description="Empty: the administrators' persona" error={err('config.persona')} />
          )}
        </div>
        <CheckField label="Enabled" checked={form.enabled} onChange={(v) => set('enabled', v)} description="A disabled source answers 404, like an unknown name" error={err('enabled')} />
      </fieldset>

      <RadioGroupField legend="Authentication" name="auth-mode" value={form.mode} onChange={(v) => set('mode', v)} options={AUTH_MODES.map((m) => ({ value: m.mode, label: m.label, description: m.description }))} error={err('auth.mode')} />
      <fieldset className="form-fieldset">
        <legend>{AUTH_MODES.find((m) => m.mode === form.mode)!.label} settings</legend>
        {form.mode === 'hmac' ? (
          <div className="form-grid">
            <Field label="Signature header" value={form.signature_header} onChange={(v) => set('signature_header', v)} isRequired description="e.g. X-Signature" error={err('auth.signature_header')} />
            <SelectField label="Algorithm" value={form.algorithm} onChange={(v) => set('algorithm', v)} options={[{ value: 'sha256', label: 'sha256' }, { value: 'sha1', label: 'sha1' }]} error={err('auth.algorithm')} />
            <SelectField label="Encoding" value={form.encoding} onChange={(v) => set('encoding', v)} options={[{ value: 'hex', label: 'hex' }, { value: 'base64', label: 'base64' }]} error={err('auth.encoding')} />
            <Field label="Prefix" value={form.prefix} onChange={(v) => set('prefix', v)} description="Text before the signature, e.g. sha256=" error={err('auth.prefix')} />
            <SelectField label="Signed" value={form.signed} onChange={(v) => set('signed', v)} options={[{ value: 'body', label: 'the body' }, { value: 'timestamp.body', label: 'timestamp.body' }]} description="timestamp.body signs the timestamp, a dot, and the body" error={err('auth.signed')} />
            <Field label="Timestamp header" value={form.timestamp_header} onChange={(v) => set('timestamp_header', v)} description="Only with signed: timestamp.body" error={err('auth.timestamp_header')} />
            <Field label="Tolerance (seconds)" value={form.tolerance_seconds} onChange={(v) => set('tolerance_seconds', v)} inputMode="numeric" description="Default 300" error={err('auth.tolerance_seconds')} />
          </div>
        ) : form.mode === 'header_token' ? (
          <div className="form-grid">
            <Field label="Token header" value={form.header} onChange={(v) => set('header', v)} isRequired description="The header carrying the secret, e.g. X-Token" error={err('auth.header')} />
          </div>
        ) : form.mode === 'basic' ? (
          <div className="form-grid">
            <Field label="User name" value={form.username} onChange={(v) => set('username', v)} isRequired description="The secret is the password" error={err('auth.username')} />
          </div>
        ) : (
          <p className="admin-note">Senders put the secret as the last path segment: /hooks/{form.name || '<name>'}/&lt;secret&gt;.</p>
        )}
        <SecretFields form={form} view={view} rotating={rotating} setRotating={setRotating} set={set} err={err} />
      </fieldset>

      <fieldset className="form-fieldset">
        <legend>Events and windows</legend>
        <div className="form-grid">
          <SelectField label="Handshake" value={form.handshake} onChange={(v) => set('handshake', v)} options={[{ value: 'none', label: 'none' }, { value: 'cloudevents', label: 'CloudEvents (OPTIONS)' }]} error={err('config.handshake')} />
          <SelectField
            label="Window length (minutes)"
            value={form.compact_every_minutes}
            onChange={(v) => set('compact_every_minutes', v)}
            options={WINDOW_LENGTHS.map((n) => ({ value: String(n), label: String(n) }))}
            description="Each window is compacted into one Parquet file; a change applies to events received afterwards"
            error={err('config.compact_every_minutes')}
          />
          {CONFIG_PATHS.map((f) => (
            <Field key={f.key} label={f.label} value={form.paths[f.key]} onChange={(v) => setForm((s) => ({ ...s, paths: { ...s.paths, [f.key]: v } }))} description={`${f.description}. A JSON path: $, .name, ['name'], [n]`} error={err(`config.${f.key}`)} />
          ))}
        </div>
      </fieldset>

      <fieldset className="form-fieldset">
        <legend>Limits and retention</legend>
        <div className="form-grid">
          {CONFIG_NUMBERS.map((f) => (
            <Field
              key={f.key}
              label={f.label}
              value={form.numbers[f.key]}
              onChange={(v) => setForm((s) => ({ ...s, numbers: { ...s.numbers, [f.key]: v } }))}
              inputMode="numeric"
              description={`${'description' in f ? `${f.description}. ` : ''}Default ${f.placeholder}`}
              error={err(`config.${f.key}`)}
            />
          ))}
        </div>
      </fieldset>

      <div className="form-actions">
        <Button type="submit" variant="primary" isDisabled={save.isPending}>
          {save.isPending ? 'Saving…' : mode === 'create' ? 'Create source' : 'Save changes'}
        </Button>
        <Button onPress={() => navigate(-1)}>Cancel</Button>
      </div>
    </form>
  );
}

function SecretFields(props: {
  form: SourceForm;
  view: SourceView | undefined;
  rotating: boolean;
  setRotating(v: boolean): void;
  set<K extends keyof SourceForm>(key: K, value: SourceForm[K]): void;
  err(field: string): string | undefined;
}) {
  const { form, view, rotating, set, err } = props;
  const secretLabel = form.mode === 'hmac' ? 'Signing secret' : form.mode === 'basic' ? 'Password' : 'Token';
  return (
    <div className="form-stack">
      {view ? (
        <p className="admin-note" data-testid="secret-state">
          Secret: {view.auth.secret_set ? <strong>set</strong> : <strong>not set</strong>} (never shown).
          {view.auth.previous_secret_until ? (
            <>
              {' '}
              The previous secret is accepted until <Time at={view.auth.previous_secret_until} />.
            </>
          ) : null}
        </p>
      ) : null}
      {view ? (
        <CheckField
          label="Set a new secret"
          checked={rotating}
          onChange={(v) => {
            props.setRotating(v);
            if (!v) {
              set('secret', '');
              set('rotation_overlap_seconds', '');
            }
          }}
          description="Without a new secret the stored one stays"
        />
      ) : null}
      {rotating ? (
        <div className="form-grid">
          <Field label={view ? `New ${secretLabel.toLowerCase()}` : secretLabel} type="password" autoComplete="new-password" value={form.secret} onChange={(v) => set('secret', v)} isRequired={!view} description="Write-only: stored encrypted, never shown again" error={err('auth.secret')} />
          {view ? (
            <Field
              label="Rotation overlap (seconds)"
              value={form.rotation_overlap_seconds}
              onChange={(v) => set('rotation_overlap_seconds', v)}
              inputMode="numeric"
              description="The previous secret stays valid this long beside the new one; empty: replaced at once"
              error={err('auth.rotation_overlap_seconds')}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
