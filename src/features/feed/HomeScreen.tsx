import { FeedScreen } from './FeedScreen';

/** `/`: the home feed. The layout re-mounts it (new key) when the home tab is tapped while on it. */
export function HomeScreen() {
  return <FeedScreen route="home" />;
}
