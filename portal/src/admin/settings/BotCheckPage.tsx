/**
 * The bot-check settings (spec document 3, "Bot-check settings"; docs/botcheck.md): every field,
 * the provider with its site key and the stored secret holding its key (by name; the value is
 * never read here). A save replaces the whole section and applies on every replica's next request;
 * a refusal is the api's message.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, messageOf, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { AdminPage, QueryState, fieldMessages } from '../common';
import { CheckField, SelectField } from '../form';

type Settings = Answer<'getBotCheckSettings'>;
type Provider = Settings['provider'];

const PROVIDERS: Array<{ value: Provider; label: string }> = [
  { value: 'pow', label: 'Proof of work (our own, no third party)' },
  { value: 'hosted_a', label: 'Cloudflare Turnstile (hosted)' },
  { value: 'hosted_b', label: 'hCaptcha (hosted)' },
  { value: 'none', label: 'None' },
];

export function BotCheckPage() {
  const settings = useQuery({ queryKey: ['bot-check-settings'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/settings/bot-check')) });
  return (
    <AdminPage title="Bot check" description="How public scripted endpoints tell people from bots. A save replaces every setting and applies on every replica's next request.">
      <QueryState query={settings} what="the bot-check settings" />
      {settings.data ? <BotCheckForm settings={settings.data} /> : null}
    </AdminPage>
  );
}

interface Form {
  provider: Provider;
  allow_public_without_check: boolean;
  challenge_ttl_seconds: string;
  difficulty: string;
  rate_threshold: string;
  max_difficulty: string;
  site_key: string;
  secret_name: string;
}

const typed = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

function BotCheckForm({ settings }: { settings: Settings }) {
  const queryClient = useQueryClient();
  const secrets = useQuery({ queryKey: ['secrets'], queryFn: async () => unwrap(await api.GET('/api/v1/admin/secrets')) });
  const [form, setForm] = useState<Form>({
    provider: settings.provider,
    allow_public_without_check: settings.allow_public_without_check,
    challenge_ttl_seconds: String(settings.challenge_ttl_seconds),
    difficulty: String(settings.difficulty),
    rate_threshold: String(settings.rate_threshold),
    max_difficulty: String(settings.max_difficulty),
    site_key: settings.site_key ?? '',
    secret_name: settings.secret_name ?? '',
  });
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.PUT('/api/v1/admin/settings/bot-check', {
          body: {
            provider: form.provider,
            allow_public_without_check: form.allow_public_without_check,
            challenge_ttl_seconds: typed(form.challenge_ttl_seconds),
            difficulty: typed(form.difficulty),
            rate_threshold: typed(form.rate_threshold),
            max_difficulty: typed(form.max_difficulty),
            site_key: form.site_key.trim() === '' ? null : form.site_key.trim(),
            secret_name: form.secret_name === '' ? null : form.secret_name,
          } as never,
        }),
      ),
    onSuccess: (answer) => {
      queryClient.setQueryData(['bot-check-settings'], answer);
      setSaved(true);
    },
  });
  const refusal = save.error ? fieldMessages(messageOf(save.error)) : undefined;
  const err = (field: string) => refusal?.byField[field];
  const hosted = form.provider === 'hosted_a' || form.provider === 'hosted_b';
  const secretNames = (secrets.data?.secrets ?? []).map((s) => s.name);
  if (form.secret_name && !secretNames.includes(form.secret_name)) secretNames.push(form.secret_name);
  const secretOptions = [{ value: '', label: 'none' }, ...secretNames.map((n) => ({ value: n, label: n }))];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit} aria-label="Bot-check settings">
      {save.isError ? <ErrorMessage>{`The api refused the settings: ${messageOf(save.error)}`}</ErrorMessage> : null}
      {saved ? <StatusMessage>Saved: every replica uses these settings from its next request.</StatusMessage> : null}
      <fieldset className="form-fieldset">
        <legend>Provider</legend>
        <SelectField label="Provider" value={form.provider} onChange={(v) => set('provider', v)} options={PROVIDERS} error={err('provider')} />
        {form.provider === 'none' ? (
          <CheckField
            label="Allow public endpoints without a check"
            checked={form.allow_public_without_check}
            onChange={(v) => set('allow_public_without_check', v)}
            description="Otherwise public endpoints answer 503 and cannot be bound while the provider is none"
            error={err('allow_public_without_check')}
          />
        ) : null}
        <div className="form-grid">
          <Field label="Site key" value={form.site_key} onChange={(v) => set('site_key', v)} isDisabled={!hosted} description="The provider's site key for its widget (hosted providers)" error={err('site_key')} />
          <SelectField
            label="Secret name"
            value={form.secret_name}
            onChange={(v) => set('secret_name', v)}
            isDisabled={!hosted}
            options={secretOptions}
            description="The stored secret holding the provider's secret key: its connections must name bot_check, with no personas"
            error={err('secret_name')}
          />
        </div>
        <p className="admin-note">
          Secrets are kept on the <Link to="/admin/secrets">Secrets</Link> page; their values are never shown.
        </p>
      </fieldset>
      <fieldset className="form-fieldset" disabled={form.provider !== 'pow'}>
        <legend>Proof of work</legend>
        <div className="form-grid">
          <Field label="Challenge lifetime (seconds)" value={form.challenge_ttl_seconds} onChange={(v) => set('challenge_ttl_seconds', v)} inputMode="numeric" description="30 to 3600; default 300" error={err('challenge_ttl_seconds')} />
          <Field label="Difficulty (bits)" value={form.difficulty} onChange={(v) => set('difficulty', v)} inputMode="numeric" description="Leading zero bits of the answer's SHA-256; default 16, at most the maximum" error={err('difficulty')} />
          <Field label="Rate threshold (answers a minute)" value={form.rate_threshold} onChange={(v) => set('rate_threshold', v)} inputMode="numeric" description="Past it difficulty rises a bit per doubling; default 30" error={err('rate_threshold')} />
          <Field label="Maximum difficulty (bits)" value={form.max_difficulty} onChange={(v) => set('max_difficulty', v)} inputMode="numeric" description="1 to 28; default 22" error={err('max_difficulty')} />
        </div>
      </fieldset>
      <div className="form-actions">
        <Button type="submit" variant="primary" isDisabled={save.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
