import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFound } from '../../src/app/not-found';
import { messages } from '../../src/contract';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>Home</p> },
      { path: '*', element: <NotFound /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('NotFound', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the exact title as a heading and the exact body', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: messages.notFound.title })).toBeTruthy();
    expect(screen.getByText(messages.notFound.body)).toBeTruthy();
    expect(messages.notFound.title).toBe('Page Not Found');
    expect(messages.notFound.body).toBe("The page you're looking for doesn't exist.");
  });

  it('goes home after 3000 ms, not before', () => {
    const router = renderAt('/no/such/page');
    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(router.state.location.pathname).toBe('/no/such/page');
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Home')).toBeTruthy();
  });

  it('cancels the redirect when it unmounts first', () => {
    const router = renderAt('/gone');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    act(() => {
      void router.navigate('/');
    });
    act(() => {
      void router.navigate('/elsewhere');
    });
    // Past the first screen's deadline, short of the second one's: only a leaked timer would go home now.
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
