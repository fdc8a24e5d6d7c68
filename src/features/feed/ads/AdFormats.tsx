import { get, set } from 'idb-keyval';
import { useEffect, useState } from 'react';
import { kv } from '../../../offline/kv';
import { CloseIcon } from '../../../ui/more-icons';
import type { AdPlacement } from '../sidebar/sidebar';
import { AdLink } from './AdLink';
import { IM_DELAY_MS, popDue, sessionFlag, setSessionFlag } from './adRules';
import type { PageAdFormats } from './ads';
import './ads.css';

const POP_SHOWN_AT_KEY = 'adPopShownAt';

/**
 * The feed's own-page ad formats of the operator's /ads.json (`pageAdFormats`, already without the
 * `hideWide` ones on wide screens): a footer strip, an in-page message and a pop. Each waits for its creative:
 * a missing image or an unreachable ad host means that format simply does not appear.
 */
export function AdFormats({ formats: { footer, message, pop } }: { formats: PageAdFormats }) {
  return (
    <>
      {footer && <FooterAd key={footer.slotId} ad={footer} />}
      {message && <MessageAd key={message.slotId} ad={message} />}
      {pop?.href && <PopAd key={pop.slotId} href={pop.href} />}
    </>
  );
}

/** True once `src` has loaded; never for an image that fails. */
function useImageLoaded(src: string | undefined): boolean {
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (!src) return;
    const img = new Image();
    img.onload = () => setLoaded(src);
    img.src = src;
    return () => {
      img.onload = null;
    };
  }, [src]);
  return src !== undefined && loaded === src;
}

function Creative({ ad, className }: { ad: AdPlacement; className: string }) {
  const image = <img src={ad.src} alt={ad.name} className={`${className}-img`} />;
  return ad.href ? (
    <AdLink href={ad.href} className={`${className}-link`}>
      {image}
    </AdLink>
  ) : (
    image
  );
}

/** A slim banner above the tab bar; the feed makes room for it (ads.css) rather than hiding under it. */
function FooterAd({ ad }: { ad: AdPlacement }) {
  const [closed, setClosed] = useState(() => sessionFlag('footerClosed'));
  const loaded = useImageLoaded(closed ? undefined : ad.src);
  if (closed || !loaded) return null;
  return (
    <aside className="ad-footer" aria-label="Advertisement" data-slot-id={ad.slotId}>
      <span className="ad-label">Ad</span>
      <Creative ad={ad} className="ad-footer" />
      <button
        type="button"
        className="ad-close"
        aria-label="Close ad"
        onClick={() => {
          // Closed for the rest of the session: it would be back on every feed screen otherwise.
          setSessionFlag('footerClosed');
          setClosed(true);
        }}
      >
        <CloseIcon />
      </button>
    </aside>
  );
}

/** An in-page message card that slides in once per session, a few seconds into a feed screen. */
function MessageAd({ ad }: { ad: AdPlacement }) {
  const [phase, setPhase] = useState<'waiting' | 'shown' | 'closed'>(() =>
    sessionFlag('imShown') ? 'closed' : 'waiting',
  );
  const loaded = useImageLoaded(phase === 'closed' ? undefined : ad.src);
  useEffect(() => {
    if (phase !== 'waiting' || !loaded) return;
    const timer = window.setTimeout(() => {
      setSessionFlag('imShown');
      setPhase('shown');
    }, IM_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [phase, loaded]);
  if (phase !== 'shown') return null;

  const body = (
    <>
      <img src={ad.src} alt="" className="ad-im-img" />
      <span className="ad-im-text">
        <span className="ad-im-sponsor">Sponsored</span>
        {ad.text && <span className="ad-im-message">{ad.text}</span>}
      </span>
    </>
  );
  return (
    <aside className="ad-im" aria-label="Sponsored message" data-slot-id={ad.slotId}>
      {ad.href ? (
        <AdLink href={ad.href} className="ad-im-body">
          {body}
        </AdLink>
      ) : (
        <div className="ad-im-body">{body}</div>
      )}
      <button
        type="button"
        className="ad-close"
        aria-label="Close message"
        onClick={() => setPhase('closed')}
      >
        <CloseIcon />
      </button>
    </aside>
  );
}

/**
 * Opens the placement in a new tab on the session's first tap, at most once a day (the time is kept in the
 * device store). Only a tap may open it: browsers block a tab opened without one, and the first paint is
 * the video's.
 */
function PopAd({ href }: { href: string }) {
  useEffect(() => {
    if (sessionFlag('popTapped')) return;
    let live = true;
    let detach = () => {};
    get<number>(POP_SHOWN_AT_KEY, kv()).then(
      (last) => {
        if (!live || !popDue(last, Date.now(), sessionFlag('popTapped'))) return;
        const onTap = () => {
          detach();
          setSessionFlag('popTapped');
          window.open(href, '_blank', 'noopener');
          void set(POP_SHOWN_AT_KEY, Date.now(), kv()).catch(() => undefined);
        };
        // pointerup for touch (a tap that the feed's gestures may keep from becoming a click), click for
        // the rest; whichever comes first.
        window.addEventListener('pointerup', onTap, true);
        window.addEventListener('click', onTap, true);
        detach = () => {
          window.removeEventListener('pointerup', onTap, true);
          window.removeEventListener('click', onTap, true);
        };
      },
      // No device store (some private modes): no way to keep to once a day, so no pop at all.
      () => undefined,
    );
    return () => {
      live = false;
      detach();
    };
  }, [href]);
  return null;
}
