import { act, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { BrowserRouter, useRoutes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFound } from '../../src/app/not-found';
import { messages } from '../../src/contract';
import { Link } from '../../src/ui/Link';

// A screen whose code never arrives: a link to it leaves the page it was followed from on screen, as a lazy
// screen on a slow link does.
const NeverLoads = lazy(() => new Promise<never>(() => {}));

function Routes() {
  return useRoutes([
    { path: '/', element: <p>Home</p> },
    { path: '/discover', element: <NeverLoads /> },
    {
      path: '*',
      element: (
        <>
          <NotFound />
          <Link to="/discover">Discover</Link>
          <Link to="/café gone">Another missing page</Link>
        </>
      ),
    },
  ]);
}

/** The app's own router (main.tsx): the address changes at once, the screens in a transition. */
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  render(
    <BrowserRouter>
      <Suspense fallback={<p>Loading</p>}>
        <Routes />
      </Suspense>
    </BrowserRouter>,
  );
}

const address = () => window.location.pathname;
// The unit files share one page (isolate: false): leave the address as this file found it.
const startAddress = window.location.href;

describe('NotFound', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    window.history.replaceState(null, '', startAddress);
  });

  it('shows the exact title as a heading and the exact body', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: messages.notFound.title })).toBeTruthy();
    expect(screen.getByText(messages.notFound.body)).toBeTruthy();
    expect(messages.notFound.title).toBe('Page Not Found');
    expect(messages.notFound.body).toBe("The page you're looking for doesn't exist.");
  });

  it('goes home after 3000 ms, not before', () => {
    renderAt('/no/such/page');
    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(address()).toBe('/no/such/page');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(address()).toBe('/');
    expect(screen.getByText('Home')).toBeTruthy();
  });

  it('goes home from an address with encoded characters too, opened or followed', () => {
    renderAt('/n%C3%B6 page');
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Another missing page' }));
    });
    expect(address()).toBe('/caf%C3%A9%20gone');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(address()).toBe('/');
  });

  it('cancels the redirect when it unmounts first', () => {
    renderAt('/gone');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Go home' }));
    });
    // Back to the same missing page, as the back button goes: a second page, with a deadline of its own, at
    // the address the first one's timer would check.
    act(() => {
      window.history.pushState(null, '', '/gone');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    // Past the first page's deadline, short of the second one's: only a leaked timer would go home now.
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(address()).toBe('/gone');
  });

  it('does not go home when the viewer followed a link whose screen is still loading', () => {
    renderAt('/gone');
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Discover' }));
    });
    // The page stays on screen while Discover's code loads, and its deadline passes.
    expect(screen.getByRole('heading', { name: messages.notFound.title })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(3500);
    });
    expect(address()).toBe('/discover');
  });
});
