import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '../contract';
import { Link } from './Link';
import './ui.css';
import { useStillOnScreen } from './useStillOnScreen';

export const NOT_FOUND_REDIRECT_MS = 3000;

export function NotFound() {
  const navigate = useNavigate();
  const stillHere = useStillOnScreen();
  useEffect(() => {
    // Not when the viewer has already gone elsewhere (the tab bar, the back button) and that screen loads.
    const timer = window.setTimeout(
      () => stillHere() && navigate('/', { replace: true }),
      NOT_FOUND_REDIRECT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [navigate, stillHere]);
  return (
    <section className="not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 className="not-found-title">{messages.notFound.title}</h1>
      <p className="not-found-body">{messages.notFound.body}</p>
      <Link to="/" replace className="btn btn-primary">
        Go home
      </Link>
    </section>
  );
}
