import { APP_VERSION, RTA_URL, SOCIAL_URL } from '../config';
import { Link } from '../ui/Link';

/** Spec §2 footer: the static pages, in this order. */
const FOOTER_PAGES: [slug: string, label: string][] = [
  ['faq', 'FAQ'],
  ['policy', 'Privacy policy'],
  ['dmca', 'DMCA'],
  ['2257', '2257'],
  ['support', 'Support'],
  ['terms', 'Terms'],
];

/** The drawer's foot: the static pages, the social link and the RTA label, the version. */
export function DrawerFooter({ onClose }: { onClose: () => void }) {
  return (
    <footer className="drawer-footer">
      <ul className="drawer-pages">
        {FOOTER_PAGES.map(([slug, label]) => (
          <li key={slug}>
            <Link to={`/page/${slug}`} onClick={onClose}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
      <div className="drawer-badges">
        <a href={SOCIAL_URL} target="_blank" rel="noopener" className="drawer-social">
          <XLogo />
          <span>Follow us</span>
        </a>
        <a href={RTA_URL} target="_blank" rel="noopener" className="drawer-rta">
          <img src="/rta.svg" alt="RTA: Restricted To Adults" width="88" height="31" />
        </a>
      </div>
      <p className="drawer-version">ShortCams {APP_VERSION} · 18+ only</p>
    </footer>
  );
}

function XLogo() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L2 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z"
      />
    </svg>
  );
}
