/**
 * The script's endpoint binding (docs/endpoints.md): what it is and its failed requests of the last
 * seven days (the script's owner and administrators read them), and — for administrators, who alone
 * bind — every binding field with its limits, enable/disable and unbind. A refusal is the api's own
 * message, under the field it names.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { Badge, Empty, Facts, QueryState, Section, Time, formatDuration } from '../common';
import { CheckField, RadioGroupField } from '../form';
import { ENDPOINT_METHODS, type Binding, type EndpointFailure, type ScriptDetail } from './script-model';

type Answer = { binding: Binding; failures: EndpointFailure[] } | null;

function useBinding(id: string) {
  return useQuery({
    queryKey: ['script-endpoint', id],
    queryFn: async (): Promise<Answer> => {
      try {
        return unwrap(await api.GET('/api/v1/portal/scripts/{id}/endpoint', { params: { path: { id } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && error.code === 'not_found') return null;
        throw error;
      }
    },
    refetchInterval: 15_000,
  });
}

const MiB = 1024 * 1024;

export function EndpointTab({ script, administrator }: { script: ScriptDetail; administrator: boolean }) {
  const binding = useBinding(script.id);
  return (
    <>
      <QueryState query={binding} what="the endpoint binding" />
      {binding.isSuccess ? <BindingView script={script} answer={binding.data} administrator={administrator} /> : null}
    </>
  );
}

function BindingView({ script, answer, administrator }: { script: ScriptDetail; answer: Answer; administrator: boolean }) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | undefined>();
  const path = { params: { path: { id: script.id } } };
  const refresh = async (text: string) => {
    setNotice(text);
    await queryClient.invalidateQueries({ queryKey: ['script-endpoint', script.id] });
  };
  const toggle = useMutation({
    mutationFn: async (enable: boolean) =>
      unwrap(enable ? await api.POST('/api/v1/portal/scripts/{id}/endpoint/enable', path) : await api.POST('/api/v1/portal/scripts/{id}/endpoint/disable', path)),
    onSuccess: (b) => refresh(b.enabled ? `Enabled: /endpoints/${b.endpoint} answers again.` : `Disabled: /endpoints/${b.endpoint} answers 404.`),
  });
  const unbind = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/portal/scripts/{id}/endpoint', path)),
    onSuccess: (b) => refresh(`Unbound: /endpoints/${b.endpoint} answers 404 and the name is free.`),
  });
  const b = answer?.binding;
  const error = toggle.error ?? unbind.error;
  return (
    <>
      {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      {error ? <ErrorMessage>{`Refused: ${messageOf(error)}`}</ErrorMessage> : null}
      {b ? (
        <Section
          title={`/endpoints/${b.endpoint}${b.path}`}
          id="binding-title"
          actions={
            administrator ? (
              <>
                <Button onPress={() => toggle.mutate(!b.enabled)} isDisabled={toggle.isPending}>
                  {b.enabled ? 'Disable endpoint' : 'Enable endpoint'}
                </Button>
                <Button variant="danger" onPress={() => unbind.mutate()} isDisabled={unbind.isPending}>
                  Unbind
                </Button>
              </>
            ) : null
          }
        >
          <Facts
            items={[
              ['State', b.enabled ? <Badge tone="ok">enabled</Badge> : <Badge tone="off">disabled</Badge>],
              ['Methods', b.methods.join(', ')],
              ['Auth mode', b.auth_mode === 'public' ? `public (bot check${b.open_reads ? '; GET and HEAD open' : ''})` : 'signed in'],
              ['Timeout', `${b.timeout_seconds} s`],
              ['Memory', `${Math.round(b.max_memory_bytes / MiB)} MiB`],
              ['Largest body', `${b.max_body_bytes} bytes`],
              ['Allowed origins', b.allowed_origins.join(', ') || 'none'],
              ['Rate limit', `${b.rate_limit}/min per replica; ${b.caller_rate_limit}/min per caller`],
              ['Set', <><Time at={b.updated_at} /> by {b.updated_by}</>],
            ]}
          />
        </Section>
      ) : (
        <p className="admin-note">Not bound: no endpoint runs this script’s handle(req).{administrator ? '' : ' Administrators bind scripts to endpoints.'}</p>
      )}
      {administrator ? <BindingForm script={script} binding={b} onSaved={(saved) => refresh(`Bound to /endpoints/${saved.endpoint}.`)} /> : null}
      {answer ? <Failures failures={answer.failures} /> : null}
    </>
  );
}

interface BindingForm {
  endpoint: string;
  methods: string[];
  path: string;
  auth_mode: 'signed_in' | 'public';
  open_reads: boolean;
  timeout_seconds: string;
  max_memory_bytes: string;
  max_body_bytes: string;
  allowed_origins: string;
  rate_limit: string;
  caller_rate_limit: string;
}

function formOf(binding: Binding | undefined, script: ScriptDetail): BindingForm {
  return {
    endpoint: binding?.endpoint ?? script.name.replace(/[^a-z0-9_-]/g, '-'),
    methods: binding?.methods ?? ['GET'],
    path: binding?.path ?? '',
    auth_mode: binding?.auth_mode ?? 'signed_in',
    open_reads: binding?.open_reads ?? false,
    timeout_seconds: binding ? String(binding.timeout_seconds) : '',
    max_memory_bytes: binding ? String(binding.max_memory_bytes) : '',
    max_body_bytes: binding ? String(binding.max_body_bytes) : '',
    allowed_origins: binding?.allowed_origins.join('\n') ?? '',
    rate_limit: binding ? String(binding.rate_limit) : '',
    caller_rate_limit: binding ? String(binding.caller_rate_limit) : '',
  };
}

const number = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

function BindingForm({ script, binding, onSaved }: { script: ScriptDetail; binding: Binding | undefined; onSaved(b: Binding): void }) {
  const [form, setForm] = useState<BindingForm>(() => formOf(binding, script));
  const set = <K extends keyof BindingForm>(key: K, value: BindingForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const save = useMutation({
    mutationFn: async () => {
      const numbers = Object.fromEntries(
        (['timeout_seconds', 'max_memory_bytes', 'max_body_bytes', 'rate_limit', 'caller_rate_limit'] as const).flatMap((k) => (number(form[k]) === undefined ? [] : [[k, number(form[k])]])),
      );
      const origins = form.allowed_origins.split(/\s+/).filter(Boolean);
      return unwrap(
        await api.PUT('/api/v1/portal/scripts/{id}/endpoint', {
          params: { path: { id: script.id } },
          body: { endpoint: form.endpoint.trim(), methods: form.methods, path: form.path, auth_mode: form.auth_mode, open_reads: form.open_reads, allowed_origins: origins, ...numbers },
        }),
      );
    },
    onSuccess: onSaved,
  });
  const refusal = save.error instanceof ApiError ? save.error : undefined;
  const field = typeof refusal?.details.field === 'string' ? refusal.details.field : undefined;
  const err = (name: string) => (field === name ? refusal?.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit} aria-label="Endpoint binding">
      <h3>{binding ? 'Change the binding' : 'Bind to an endpoint'}</h3>
      {save.isError ? <ErrorMessage>{`The api refused the binding: ${messageOf(save.error)}`}</ErrorMessage> : null}
      <div className="form-grid">
        <Field label="Endpoint name" value={form.endpoint} onChange={(v) => set('endpoint', v)} description="/endpoints/<name>: lowercase letters, digits, - and _; unique" error={err('endpoint')} />
        <Field label="Path template" value={form.path} onChange={(v) => set('path', v)} description="Empty, or e.g. /items/{id} (req.params.id)" error={err('path')} />
      </div>
      <fieldset className="form-fieldset">
        <legend>Methods</legend>
        <div className="radio-row">
          {ENDPOINT_METHODS.map((m) => (
            <CheckField key={m} label={m} checked={form.methods.includes(m)} onChange={(on) => set('methods', on ? ENDPOINT_METHODS.filter((x) => x === m || form.methods.includes(x)) : form.methods.filter((x) => x !== m))} />
          ))}
        </div>
        <p className="field-description">HEAD is answered wherever GET is.</p>
        {err('methods') ? <p className="field-error">{err('methods')}</p> : null}
      </fieldset>
      <RadioGroupField
        legend="Who may call it"
        name="auth-mode"
        value={form.auth_mode}
        onChange={(v) => set('auth_mode', v as BindingForm['auth_mode'])}
        options={[
          { value: 'signed_in', label: 'Signed in', description: 'A browser session or an API key' },
          { value: 'public', label: 'Public', description: 'Anyone passing the bot check' },
        ]}
        error={err('auth_mode')}
      />
      <CheckField label="Open reads" checked={form.open_reads} onChange={(v) => set('open_reads', v)} description="Public endpoints only: GET and HEAD need no bot check" error={err('open_reads')} />
      <div className="form-grid">
        <Field label="Timeout (seconds)" value={form.timeout_seconds} onChange={(v) => set('timeout_seconds', v)} inputMode="numeric" description="Default 10, 1 to 60" error={err('timeout_seconds')} />
        <Field label="Memory (bytes)" value={form.max_memory_bytes} onChange={(v) => set('max_memory_bytes', v)} inputMode="numeric" description="Default 64 MiB, 16 to 256 MiB" error={err('max_memory_bytes')} />
        <Field label="Largest body (bytes)" value={form.max_body_bytes} onChange={(v) => set('max_body_bytes', v)} inputMode="numeric" description="Default 1 MiB, at most 10 MiB" error={err('max_body_bytes')} />
        <Field label="Rate limit (per minute)" value={form.rate_limit} onChange={(v) => set('rate_limit', v)} inputMode="numeric" description="Default 600 per replica" error={err('rate_limit')} />
        <Field label="Caller rate limit (per minute)" value={form.caller_rate_limit} onChange={(v) => set('caller_rate_limit', v)} inputMode="numeric" description="Default 120 per signed-in caller per replica" error={err('caller_rate_limit')} />
      </div>
      <Field label="Allowed origins" multiline value={form.allowed_origins} onChange={(v) => set('allowed_origins', v)} description="Browser origins allowed cross-origin, one per line (https://app.example.com); none by default" error={err('allowed_origins')} />
      <div className="form-actions">
        <Button type="submit" variant="primary" isDisabled={save.isPending}>
          {binding ? 'Save binding' : 'Bind'}
        </Button>
      </div>
    </form>
  );
}

function Failures({ failures }: { failures: EndpointFailure[] }) {
  return (
    <Section title="Failed requests, last seven days">
      {failures.length === 0 ? (
        <Empty>No request failed.</Empty>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Failed requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col" className="num">
                  Status
                </th>
                <th scope="col">Error</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col" className="num">
                  Version
                </th>
              </tr>
            </thead>
            <tbody>
              {failures.map((f) => (
                <tr key={f.id}>
                  <td>
                    <Time at={f.occurred_at} />
                  </td>
                  <td>{f.method}</td>
                  <td className="num">{f.status}</td>
                  <td className="wrap">{f.error}</td>
                  <td className="num">{formatDuration(f.duration_ms)}</td>
                  <td className="num">{f.version ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
