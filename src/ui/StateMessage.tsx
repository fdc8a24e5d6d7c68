import type { ReactNode } from 'react';
import { errorText } from '../api/errors';
import './state-message.css';

interface StateMessageProps {
  title: string;
  text?: ReactNode;
  /** A line icon drawn in the gradient tile above the title (empty states). */
  icon?: ReactNode;
  /** Failures are announced; empty lists are not news. */
  alert?: boolean;
  /** Extra layout class, e.g. `screen-body` where the message stands in for a whole screen's column. */
  className?: string;
  /** The way out: a retry button or a link. */
  children?: ReactNode;
}

/**
 * What a list or a screen shows instead of its content: empty, not found, or failed. One look everywhere,
 * centred in the space the content would have taken.
 */
export function StateMessage({ title, text, icon, alert, className, children }: StateMessageProps) {
  return (
    <div
      className={className ? `state-message ${className}` : 'state-message'}
      role={alert ? 'alert' : undefined}
    >
      {icon && (
        <span className="state-message-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <h2 className="state-message-title">{title}</h2>
      {text && <p className="state-message-text">{text}</p>}
      {children}
    </div>
  );
}

/**
 * A load that failed: what went wrong in words (src/api/errors.ts) and a Retry button. `compact` is the same
 * message inside a section that has its own heading (a grid, a card, a sheet): its title is not a heading
 * of the page, and it takes only the room it needs instead of the screen's.
 */
export function LoadFailed({
  title,
  error,
  text,
  onRetry,
  compact,
  className,
}: {
  title: string;
  error?: unknown;
  /** Words the spec fixes for this failure, shown instead of the error's. */
  text?: ReactNode;
  onRetry: () => void;
  compact?: boolean;
  className?: string;
}) {
  const retry = (
    <button type="button" className={compact ? 'btn btn-ghost' : 'btn btn-primary'} onClick={onRetry}>
      Retry
    </button>
  );
  const words = text ?? errorText(error);
  if (compact) {
    return (
      <div
        className={className ? `state-message is-compact ${className}` : 'state-message is-compact'}
        role="alert"
      >
        <p className="state-message-title">{title}</p>
        {words && <p className="state-message-text">{words}</p>}
        {retry}
      </div>
    );
  }
  return (
    <StateMessage title={title} text={words} alert className={className}>
      {retry}
    </StateMessage>
  );
}
