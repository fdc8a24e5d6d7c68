// The app's links (src/ui/Link.tsx), which stand in for React Router's: they must go where those went, the
// way those went, and mark the current tab.
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Link, NavLink } from '../../src/ui/Link';

function Where() {
  const location = useLocation();
  return (
    <output>
      {location.pathname}
      {location.search} {JSON.stringify(location.state)}
    </output>
  );
}

function Tabs() {
  return (
    <nav>
      <NavLink to="/" end className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
        Home
      </NavLink>
      <NavLink to="/discover" className="tab">
        Discover
      </NavLink>
      <NavLink to="/admin" end className="tab">
        Console
      </NavLink>
    </nav>
  );
}

function App() {
  const routes = useRoutes([
    {
      path: '/users/:id',
      element: (
        <Link to="videos?page=2" state={{ from: 'profile' }}>
          Their videos
        </Link>
      ),
    },
    { path: '*', element: <Tabs /> },
  ]);
  return (
    <>
      {routes}
      <Where />
    </>
  );
}

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );

describe('the app links', () => {
  it('resolve relative paths, and a click goes there in the app with the state given', () => {
    renderAt('/users/7');
    const link = screen.getByRole('link', { name: 'Their videos' });
    expect(link.getAttribute('href')).toBe('/users/7/videos?page=2');
    fireEvent.click(link);
    expect(screen.getByRole('status').textContent).toBe('/users/7/videos?page=2 {"from":"profile"}');
  });

  it('leave a click with a modifier key (a new tab) to the browser', () => {
    renderAt('/users/7');
    const link = screen.getByRole('link', { name: 'Their videos' });
    // Seen once the app's handlers have run (the event reaches the document after React's root); then
    // stopped, as the test page has nowhere to go.
    let leftToBrowser: boolean | undefined;
    const seen = (event: MouseEvent) => {
      leftToBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', seen);
    try {
      fireEvent.click(link, { ctrlKey: true });
      expect(leftToBrowser).toBe(true);
      expect(screen.getByRole('status').textContent).toBe('/users/7 null');
      fireEvent.click(link);
      expect(leftToBrowser).toBe(false);
    } finally {
      document.removeEventListener('click', seen);
    }
  });

  it('mark the current tab, with `end` only on its very path, and nothing under a path but past a slash', () => {
    renderAt('/discover/tags');
    const home = screen.getByRole('link', { name: 'Home' });
    const discover = screen.getByRole('link', { name: 'Discover' });
    expect(home.className).toBe('tab');
    expect(home.getAttribute('aria-current')).toBeNull();
    expect(discover.className).toBe('tab active');
    expect(discover.getAttribute('aria-current')).toBe('page');

    fireEvent.click(home);
    expect(home.className).toBe('tab active');
    expect(home.getAttribute('aria-current')).toBe('page');
    expect(discover.className).toBe('tab');
  });

  it('do not mark a tab from a path that only starts like it, nor an `end` tab from below it', () => {
    renderAt('/discovery');
    expect(screen.getByRole('link', { name: 'Discover' }).getAttribute('aria-current')).toBeNull();
    renderAt('/admin/accounts');
    expect(screen.getAllByRole('link', { name: 'Console' }).at(-1)?.getAttribute('aria-current')).toBeNull();
  });
});
