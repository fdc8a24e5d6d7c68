import './ui.css';

/** `fill` centres the spinner in whatever area it is given (a screen, the Suspense slot). */
export function Spinner({ fill = false }: { fill?: boolean }) {
  const spinner = <span role="status" aria-label="Loading" className="spinner" />;
  return fill ? <div className="spinner-fill">{spinner}</div> : spinner;
}
