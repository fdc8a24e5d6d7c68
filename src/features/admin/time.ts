// Times as an operator reads them: how long ago for queues (what waits longest), the exact moment for the log.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** '12 Mar 2026, 14:05' in the operator's own locale and time zone. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** A calendar day (YYYY-MM-DD) as written, read in UTC so no time zone moves it by a day. */
export const formatDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
};

/** '5 min ago', '3 h ago', '2 days ago': coarse on purpose, a queue's age is read at a glance. */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (!Number.isFinite(minutes)) return '';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 60) return `${days} days ago`;
  return `on ${dateOnly.format(new Date(iso))}`;
}
