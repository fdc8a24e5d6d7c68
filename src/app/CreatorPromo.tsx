import { PlayIcon } from '../ui/icons';
import { Link } from '../ui/Link';
import { ScreenHeader } from '../ui/ScreenHeader';

/** /upload for guests (spec §2): instead of the login wall, why and how to become a creator. */
export function CreatorPromo() {
  return (
    <>
      <ScreenHeader title="Upload" />
      <section className="promo">
        <div className="placeholder-badge" aria-hidden="true">
          <PlayIcon />
        </div>
        <h2 className="promo-title">Are you a content creator?</h2>
        <p className="promo-lead">Promote your videos</p>
        <ul className="promo-points">
          <li>Post short vertical clips that play in everyone's feed.</li>
          <li>Link your cam rooms and socials from your profile.</li>
          <li>See your views, likes, followers and link clicks.</li>
        </ul>
        <Link to="/register/model" className="btn btn-primary promo-cta">
          Get started
        </Link>
        <p className="promo-login">
          Already a creator? <Link to="/login">Login</Link>
        </p>
      </section>
    </>
  );
}
