import { lazy, Suspense } from 'react';
import { matchRoutes, type RouteObject, useLocation, useNavigationType, useRoutes } from 'react-router';
import { backgroundOf, NavigationTypeContext } from '../state/panel';
import { AppLayout } from './layout';
import { ProfilePanel } from './ProfilePanel';
import { RequireAuth } from './RequireAuth';

// Every screen is its own chunk: the shell ships only the layout, and a screen costs bytes when opened.
const loadHome = () => import('../features/feed/HomeScreen');
const loadDiscover = () => import('../features/discover/DiscoverScreen');
const HomeScreen = lazy(() => loadHome().then((m) => ({ default: m.HomeScreen })));
const ProfileScreen = lazy(() =>
  import('../features/profile/ProfileScreen').then((m) => ({ default: m.ProfileScreen })),
);
const TagScreen = lazy(() => import('../features/tags/TagScreen').then((m) => ({ default: m.TagScreen })));
const PageScreen = lazy(() =>
  import('../features/pages/PageScreen').then((m) => ({ default: m.PageScreen })),
);
const NotFound = lazy(() => import('./not-found').then((m) => ({ default: m.NotFound })));
const FeedScreen = lazy(() => import('../features/feed/FeedScreen').then((m) => ({ default: m.FeedScreen })));
const DiscoverScreen = lazy(() => loadDiscover().then((m) => ({ default: m.DiscoverScreen })));
const StudioScreen = lazy(() =>
  import('../features/studio/StudioScreen').then((m) => ({ default: m.StudioScreen })),
);
const GeoBlockingScreen = lazy(() =>
  import('../features/geo/GeoBlockingScreen').then((m) => ({ default: m.GeoBlockingScreen })),
);
const ValidationScreen = lazy(() =>
  import('../features/verification/ValidationScreen').then((m) => ({ default: m.ValidationScreen })),
);
const StatsScreen = lazy(() =>
  import('../features/stats/StatsScreen').then((m) => ({ default: m.StatsScreen })),
);
const RegisterScreen = lazy(() =>
  import('../features/auth/RegisterScreen').then((m) => ({ default: m.RegisterScreen })),
);
const LoginScreen = lazy(() =>
  import('../features/auth/LoginScreen').then((m) => ({ default: m.LoginScreen })),
);
const LoginLinkScreen = lazy(() =>
  import('../features/auth/LoginLinkScreen').then((m) => ({ default: m.LoginLinkScreen })),
);
const ForgotPasswordScreen = lazy(() =>
  import('../features/auth/ForgotPasswordScreen').then((m) => ({ default: m.ForgotPasswordScreen })),
);
const AccountScreen = lazy(() =>
  import('../features/account/AccountScreen').then((m) => ({ default: m.AccountScreen })),
);
// Screens that open one after the other share a chunk and one loader (each import site costs the shell).
const loadSettings = () => import('../features/settings');
const SettingsScreen = lazy(() => loadSettings().then((m) => ({ default: m.SettingsScreen })));
const DetailsScreen = lazy(() => loadSettings().then((m) => ({ default: m.DetailsScreen })));
const GenderScreen = lazy(() => loadSettings().then((m) => ({ default: m.GenderScreen })));
const PasswordScreen = lazy(() => loadSettings().then((m) => ({ default: m.PasswordScreen })));
const ChannelColorScreen = lazy(() => loadSettings().then((m) => ({ default: m.ChannelColorScreen })));
const loadSupport = () => import('../features/support');
const SupportScreen = lazy(() => loadSupport().then((m) => ({ default: m.SupportScreen })));
const HelpScreen = lazy(() => loadSupport().then((m) => ({ default: m.HelpScreen })));
const FollowingScreen = lazy(() =>
  import('../features/following/FollowingScreen').then((m) => ({ default: m.FollowingScreen })),
);
const RatingListScreen = lazy(() =>
  import('../features/rating/RatingListScreen').then((m) => ({ default: m.RatingListScreen })),
);
const ChannelsScreen = lazy(() =>
  import('../features/channels/ChannelsScreen').then((m) => ({ default: m.ChannelsScreen })),
);

/**
 * The two screens most visits open (the home feed, and discover from a home-screen shortcut or a link):
 * their code starts downloading at once, beside the device's preferences, rather than after the first render
 * asks for it.
 */
export function preloadEntryScreen(pathname: string) {
  const load = pathname === '/' ? loadHome : pathname === '/discover' ? loadDiscover : undefined;
  void load?.().catch(() => undefined);
}
const CreatorPromo = lazy(() => import('./CreatorPromo').then((m) => ({ default: m.CreatorPromo })));
const UploadScreen = lazy(() =>
  import('../features/upload/UploadScreen').then((m) => ({ default: m.UploadScreen })),
);
// The account home's upload list: its own small chunk, which loads the queue only when this device holds
// an upload of the account.
const UploadQueueSection = lazy(() =>
  import('../features/upload/UploadQueueSection').then((m) => ({ default: m.UploadQueueSection })),
);

/** Behind the login wrapper (spec §2): without a token and user id, /login instead. */
const members = (route: RouteObject): RouteObject => ({
  ...route,
  element: <RequireAuth>{route.element}</RequireAuth>,
});

type FeedRoute = import('../features/feed/sources').FeedRoute;
const feed = (path: string, route: FeedRoute): RouteObject => ({
  path,
  element: <FeedScreen route={route} />,
});

/**
 * The whole route table of spec §2. Order matters only between equally specific paths: react-router ranks
 * static segments above dynamic ones, so /login beats /:slug, and the tag routes are listed before /:slug/feed
 * so that /tag/feed is a tag, not a profile feed.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    // A crashing screen shows its error inside the layout (its error boundary), the tabs stay usable.
    element: <AppLayout />,
    children: [
      {
        children: [
          { index: true, element: <HomeScreen /> },

          { path: 'tag/:id', element: <TagScreen /> },
          feed('tag/:id/feed', 'tag'),
          feed('tag/:slug/recommended/:videoId', 'tag-video'),
          feed('tag/:slug/videos/:id', 'tag-video'),

          { path: 'discover', element: <DiscoverScreen /> },
          feed('discover/category/:category/feed', 'category'),
          feed('discover/webcam-site/:site/feed', 'webcam-site'),

          feed('video/:id', 'video'),
          feed('video/:id/:slug', 'video'),

          { path: 'register', element: <RegisterScreen /> },
          { path: 'register/:type', element: <RegisterScreen /> },
          { path: 'login', element: <LoginScreen /> },
          { path: 'login/:token', element: <LoginLinkScreen /> },
          { path: 'forgot-password', element: <ForgotPasswordScreen /> },

          { path: 'channels', element: <ChannelsScreen /> },
          // Guests get the creator promo here rather than the login wall.
          {
            path: 'upload',
            element: (
              <RequireAuth guest={<CreatorPromo />}>
                <UploadScreen />
              </RequireAuth>
            ),
          },

          members({
            path: 'account',
            element: (
              <AccountScreen>
                <Suspense fallback={null}>
                  <UploadQueueSection />
                </Suspense>
              </AccountScreen>
            ),
          }),
          members({ path: 'account/settings', element: <SettingsScreen /> }),
          members({ path: 'account/settings/details', element: <DetailsScreen /> }),
          members({ path: 'account/settings/gender', element: <GenderScreen /> }),
          members({ path: 'account/settings/password', element: <PasswordScreen /> }),
          members({ path: 'account/settings/channel-color', element: <ChannelColorScreen /> }),
          members({ path: 'account/settings/studio', element: <StudioScreen /> }),
          members({ path: 'account/settings/geo-blocking', element: <GeoBlockingScreen /> }),
          members({ path: 'account/settings/validation', element: <ValidationScreen /> }),
          members({ path: 'join-studio', element: <StudioScreen /> }),
          members({ path: 'account/following', element: <FollowingScreen /> }),
          members({ path: 'account/stats', element: <StatsScreen /> }),
          members({ path: 'account/help', element: <HelpScreen /> }),

          feed('videos-rating/feed', 'rating'),
          { path: 'videos-rating/:type', element: <RatingListScreen /> },

          { path: 'support', element: <SupportScreen /> },
          { path: 'page/:slug', element: <PageScreen /> },

          // Profiles last among the dynamic first segments: every reserved word above is static and wins.
          { path: ':slug', element: <ProfileScreen /> },
          feed(':slug/feed', 'profile'),

          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

/** Whether `pathname` opens on a feed of videos: the home screen or any of the feed routes. */
export function opensOnFeed(pathname: string): boolean {
  const type = (matchRoutes(routes, pathname)?.at(-1)?.route.element as { type?: unknown } | undefined)?.type;
  return type === HomeScreen || type === FeedScreen;
}

/**
 * Declarative routing (useRoutes in a BrowserRouter), not a data router: no screen uses loaders or actions,
 * and the data router would add some 15 KB gzipped to the first download of every route.
 */
export function AppRoutes() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const background = backgroundOf(location);
  // Always an explicit location, so that opening a panel keeps the same element tree (and the feed mounted).
  const screen = useRoutes(routes, background ?? location);
  const panel = useRoutes(panelRoutes, location);
  return (
    <NavigationTypeContext value={navigationType}>
      {screen}
      {background && panel}
    </NavigationTypeContext>
  );
}

/** What may open as a panel over the screen on show: a creator's profile. */
const panelRoutes: RouteObject[] = [{ path: ':slug', element: <ProfilePanel /> }];
