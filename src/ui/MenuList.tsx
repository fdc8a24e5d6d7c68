import type { ComponentType, ReactNode } from 'react';
import { Link } from './Link';
import { ChevronRightIcon } from './more-icons';
import './menu-list.css';

export interface MenuEntry {
  label: string;
  /** A second line: a current value ('Male'), or what the entry is for. */
  description?: ReactNode;
  Icon?: ComponentType<{ className?: string }>;
  /** An app path, or an outside address (opens in a new tab) with `external`. */
  to?: string;
  external?: boolean;
  onClick?: () => void;
  /** Drawn to stand out (spec §2: 'Account validation' while it is needed). */
  highlight?: boolean;
  tone?: 'danger';
}

/**
 * Rows of an account area (account home, settings, help): large touch targets with an icon, a label, an
 * optional second line and a chevron. Links for navigation, buttons for actions, outside addresses in a tab.
 */
export function MenuList({ entries, label }: { entries: readonly MenuEntry[]; label?: string }) {
  return (
    <ul className="menu-list" aria-label={label}>
      {entries.map((entry) => {
        const className = `menu-row${entry.highlight ? ' is-highlight' : ''}${entry.tone === 'danger' ? ' is-danger' : ''}`;
        const body = (
          <>
            {entry.Icon && (
              <span className="menu-row-icon">
                <entry.Icon />
              </span>
            )}
            <span className="menu-row-text">
              <span className="menu-row-label">{entry.label}</span>
              {entry.description && <span className="menu-row-description">{entry.description}</span>}
            </span>
            {(entry.to || entry.external) && <ChevronRightIcon className="menu-row-chevron" />}
          </>
        );
        return (
          <li key={entry.label}>
            {entry.to && entry.external ? (
              <a className={className} href={entry.to} target="_blank" rel="noopener" onClick={entry.onClick}>
                {body}
              </a>
            ) : entry.to ? (
              <Link className={className} to={entry.to} onClick={entry.onClick}>
                {body}
              </Link>
            ) : (
              <button type="button" className={className} onClick={entry.onClick}>
                {body}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
