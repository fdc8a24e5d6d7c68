import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  // A failed chunk import usually means a new version was deployed under this tab: a reload fixes it.
  const stale =
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script/i.test(error.message);
  const text = isRouteErrorResponse(error)
    ? `The server answered ${error.status}. Please try again in a moment.`
    : stale
      ? 'A newer version of the app is available. Reload to continue.'
      : 'This screen hit a problem. Reloading usually helps.';
  return (
    <section className="route-error" role="alert">
      <h1 className="route-error-title">Something went wrong</h1>
      <p className="route-error-text">{text}</p>
      <div className="route-error-actions">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="btn btn-ghost">
          Go home
        </Link>
      </div>
    </section>
  );
}
