/**
 * Pieces every administrators' page shares: the page frame (title, actions, what the api refused),
 * sections, label–value lists, tables' empty states, and how times, durations and counts read.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, messageOf } from '../api/client';
import { ErrorMessage } from '../ui/Alert';
import './admin.css';

/** The page's frame: a heading, its actions and its body. */
export function AdminPage(props: { title: string; description?: ReactNode; actions?: ReactNode; back?: { to: string; label: string }; children?: ReactNode; wide?: boolean }) {
  return (
    <article className={props.wide ? 'admin-page admin-page-wide' : 'admin-page'}>
      {props.back ? (
        <p className="admin-back">
          <Link to={props.back.to}>← {props.back.label}</Link>
        </p>
      ) : null}
      <header className="admin-header">
        <div>
          <h1>{props.title}</h1>
          {props.description ? <p className="admin-description">{props.description}</p> : null}
        </div>
        {props.actions ? <div className="admin-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </article>
  );
}

export function Section(props: { title: string; id?: string; actions?: ReactNode; children?: ReactNode }) {
  const id = props.id ?? `section-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="admin-section" aria-labelledby={id}>
      <div className="admin-section-header">
        <h2 id={id}>{props.title}</h2>
        {props.actions ? <div className="admin-actions">{props.actions}</div> : null}
      </div>
      {props.children}
    </section>
  );
}

/** Label–value pairs. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A query's loading or failed state; a refusal (401/403) says the page is not the caller's, in the api's words. */
export function QueryState({ query, what }: { query: { isPending: boolean; isError: boolean; error: unknown }; what: string }) {
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && (error.status === 403 || error.status === 401)) {
      return (
        <div className="admin-refused" role="alert">
          <p>
            <strong>This page is not available to you.</strong>
          </p>
          <p>{error.message}</p>
        </div>
      );
    }
    return <ErrorMessage>{`${what} could not be read: ${messageOf(error)}`}</ErrorMessage>;
  }
  if (query.isPending) return <p className="loading">Loading {what}…</p>;
  return null;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="admin-empty">{children}</p>;
}

/** A state as a word with its colour: ok, warn, bad or off. */
export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'off' | 'info'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

const iso = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment with its exact value on hover: `time` elements carry the ISO text. */
export function Time({ at, relative = false }: { at: string | null | undefined; relative?: boolean }) {
  if (!at) return <>—</>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {relative ? relativeTime(at) : iso.format(date)}
    </time>
  );
}

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export function relativeTime(at: string, now = Date.now()): string {
  const delta = new Date(at).getTime() - now;
  const abs = Math.abs(delta);
  if (abs < 45_000) return delta < 0 ? 'just now' : 'in a moment';
  if (abs < 3_600_000) return rtf.format(Math.round(delta / 60_000), 'minute');
  if (abs < 86_400_000) return rtf.format(Math.round(delta / 3_600_000), 'hour');
  return rtf.format(Math.round(delta / 86_400_000), 'day');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const numbers = new Intl.NumberFormat();
export const formatCount = (n: number) => numbers.format(n);

/** The api's refusal of a form, split into its field rules (`config.split: …; auth.header: is required`). */
export function fieldMessages(message: string): { byField: Record<string, string>; rest: string[] } {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const match = /^([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*): (.*)$/i.exec(part);
    if (match && match[1] !== 'body') byField[match[1]!] = byField[match[1]!] ? `${byField[match[1]!]}; ${match[2]}` : match[2]!;
    else rest.push(part);
  }
  return { byField, rest };
}
