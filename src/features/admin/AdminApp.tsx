import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/Spinner';

// The viewer's router imports this module alone, so the list of files it preloads for the console, which sits
// in the shell every viewer downloads, is one name long; the console's own files are listed here instead.
const ConsoleApp = lazy(() => import('./ConsoleApp').then((m) => ({ default: m.ConsoleApp })));

/** /admin/*: the operators' console, in chunks of its own (a viewer never downloads them). */
export function AdminApp() {
  return (
    <Suspense fallback={<Spinner fill />}>
      <ConsoleApp />
    </Suspense>
  );
}
