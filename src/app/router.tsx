import { isValidElement, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { matchRoutes, type RouteObject, useLocation, useNavigationType, useRoutes } from 'react-router';
import { takeBootVideo } from '../api/boot';
import { readAuth } from '../state/auth';
import { backgroundOf, NavigationTypeContext } from '../state/panel';
import { type LazyComponent, lazyComponent } from '../ui/lazyComponent';
import { AppLayout } from './layout';
import { ProfilePanel } from './ProfilePanel';
import { RequireAuth } from './RequireAuth';

// Every screen is its own chunk: the shell ships only the layout, and a screen costs bytes when opened.
// The home feed and every other feed route are one chunk: `/` needs the feed's code anyway.
const loadFeed = () => import('../features/feed/FeedScreen');
const loadDiscover = () => import('../features/discover/DiscoverScreen');
const HomeScreen = lazyComponent(() => loadFeed().then((m) => m.HomeScreen));
const ProfileScreen = lazyComponent(() =>
  import('../features/profile/ProfileScreen').then((m) => m.ProfileScreen),
);
const TagScreen = lazyComponent(() => import('../features/tags/TagScreen').then((m) => m.TagScreen));
const PageScreen = lazyComponent(() => import('../features/pages/PageScreen').then((m) => m.PageScreen));
const NotFound = lazyComponent(() => import('./not-found').then((m) => m.NotFound));
const FeedScreen = lazyComponent(() => loadFeed().then((m) => m.FeedScreen));
const DiscoverScreen = lazyComponent(() => loadDiscover().then((m) => m.DiscoverScreen));
const StudioScreen = lazyComponent(() =>
  import('../features/studio/StudioScreen').then((m) => m.StudioScreen),
);
const GeoBlockingScreen = lazyComponent(() =>
  import('../features/geo/GeoBlockingScreen').then((m) => m.GeoBlockingScreen),
);
const ValidationScreen = lazyComponent(() =>
  import('../features/verification/ValidationScreen').then((m) => m.ValidationScreen),
);
const StatsScreen = lazyComponent(() => import('../features/stats/StatsScreen').then((m) => m.StatsScreen));
const RegisterScreen = lazyComponent(() =>
  import('../features/auth/RegisterScreen').then((m) => m.RegisterScreen),
);
const loadSignIn = () => import('../features/auth/sign-in');
const LoginScreen = lazyComponent(() => loadSignIn().then((m) => m.LoginScreen));
const LoginLinkScreen = lazyComponent(() => loadSignIn().then((m) => m.LoginLinkScreen));
const ForgotPasswordScreen = lazyComponent(() => loadSignIn().then((m) => m.ForgotPasswordScreen));
const loadAccount = () => import('./account-screens');
const AccountScreen = lazyComponent(() => loadAccount().then((m) => m.AccountScreen));
// Screens that open one after the other share a chunk and one loader (each import site costs the shell).
const loadSettings = () => import('../features/settings');
const SettingsScreen = lazyComponent(() => loadSettings().then((m) => m.SettingsScreen));
const DetailsScreen = lazyComponent(() => loadSettings().then((m) => m.DetailsScreen));
const GenderScreen = lazyComponent(() => loadSettings().then((m) => m.GenderScreen));
const PasswordScreen = lazyComponent(() => loadSettings().then((m) => m.PasswordScreen));
const ChannelColorScreen = lazyComponent(() => loadSettings().then((m) => m.ChannelColorScreen));
const loadSupport = () => import('../features/support');
const SupportScreen = lazyComponent(() => loadSupport().then((m) => m.SupportScreen));
const HelpScreen = lazyComponent(() => loadSupport().then((m) => m.HelpScreen));
const FollowingScreen = lazyComponent(() => loadAccount().then((m) => m.FollowingScreen));
const RatingListScreen = lazyComponent(() =>
  import('../features/rating/RatingListScreen').then((m) => m.RatingListScreen),
);
const ChannelsScreen = lazyComponent(() =>
  import('../features/channels/ChannelsScreen').then((m) => m.ChannelsScreen),
);

// The operators' console: its own layout, session and chunks, outside the viewer's app.
const AdminApp = lazyComponent(() => import('../features/admin/AdminApp').then((m) => m.AdminApp));

const CreatorPromo = lazyComponent(() => import('./CreatorPromo').then((m) => m.CreatorPromo));
const UploadScreen = lazyComponent(() =>
  import('../features/upload/UploadScreen').then((m) => m.UploadScreen),
);
// The account home's upload list: its own small chunk, which loads the queue only when this device holds
// an upload of the account.
const UploadQueueSection = lazyComponent(() =>
  import('../features/upload/UploadQueueSection').then((m) => m.UploadQueueSection),
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
  { path: '/admin/*', element: <AdminApp /> },
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

/** The screen `pathname` opens on: the route's element, or for a login wrapper the one it will show. */
function entryScreenOf(pathname: string): unknown {
  const element = matchRoutes(routes, pathname)?.at(-1)?.route.element;
  if (!isValidElement(element)) return undefined;
  if (element.type !== RequireAuth) return element.type;
  const { children, guest } = element.props as { children?: ReactNode; guest?: ReactNode };
  const shown = readAuth() ? children : guest;
  return isValidElement(shown) ? shown.type : undefined;
}

/** Whether `pathname` opens on a feed of videos: the home screen or any of the feed routes. */
export function opensOnFeed(pathname: string): boolean {
  const screen = entryScreenOf(pathname);
  return screen === HomeScreen || screen === FeedScreen;
}

/**
 * The first screen's code, asked for at once beside the device's preferences; main.tsx renders once it is
 * in, so the first commit is the screen rather than a fallback (see src/ui/lazyComponent.tsx).
 */
export function preloadEntryScreen(pathname: string): Promise<unknown> {
  const screen = entryScreenOf(pathname) as Partial<LazyComponent<object>> | undefined;
  return screen?.preload?.().catch(() => undefined) ?? Promise.resolve();
}

/**
 * Declarative routing (useRoutes in a BrowserRouter), not a data router: no screen uses loaders or actions,
 * and the data router would add some 15 KB gzipped to the first download of every route.
 */
export function AppRoutes() {
  const location = useLocation();
  const navigationType = useNavigationType();
  // index.html's first video waits on screen for the feed's first slot: a viewer who went elsewhere first
  // leaves it behind, stopped.
  const firstKey = useRef(location.key);
  useEffect(() => {
    if (location.key !== firstKey.current) takeBootVideo(null);
  }, [location.key]);
  const background = backgroundOf(location);
  // Always an explicit location, so that opening a panel keeps the same element tree (and the feed mounted).
  const screen = useRoutes(routes, background ?? location);
  const panel = useRoutes(panelRoutes, location);
  return (
    <NavigationTypeContext.Provider value={navigationType}>
      {screen}
      {background && panel}
    </NavigationTypeContext.Provider>
  );
}

/** What may open as a panel over the screen on show: a creator's profile. */
const panelRoutes: RouteObject[] = [
  { path: ':slug', element: <ProfilePanel /> },
  // Matched (and not rendered) on every other screen: react-router warns in the console on a location none
  // of its routes match, on every render of every screen.
  { path: '*', element: null },
];
