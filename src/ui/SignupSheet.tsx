import { Link } from './Link';
import { Sheet } from './Sheet';

/** What a guest sees when they try something only members can do (rate videos, spec §2 and §4). */
export function SignupSheet({ title, text, onClose }: { title: string; text: string; onClose: () => void }) {
  return (
    <Sheet title={title} onClose={onClose}>
      <p className="sheet-note">{text}</p>
      <Link className="btn btn-primary" to="/register/user" onClick={onClose}>
        Sign up
      </Link>
      <Link className="btn btn-ghost" to="/login" onClick={onClose}>
        Log in
      </Link>
    </Sheet>
  );
}
