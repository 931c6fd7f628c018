/** Moments as the listing's narrow columns show them: the time today, the day this year, else the date. */
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayMonth = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function shortMoment(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (at.toDateString() === now.toDateString()) return time.format(at);
  if (at.getFullYear() === now.getFullYear()) return dayMonth.format(at);
  return date.format(at);
}

/** The full moment, for the cell's title. */
export function fullMoment(iso: string | null | undefined): string | undefined {
  return iso ? full.format(new Date(iso)) : undefined;
}
