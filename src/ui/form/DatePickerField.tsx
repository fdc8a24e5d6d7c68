import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ChevronLeftIcon } from '../icons';
import { CalendarIcon, ChevronRightIcon } from '../more-icons';
import { Sheet } from '../Sheet';
import { describedBy, FieldNotes, messageOf } from './FieldNotes';
import type { FormApi, FormValues } from './useForm';
import './date-picker.css';

type DateKeys<V> = { [K in keyof V & string]: V[K] extends string ? K : never }[keyof V & string];

// Days are calendar days (YYYY-MM-DD) and are computed in UTC: no time zone can shift one by a day.
const dayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const partsOf = (day: string) => day.split('-').map(Number) as [number, number, number];
const shift = (day: string, days: number) => {
  const [y, m, d] = partsOf(day);
  return dayOf(y, m - 1, d + days);
};
const clamp = (day: string, min?: string, max?: string) =>
  min && day < min ? min : max && day > max ? max : day;

const long = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const short = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthTitle = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayName = new Intl.DateTimeFormat(undefined, { weekday: 'narrow', timeZone: 'UTC' });
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** A day as people read it ('24 Oct 2025' in English), for labels outside this field. */
export const formatDay = (day: string) => short.format(asDate(day));

/** Monday-first weeks of the month `month` (0-11) of `year`, with null for the days of other months. */
function weeksOf(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month, 1));
  const lead = (first.getUTCDay() + 6) % 7;
  const length = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length }, (_, i) => dayOf(year, month, i + 1)),
  ];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}
// 2024-01-01 was a Monday.
const weekdays = Array.from({ length: 7 }, (_, i) => weekdayName.format(asDate(dayOf(2024, 0, 1 + i))));

/**
 * A month calendar in a sheet: days outside `min`..`max` cannot be chosen, arrow keys move by day and week
 * (Page Up / Down by month), Enter or a tap chooses.
 */
export function CalendarSheet({
  title,
  value,
  min,
  max,
  onPick,
  onClose,
}: {
  title: string;
  value: string;
  min?: string;
  max?: string;
  onPick: (day: string) => void;
  onClose: () => void;
}) {
  const today = new Date().toISOString().slice(0, 10);
  const [focused, setFocused] = useState(() => clamp(value || today, min, max));
  const [year, month] = partsOf(focused);
  const grid = useRef<HTMLFieldSetElement>(null);

  useEffect(() => {
    // The chosen day takes the focus when the sheet opens (the dialog is open by now: a child's effects run
    // first), and follows the arrow keys and the month buttons after.
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${focused}"]`)?.focus();
  }, [focused]);

  const go = (day: string) => setFocused(clamp(day, min, max));
  const onKeyDown = (event: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const by = step[event.key];
    if (by !== undefined) {
      event.preventDefault();
      go(shift(focused, by));
    } else if (event.key === 'PageUp' || event.key === 'PageDown') {
      event.preventDefault();
      const [y, m, d] = partsOf(focused);
      go(dayOf(y, m - 1 + (event.key === 'PageUp' ? -1 : 1), d));
    }
  };
  const firstOfMonth = dayOf(year, month - 1, 1);
  const lastOfMonth = dayOf(year, month, 0);
  const canPrev = !min || shift(firstOfMonth, -1) >= min;
  const canNext = !max || shift(lastOfMonth, 1) <= max;

  return (
    <Sheet title={title} onClose={onClose}>
      <div className="calendar">
        <div className="calendar-head">
          <button
            type="button"
            className="calendar-nav"
            aria-label="Previous month"
            disabled={!canPrev}
            onClick={() => go(dayOf(year, month - 2, 1))}
          >
            <ChevronLeftIcon />
          </button>
          <p className="calendar-month" aria-live="polite">
            {monthTitle.format(asDate(firstOfMonth))}
          </p>
          <button
            type="button"
            className="calendar-nav"
            aria-label="Next month"
            disabled={!canNext}
            onClick={() => go(dayOf(year, month, 1))}
          >
            <ChevronRightIcon />
          </button>
        </div>
        <div className="calendar-weekdays" aria-hidden="true">
          {weekdays.map((name, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two weekdays share a letter; the order is fixed.
            <span key={i}>{name}</span>
          ))}
        </div>
        <fieldset className="calendar-grid" ref={grid} onKeyDown={onKeyDown} aria-label={title}>
          {weeksOf(year, month - 1).map((week) =>
            week.map((day, i) =>
              day === null ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: blank cells have nothing else to tell apart.
                <span key={`${week[6] ?? week[0]}-${i}`} className="calendar-blank" />
              ) : (
                <button
                  key={day}
                  type="button"
                  data-day={day}
                  className={`calendar-day${day === value ? ' is-selected' : ''}${day === today ? ' is-today' : ''}`}
                  aria-label={long.format(asDate(day))}
                  aria-pressed={day === value}
                  aria-current={day === today ? 'date' : undefined}
                  disabled={(min !== undefined && day < min) || (max !== undefined && day > max)}
                  tabIndex={day === focused ? 0 : -1}
                  onClick={() => onPick(day)}
                >
                  {Number(day.slice(8))}
                </button>
              ),
            ),
          )}
        </fieldset>
        <button type="button" className="btn btn-ghost calendar-cancel" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Sheet>
  );
}

/**
 * A date that is picked, never typed: a read-only field that opens a calendar (spec: the stats range).
 * `onPicked` runs after the value changed, e.g. to reload what depends on it.
 */
export function DatePickerField<V extends FormValues, K extends DateKeys<V>>({
  form,
  name,
  label,
  hint,
  min,
  max,
  onPicked,
  className = '',
}: {
  form: FormApi<V>;
  name: K;
  label: string;
  hint?: string;
  min?: string;
  max?: string;
  onPicked?: (day: string) => void;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  const value = String(form.values[name] ?? '');
  const described = describedBy(id, error, hint, ...formRef);
  return (
    <div className={`field date-picker-field${invalid ? ' has-error' : ''} ${className}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="date-picker-control">
        <input
          id={id}
          name={name}
          className="field-input date-picker-input"
          readOnly
          value={value ? formatDay(value) : ''}
          placeholder="Choose a date"
          aria-haspopup="dialog"
          aria-invalid={invalid || undefined}
          aria-describedby={described}
          onClick={() => setOpen(true)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
              event.preventDefault();
              setOpen(true);
            }
          }}
        />
        <CalendarIcon className="date-picker-icon" />
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
      {open && (
        <CalendarSheet
          title={label}
          value={value}
          min={min}
          max={max}
          onClose={() => setOpen(false)}
          onPick={(day) => {
            setOpen(false);
            form.setValue(name, day as V[K]);
            onPicked?.(day);
          }}
        />
      )}
    </div>
  );
}
