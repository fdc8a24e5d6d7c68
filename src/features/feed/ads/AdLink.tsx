import type { ReactNode } from 'react';
import { Link } from '../../../ui/Link';
import { isHouseLink } from './adRules';

/**
 * A click-through: a house ad's own page opens in the app, like any of its links (a new tab would be a second
 * copy of the app, and a browser window outside an installed one); an advertiser's in a new tab.
 */
export function AdLink({
  href,
  className,
  children,
}: {
  href: string;
  className: string;
  children: ReactNode;
}) {
  return isHouseLink(href) ? (
    <Link to={href} className={className}>
      {children}
    </Link>
  ) : (
    <a href={href} target="_blank" rel="sponsored noopener" className={className}>
      {children}
    </a>
  );
}
