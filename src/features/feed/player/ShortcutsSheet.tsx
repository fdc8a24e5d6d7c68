import { Sheet } from '../../../ui/Sheet';
import { SHORTCUTS } from './window';
import './shortcuts.css';

/** "?" over the feed: every key the feed answers to, as a keyboard user's reference. */
export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  return (
    <Sheet title="Keyboard shortcuts" onClose={onClose} className="shortcuts-sheet">
      <dl className="shortcuts">
        {SHORTCUTS.map(({ keys, label }) => (
          <div key={label} className="shortcut">
            <dt>
              {keys.map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{label}</dd>
          </div>
        ))}
      </dl>
      <p className="sheet-note">Shortcuts never fire while you type in a field.</p>
      <button type="button" className="btn btn-ghost shortcuts-close" onClick={onClose}>
        Close
      </button>
    </Sheet>
  );
}
