import { type Params, useParams } from 'react-router';
import { PlayIcon } from '../ui/icons';
import { ScreenHeader } from '../ui/ScreenHeader';

export type ScreenTitle = string | ((params: Params) => string);

/** Stand-in for a screen whose issue has not been built yet: the real layout, its title, nothing else. */
export function PlaceholderScreen({ title }: { title: ScreenTitle }) {
  const params = useParams();
  const text = typeof title === 'function' ? title(params) : title;
  return (
    <>
      <ScreenHeader title={text} />
      <div className="placeholder-body">
        <div className="placeholder-badge">
          <PlayIcon />
        </div>
        <h2 className="placeholder-title">{text}</h2>
        <p className="placeholder-text">This screen is on its way. Meanwhile, the feed is one tap away.</p>
      </div>
    </>
  );
}
