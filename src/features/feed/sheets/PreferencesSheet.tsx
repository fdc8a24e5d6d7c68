import { useAtom } from 'jotai';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { genderPreferenceAtom } from '../../../api/genderPreference';
import { fetchTags } from '../../../api/videos';
import type { GenderPreference, Tag } from '../../../contract';
import { connectionInfo, defaultKeepSetting, type KeepSetting } from '../../../offline/tunnel/setting';
import { clearKept, keptSnapshot, subscribeKept } from '../../../offline/tunnel/store';
import {
  keepOfflineAtom,
  preferenceAutoscrollAtom,
  preferenceSelectedTagsAtom,
} from '../../../state/preferences';
import '../../../ui/form/form.css';
import { Sheet } from '../../../ui/Sheet';

/** Spec §9: tag search starts at 2 characters, 300 ms after the last keystroke. */
export const TAG_SEARCH_MIN = 2;
export const TAG_SEARCH_DEBOUNCE_MS = 300;

const genderChoices: { value: GenderPreference; label: string }[] = [
  { value: 'm', label: 'Male' },
  { value: 't', label: 'Trans' },
  { value: 'm,t', label: 'Both' },
];

const keepChoices: { value: KeepSetting; label: string }[] = [
  { value: 'wifi', label: 'On Wi-Fi' },
  { value: 'always', label: 'Always' },
  { value: 'never', label: 'Never' },
];

/** One choice of a few, as the sheet's segmented control: a radio group under its fieldset's legend. */
function Segmented<T extends string>({
  choices,
  value,
  onChange,
}: {
  choices: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <div className="segmented">
      {choices.map((choice) => (
        <label key={choice.value} className="segmented-option">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}

/** "12 videos · 64 MB": what the tunnel buffer holds now. */
export function keptSummary(count: number, bytes: number): string {
  if (count === 0) return 'Nothing kept yet';
  const mb = bytes / 2 ** 20;
  return `${count} ${count === 1 ? 'video' : 'videos'} · ${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/** The tunnel buffer's setting (src/offline/tunnel): when videos are kept, what is kept now, and Clear. */
function KeepOffline() {
  const [chosen, choose] = useAtom(keepOfflineAtom);
  const setting = chosen ?? defaultKeepSetting(connectionInfo());
  const entries = useSyncExternalStore(subscribeKept, keptSnapshot);
  const bytes = entries.reduce((sum, e) => sum + e.bytes, 0);
  const [clearing, setClearing] = useState(false);
  return (
    <fieldset className="field">
      <legend className="field-label">Keep videos for offline</legend>
      <Segmented choices={keepChoices} value={setting} onChange={choose} />
      <div className="keep-offline-status">
        <span role="status">{keptSummary(entries.length, bytes)}</span>
        {entries.length > 0 && (
          <button
            type="button"
            className="btn btn-ghost"
            disabled={clearing}
            onClick={() => {
              setClearing(true);
              void clearKept().finally(() => setClearing(false));
            }}
          >
            Clear
          </button>
        )}
      </div>
    </fieldset>
  );
}

/** Preferences modal: who the feeds show, autoplay the next video, and the tags the home feed is narrowed to. */
export function PreferencesSheet({ onClose }: { onClose: () => void }) {
  const [savedGender, setGender] = useAtom(genderPreferenceAtom);
  // Applied as the sheet closes: a new gender reloads the feed under the sheet, which would take the sheet
  // away mid-choice.
  const [gender, chooseGender] = useState(savedGender);
  const close = () => {
    if (gender !== savedGender) setGender(gender);
    onClose();
  };
  const [autoscroll, setAutoscroll] = useAtom(preferenceAutoscrollAtom);
  const [selectedTags, setSelectedTags] = useAtom(preferenceSelectedTagsAtom);
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<Tag[]>([]);
  const [searching, setSearching] = useState(false);

  useEffect(() => {
    const query = term.trim();
    if (query.length < TAG_SEARCH_MIN) {
      setResults([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setSearching(true);
      fetchTags({ search: query, per_page: 100 }, controller.signal).then(
        (page) => {
          setResults(page.data);
          setSearching(false);
        },
        () => {
          if (!controller.signal.aborted) setSearching(false);
        },
      );
    }, TAG_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);

  const selected = new Set(selectedTags.map((t) => t.id));
  const toggleTag = (tag: { id: number; name: string }) =>
    setSelectedTags(
      selected.has(tag.id)
        ? selectedTags.filter((t) => t.id !== tag.id)
        : [...selectedTags, { id: tag.id, name: tag.name }],
    );

  return (
    <Sheet title="Preferences" onClose={close}>
      <fieldset className="field">
        <legend className="field-label">Show creators</legend>
        <Segmented choices={genderChoices} value={gender} onChange={chooseGender} />
      </fieldset>
      <label className="switch-row">
        <span>Autoplay next video</span>
        <input type="checkbox" checked={autoscroll} onChange={(e) => setAutoscroll(e.target.checked)} />
      </label>
      <KeepOffline />
      <label className="field">
        <span className="field-label">Tags</span>
        <input
          className="field-input"
          type="search"
          placeholder="Search tags..."
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          autoComplete="off"
        />
      </label>
      {selectedTags.length > 0 && (
        <ul className="chip-list" aria-label="Selected tags">
          {selectedTags.map((tag) => (
            <li key={tag.id}>
              <button type="button" className="chip is-selected" onClick={() => toggleTag(tag)}>
                #{tag.name} ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      {searching && <p className="sheet-note">Searching…</p>}
      {results.length > 0 && (
        <ul className="chip-list" aria-label="Tag results">
          {results.map((tag) => (
            <li key={tag.id}>
              <button
                type="button"
                className={`chip${selected.has(tag.id) ? ' is-selected' : ''}`}
                aria-pressed={selected.has(tag.id)}
                onClick={() => toggleTag(tag)}
              >
                #{tag.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-primary" onClick={close}>
        Done
      </button>
    </Sheet>
  );
}
