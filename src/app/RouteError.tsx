import { Component, type ReactNode } from 'react';
import { Link } from '../ui/Link';

/**
 * Catches what a screen throws while rendering; `resetKey` (the path) clears it, so navigating elsewhere
 * recovers without a reload.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { error: unknown; key: string | undefined }
> {
  override state = { error: undefined as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey?: string },
    state: { error: unknown; key: string | undefined },
  ) {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteError error={this.state.error} />;
  }
}

export function RouteError({ error }: { error: unknown }) {
  if (import.meta.env.DEV) console.error(error);
  // A failed chunk import usually means a new version was deployed under this tab: a reload fixes it.
  const stale =
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script/i.test(error.message);
  const text = stale
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
