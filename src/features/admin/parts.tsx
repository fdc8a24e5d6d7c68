// The pieces every console screen is built from: the page frame, badges, the creator block, times, and the
// loading, empty, failed and "load more" states of a list.
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/errors';
import { ApiError } from '../../api/http';
import type { VerificationStatus } from '../../contract/common';
import type { Option } from '../../ui/form';
import { Link } from '../../ui/Link';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed, StateMessage } from '../../ui/StateMessage';
import { ago, formatDateTime } from './time';

/** The tab's title follows the screen, so a row of console tabs can be told apart. */
export function usePageTitle(title: string) {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · ShortCams console`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/**
 * A screen of the console: its title (the page's only h1; on phones the sticky top bar), what it is for, and
 * the actions that belong to the whole screen.
 */
export function Page({
  title,
  lead,
  actions,
  children,
  className = '',
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  usePageTitle(title);
  return (
    <div className={`admin-page ${className}`}>
      <header className="admin-page-head">
        <h1 className="admin-page-title">{title}</h1>
        {actions && <div className="admin-page-actions">{actions}</div>}
      </header>
      {lead && <p className="admin-page-lead">{lead}</p>}
      <div className="admin-page-body">{children}</div>
    </div>
  );
}

export type Tone = 'danger' | 'warn' | 'ok' | 'info' | 'muted';

export function Badge({ tone = 'muted', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`admin-badge is-${tone}`}>{children}</span>;
}

const verificationWords: Record<VerificationStatus, [string, Tone]> = {
  approved: ['Identity verified', 'ok'],
  pending: ['Identity check pending', 'warn'],
  rejected: ['Identity rejected', 'danger'],
  none: ['Not verified', 'muted'],
};

export function VerificationBadge({ status }: { status: VerificationStatus }) {
  const [words, tone] = verificationWords[status];
  return <Badge tone={tone}>{words}</Badge>;
}

export const accountTypeWords = { user: 'Viewer', model: 'Model', channel: 'Channel' } as const;

interface CreatorSummary {
  id: number;
  name: string;
  slug: string;
  email: string;
  type: keyof typeof accountTypeWords;
  verification: VerificationStatus;
  suspended: boolean;
}

/** Who a video or a request belongs to, with what an operator weighs first: verified? suspended? */
export function CreatorBlock({
  creator,
  heading = 'Creator',
}: {
  creator: CreatorSummary;
  heading?: string;
}) {
  return (
    <section className="admin-creator" aria-label={heading}>
      <div className="admin-creator-head">
        <span className="admin-avatar" aria-hidden="true">
          {creator.name.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <div className="admin-creator-names">
          <Link to={`/admin/accounts/${creator.id}`} className="admin-creator-name">
            {creator.name}
          </Link>
          <span className="admin-creator-slug">
            @{creator.slug} · {accountTypeWords[creator.type]}
          </span>
        </div>
      </div>
      <p className="admin-creator-email">{creator.email}</p>
      <p className="admin-badges">
        <VerificationBadge status={creator.verification} />
        {creator.suspended && <Badge tone="danger">Suspended</Badge>}
      </p>
    </section>
  );
}

/** '3 h ago', with the exact moment on hover and for assistive technology that reads `datetime`. */
export function TimeAgo({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {prefix}
      {ago(iso)}
    </time>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="admin-loading">
      <Spinner />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

export function Empty({ title, text, icon }: { title: string; text?: ReactNode; icon?: ReactNode }) {
  return <StateMessage title={title} text={text} icon={icon} className="admin-state" />;
}

export function Failed({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return <LoadFailed title={title} error={error} onRetry={onRetry} className="admin-state" />;
}

export interface Flash {
  tone: 'ok' | 'error';
  text: string;
}

/**
 * What the last action did, as a line above the work: success is announced politely and fades after a
 * while; a failure is an alert and stays until the next action.
 */
export function useFlash() {
  const [flash, setFlash] = useState<Flash | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((next: Flash | null) => {
    clearTimeout(timer.current);
    setFlash(next);
    if (next?.tone === 'ok') timer.current = setTimeout(() => setFlash(null), 8000);
  }, []);
  const fail = useCallback((error: unknown) => show({ tone: 'error', text: errorText(error) }), [show]);
  return { flash, show, fail };
}

export function FlashLine({ flash, onDismiss }: { flash: Flash | null; onDismiss?: () => void }) {
  // Both regions are always in the page: a live region added together with its text is not always read.
  return (
    <div className="admin-flash-slot">
      <div role="status">{flash?.tone === 'ok' && <p className="admin-flash is-ok">{flash.text}</p>}</div>
      <div role="alert">
        {flash?.tone === 'error' && (
          <p className="admin-flash is-error">
            <span>{flash.text}</span>
            {onDismiss && (
              <button type="button" className="admin-link-button" onClick={onDismiss}>
                Dismiss
              </button>
            )}
          </p>
        )}
      </div>
    </div>
  );
}

/** The end of a paged list: a button for the next page, or why it did not come. */
export function LoadMore({
  next,
  loadingMore,
  moreError,
  onMore,
}: {
  next: string | null;
  loadingMore: boolean;
  moreError?: unknown;
  onMore: () => void;
}) {
  if (!next) return null;
  return (
    <div className="admin-load-more">
      {moreError !== undefined && (
        <p className="admin-flash is-error" role="alert">
          {errorText(moreError)}
        </p>
      )}
      <button type="button" className="btn btn-ghost" onClick={onMore} disabled={loadingMore}>
        {loadingMore ? 'Loading…' : moreError !== undefined ? 'Try again' : 'Load more'}
      </button>
    </div>
  );
}

/** Label–value pairs, laid out in two columns where there is room. */
export function Facts({ items, className = '' }: { items: [string, ReactNode][]; className?: string }) {
  return (
    <dl className={`admin-facts ${className}`}>
      {items.map(([label, value]) => (
        <div key={label} className="admin-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A reason table of the contract as select options: the sentence the creator will read is the label. */
export const reasonOptions = (table: Record<string, string>): Option[] =>
  Object.entries(table).map(([value, label]) => ({ value, label }));

/** The words of an audit line's or a request's reason key, whichever table it comes from. */
export const reasonText = (reason: string | null, ...tables: Record<string, string>[]) => {
  if (!reason) return null;
  for (const table of tables) if (reason in table) return table[reason] ?? reason;
  return reason;
};

/** Someone else decided first: the server's 409. */
export const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

/** Keys typed into a field, or anything while a dialog is open, are not shortcuts. */
export function isShortcutBlocked(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target;
  if (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
    return true;
  return document.querySelector('dialog[open]') !== null;
}

/** Phones and narrow windows: the queue is a strip above the item, not a column beside it. */
export const isNarrow = () => window.matchMedia('(max-width: 1023.98px)').matches;

/**
 * Brings a queue item into view inside its own scrolling list (the column on laptops, the strip on phones)
 * without scrolling the page: the operator's eyes stay on the item open below or beside it.
 */
export function revealInList(item: HTMLElement | null) {
  if (!item) return;
  for (const box of [item.closest('.admin-queue'), item.closest('.admin-split-list')]) {
    if (!(box instanceof HTMLElement)) continue;
    const outer = box.getBoundingClientRect();
    const inner = item.getBoundingClientRect();
    if (box.scrollWidth > box.clientWidth) {
      if (inner.left < outer.left) box.scrollLeft += inner.left - outer.left - 16;
      else if (inner.right > outer.right) box.scrollLeft += inner.right - outer.right + 16;
    }
    if (box.scrollHeight > box.clientHeight) {
      if (inner.top < outer.top) box.scrollTop += inner.top - outer.top - 8;
      else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom + 8;
    }
  }
}

/** After a decision on a phone, the next item starts at its top (its video), not where the buttons were. */
export function showFromTop(detail: HTMLElement | null) {
  if (detail && isNarrow() && detail.getBoundingClientRect().top < 0)
    detail.scrollIntoView({ block: 'start' });
}
