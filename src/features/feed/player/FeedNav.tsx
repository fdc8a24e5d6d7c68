/** Previous and next buttons: the feed's moves for a pointer or a screen reader, beside swipes and keys. */
export function FeedNav({
  atStart,
  atEnd,
  go,
  onHelp,
}: {
  atStart: boolean;
  atEnd: boolean;
  go: (direction: 1 | -1) => void;
  onHelp: () => void;
}) {
  return (
    <div className="feed-nav">
      <button
        type="button"
        className="feed-nav-button"
        aria-label="Previous video"
        disabled={atStart}
        onClick={() => go(-1)}
      >
        <span aria-hidden="true">▲</span>
      </button>
      <button
        type="button"
        className="feed-nav-button"
        aria-label="Next video"
        disabled={atEnd}
        onClick={() => go(1)}
      >
        <span aria-hidden="true">▼</span>
      </button>
      <button type="button" className="feed-nav-button" aria-label="Keyboard shortcuts" onClick={onHelp}>
        <span aria-hidden="true">?</span>
      </button>
    </div>
  );
}
