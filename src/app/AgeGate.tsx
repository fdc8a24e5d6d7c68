import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { LEAVE_URL, RTA_URL } from '../config';
import { ageConfirmedAtom } from '../state/preferences';
import { Link } from '../ui/Link';
import './gate.css';

/**
 * First visit on a device: an adult site asks for 18+ (spec §9 minimum age) before showing anything. The
 * answer is kept in IndexedDB, so it is asked once per device, not once per visit.
 */
export function AgeGate() {
  const confirm = useSetAtom(ageConfirmedAtom);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div className="gate">
      <section className="gate-card" role="dialog" aria-modal="true" aria-labelledby="gate-title">
        <div className="gate-badge" aria-hidden="true">
          18+
        </div>
        <h1 id="gate-title" className="gate-title">
          Adults only
        </h1>
        <p className="gate-text">
          ShortCams shows videos made for adults. Please confirm that you are at least 18 years old, or the
          age of majority where you live if that is higher.
        </p>
        <div className="gate-actions">
          <button ref={button} type="button" className="btn btn-primary" onClick={() => confirm(true)}>
            I am 18 or older
          </button>
          <a className="btn btn-ghost" href={LEAVE_URL} rel="noreferrer">
            Leave
          </a>
        </div>
        <p className="gate-fine">
          By entering you agree to the <Link to="/page/terms">Terms</Link> and the{' '}
          <Link to="/page/policy">Privacy policy</Link>.
        </p>
        <a href={RTA_URL} target="_blank" rel="noopener" className="gate-rta">
          <img src="/rta.svg" alt="RTA: Restricted To Adults" width="88" height="31" />
        </a>
      </section>
    </div>
  );
}
