import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './layout';
import type { ScreenTitle } from './PlaceholderScreen';
import { RouteError } from './RouteError';

// Every screen is its own chunk: the shell ships only the layout, and a screen costs bytes when opened.
const HomeScreen = lazy(() => import('../features/feed/HomeScreen').then((m) => ({ default: m.HomeScreen })));
const ProfileScreen = lazy(() =>
  import('../features/profile/ProfileScreen').then((m) => ({ default: m.ProfileScreen })),
);
const PageScreen = lazy(() =>
  import('../features/pages/PageScreen').then((m) => ({ default: m.PageScreen })),
);
const NotFound = lazy(() => import('./not-found').then((m) => ({ default: m.NotFound })));
const PlaceholderScreen = lazy(() =>
  import('./PlaceholderScreen').then((m) => ({ default: m.PlaceholderScreen })),
);

const placeholder = (path: string, title: ScreenTitle): RouteObject => ({
  path,
  element: <PlaceholderScreen title={title} />,
});

const titleCase = (text = '') => text.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/**
 * The whole route table of spec §2. Order matters only between equally specific paths: react-router ranks
 * static segments above dynamic ones, so /login beats /:slug, and the tag routes are listed before /:slug/feed
 * so that /tag/feed is a tag, not a profile feed.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Pathless: a crashing screen shows its error inside the layout, the tabs stay usable.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomeScreen /> },

          placeholder('tag/:id', 'Tag'),
          placeholder('tag/:id/feed', 'Tag feed'),
          placeholder('tag/:slug/recommended/:videoId', 'Tag feed'),
          placeholder('tag/:slug/videos/:id', 'Tag feed'),

          placeholder('discover', 'Discover'),
          placeholder('discover/category/:category/feed', ({ category }) => titleCase(category)),
          placeholder('discover/webcam-site/:site/feed', ({ site = '' }) => `Best of ${site}`),

          placeholder('video/:id', 'Video'),
          placeholder('video/:id/:slug', 'Video'),

          placeholder('register', 'Register'),
          placeholder('register/:type', 'Register'),
          placeholder('login', 'Login'),
          placeholder('login/:token', 'Login'),
          placeholder('forgot-password', 'Password recovery'),

          placeholder('channels', 'Channels'),
          placeholder('upload', 'Upload'),

          placeholder('account', 'Account'),
          placeholder('account/settings', 'Settings'),
          placeholder('account/settings/details', 'Details'),
          placeholder('account/settings/gender', 'Sex'),
          placeholder('account/settings/password', 'Password'),
          placeholder('account/settings/channel-color', 'Channel color'),
          placeholder('account/settings/studio', 'Studio'),
          placeholder('account/settings/geo-blocking', 'Geo-blocking'),
          placeholder('account/settings/validation', 'Account validation'),
          placeholder('join-studio', 'Studio'),
          placeholder('account/following', 'Following'),
          placeholder('account/stats', 'Profile statistics'),
          placeholder('account/help', 'Help'),

          placeholder('videos-rating/feed', 'Unrated videos'),
          placeholder('videos-rating/:type', ({ type }) =>
            type === 'rated' ? 'Rated videos' : 'Unrated videos',
          ),

          placeholder('support', 'User details'),
          { path: 'page/:slug', element: <PageScreen /> },

          // Profiles last among the dynamic first segments: every reserved word above is static and wins.
          { path: ':slug', element: <ProfileScreen /> },
          placeholder(':slug/feed', 'Feed'),

          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
