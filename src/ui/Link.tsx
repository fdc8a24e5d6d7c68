import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import { type To, useHref, useLinkClickHandler, useLocation, useResolvedPath } from 'react-router';

/**
 * The app's links, on React Router's own hooks for a custom link (useHref, useLinkClickHandler). Its <Link>
 * and <NavLink> carry prefetching for its framework mode (route modules, data), which no screen here uses
 * and which was 2.4 KB gzipped of the first load of `/`. Only what the app passes is kept: a destination in
 * the app, and the history entry's `replace` and `state`. Addresses of other sites are plain <a> elements
 * (MenuList, AdLink, CreatorLink): React Router's Link told them apart, this one does not.
 */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
}

export function Link({ to, replace, state, target, onClick, ref, ...rest }: LinkProps) {
  const href = useHref(to);
  // Plain clicks navigate in the app; a modified click (new tab, download) or another target is the browser's.
  const navigate = useLinkClickHandler(to, { replace, state, target });
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={click} />;
}

interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** Active only on this very path, not below it (the home tab on `/`). */
  end?: boolean;
  /** A string gets ` active` added while the link is current. */
  className?: string | ((state: { isActive: boolean }) => string);
}

/** A link that knows it is the current screen: `aria-current="page"` and an active class, as React Router's. */
export function NavLink({ end, className, ...props }: NavLinkProps) {
  const current = useLocation().pathname.toLowerCase();
  const path = useResolvedPath(props.to).pathname.toLowerCase();
  // Below it means past a slash: /discover/tags under /discover, not /discovery (and nothing under `/`).
  const slashAt = path !== '/' && path.endsWith('/') ? path.length - 1 : path.length;
  const isActive = current === path || (!end && current.startsWith(path) && current.charAt(slashAt) === '/');
  const classes =
    typeof className === 'function'
      ? className({ isActive })
      : [className, isActive ? 'active' : ''].filter(Boolean).join(' ') || undefined;
  return <Link {...props} className={classes} aria-current={isActive ? 'page' : undefined} />;
}
