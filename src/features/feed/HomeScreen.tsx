import { useAtomValue } from 'jotai';
import { homeGenerationAtom } from '../../state/home';
import { FeedScreen } from './FeedScreen';

/** `/`: the home feed, started afresh each time the home tab is tapped while on it. */
export function HomeScreen() {
  return <FeedScreen route="home" generation={useAtomValue(homeGenerationAtom)} />;
}
