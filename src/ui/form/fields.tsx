import { type CSSProperties, type FormEvent, type KeyboardEvent, type ReactNode, useState } from 'react';
import { EyeIcon } from '../icons';
import { CloseIcon, EyeOffIcon } from '../more-icons';
import { describedBy, FieldNotes, messageOf } from './FieldNotes';
import type { FormApi, FormValues } from './useForm';
import './form.css';

/** The names of `V`'s fields whose value is a `T`: a text field can only be bound to a string. */
type KeysOf<V, T> = { [K in keyof V & string]: V[K] extends T ? K : never }[keyof V & string];

interface BaseProps<V extends FormValues, K> {
  form: FormApi<V>;
  name: K;
  label: ReactNode;
  /** A line under the field that stays, e.g. a rule or an availability answer. */
  hint?: ReactNode;
  /** `good`: the hint is good news (an available username), drawn green. */
  hintTone?: 'good';
  className?: string;
}

/** Label on top, the control, then the hint and the field's first message: the layout of every field. */
function FieldFrame({
  id,
  label,
  hint,
  hintTone,
  error,
  invalid = Boolean(error),
  extra,
  className = '',
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  hintTone?: 'good' | undefined;
  /** The message under the field; none when it shows in the form's alert (`invalid` marks the field then). */
  error?: string | undefined;
  invalid?: boolean;
  extra?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`field${invalid ? ' has-error' : ''} ${className}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {extra}
      </div>
      {children}
      <FieldNotes id={id} hint={hint} hintTone={hintTone} error={error} />
    </div>
  );
}

export function TextField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  hintTone,
  className,
  type = 'text',
  autoComplete,
  autoCapitalize,
  inputMode,
  placeholder,
  maxLength,
  onBlur,
  readOnly,
}: BaseProps<V, K> & {
  type?: 'text' | 'email' | 'tel' | 'url' | 'search' | 'number';
  autoComplete?: string;
  /** `off` for what is typed exactly (usernames, codes): no capital letter first, no spelling fixes. */
  autoCapitalize?: 'off' | 'words' | 'sentences';
  inputMode?: 'text' | 'email' | 'tel' | 'url' | 'numeric' | 'decimal' | 'search';
  placeholder?: string;
  maxLength?: number;
  onBlur?: () => void;
  readOnly?: boolean;
}) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <FieldFrame
      id={id}
      label={label}
      hint={hint}
      hintTone={hintTone}
      error={error}
      invalid={invalid}
      className={className}
    >
      <input
        autoCapitalize={autoCapitalize}
        spellCheck={autoCapitalize === 'off' ? false : undefined}
        id={id}
        name={name}
        type={type}
        className="field-input"
        value={String(form.values[name] ?? '')}
        onChange={(event) => form.setValue(name, event.target.value as V[K])}
        onBlur={onBlur}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        maxLength={maxLength}
        readOnly={readOnly}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, error, hint, ...formRef)}
      />
    </FieldFrame>
  );
}

/** A password with a show / hide toggle, for checking what was typed on a phone keyboard. */
export function PasswordField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className,
  autoComplete = 'current-password',
}: BaseProps<V, K> & { autoComplete?: 'current-password' | 'new-password' }) {
  const [shown, setShown] = useState(false);
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} invalid={invalid} className={className}>
      <div className="field-affix">
        <input
          id={id}
          name={name}
          type={shown ? 'text' : 'password'}
          className="field-input"
          value={String(form.values[name] ?? '')}
          onChange={(event) => form.setValue(name, event.target.value as V[K])}
          autoComplete={autoComplete}
          autoCapitalize="off"
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy(id, error, hint, ...formRef)}
        />
        <button
          type="button"
          className="field-affix-button"
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
    </FieldFrame>
  );
}

/**
 * Multi-line text; with `maxLength` a counter says how much room is left (announced when it runs out). By
 * default more can be typed, the counter turns red and the schema's message says what is wrong (the spec has
 * words for it: 'Description cannot exceed 200 characters.'); `overflow="stop"` takes no more than
 * `maxLength` at all, for a box whose limit has no words of the spec.
 */
export function TextAreaField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className,
  maxLength,
  overflow = 'warn',
  rows = 4,
  placeholder,
}: BaseProps<V, K> & {
  maxLength?: number;
  overflow?: 'warn' | 'stop';
  rows?: number;
  placeholder?: string;
}) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  const length = String(form.values[name] ?? '').length;
  const counter =
    maxLength === undefined ? undefined : (
      <span
        className={`field-counter${length > maxLength ? ' is-over' : ''}`}
        aria-live={length >= maxLength ? 'polite' : 'off'}
      >
        {length}/{maxLength}
      </span>
    );
  return (
    <FieldFrame
      id={id}
      label={label}
      hint={hint}
      error={error}
      invalid={invalid}
      extra={counter}
      className={className}
    >
      <textarea
        id={id}
        name={name}
        className="field-input"
        rows={rows}
        maxLength={overflow === 'stop' ? maxLength : undefined}
        value={String(form.values[name] ?? '')}
        onChange={(event) => form.setValue(name, event.target.value as V[K])}
        placeholder={placeholder}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, error, hint, ...formRef)}
      />
    </FieldFrame>
  );
}

export interface Option {
  value: string;
  label: string;
  /** Options with the same group are listed under it (an `<optgroup>`), in the order groups first appear. */
  group?: string;
}

/** Options in their groups, keeping the order in which each group first appears. */
function grouped(options: readonly Option[]): [string | undefined, Option[]][] {
  const groups = new Map<string | undefined, Option[]>();
  for (const option of options) {
    const list = groups.get(option.group) ?? [];
    list.push(option);
    groups.set(option.group, list);
  }
  return [...groups];
}

/** A native select (the phone's own picker); `placeholder` is a first, empty option such as 'Select'. */
export function SelectField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className,
  options,
  placeholder,
  autoComplete,
}: BaseProps<V, K> & { options: readonly Option[]; placeholder?: string; autoComplete?: string }) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} invalid={invalid} className={className}>
      <select
        id={id}
        name={name}
        className="field-input field-select"
        value={String(form.values[name] ?? '')}
        onChange={(event) => form.setValue(name, event.target.value as V[K])}
        autoComplete={autoComplete}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, error, hint, ...formRef)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {grouped(options).map(([group, list]) => {
          const items = list.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ));
          return group === undefined ? (
            items
          ) : (
            <optgroup key={group} label={group}>
              {items}
            </optgroup>
          );
        })}
      </select>
    </FieldFrame>
  );
}

/** A checkbox whose label may hold a link (the terms). */
export function CheckboxField<V extends FormValues, K extends KeysOf<V, boolean>>({
  form,
  name,
  label,
  hint,
  className = '',
}: BaseProps<V, K>) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <div className={`field field-check${invalid ? ' has-error' : ''} ${className}`}>
      <div className="field-check-row">
        <input
          id={id}
          name={name}
          type="checkbox"
          className="field-checkbox"
          checked={Boolean(form.values[name])}
          onChange={(event) => form.setValue(name, event.target.checked as V[K])}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy(id, error, hint, ...formRef)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** An on/off setting, drawn as a switch (role="switch" for screen readers). */
export function SwitchField<V extends FormValues, K extends KeysOf<V, boolean>>({
  form,
  name,
  label,
  hint,
  className = '',
}: BaseProps<V, K>) {
  const id = form.fieldId(name);
  return (
    <div className={`field ${className}`}>
      <div className="switch-row">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          type="checkbox"
          role="switch"
          checked={Boolean(form.values[name])}
          aria-checked={Boolean(form.values[name])}
          onChange={(event) => form.setValue(name, event.target.checked as V[K])}
          aria-describedby={describedBy(id, undefined, hint)}
        />
      </div>
      <FieldNotes id={id} hint={hint} />
    </div>
  );
}

export interface Choice extends Option {
  description?: string;
  icon?: ReactNode;
}

/**
 * One of a few choices as radio buttons: large cards (`cards`, e.g. 'Watch videos' / 'Post videos') or a
 * compact list (`list`, e.g. report reasons). Arrow keys move between them, as in any radio group.
 */
export function ChoiceField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className = '',
  options,
  variant = 'cards',
}: BaseProps<V, K> & { options: readonly Choice[]; variant?: 'cards' | 'list' }) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <fieldset
      className={`field field-choices is-${variant}${invalid ? ' has-error' : ''} ${className}`}
      aria-describedby={describedBy(id, error, hint, ...formRef)}
    >
      <legend className="field-label">{label}</legend>
      <div className="field-choice-list">
        {options.map((option, index) => (
          <label key={option.value} className="field-choice">
            <input
              // The first radio carries the field's id, so a failed submit can focus the group.
              id={index === 0 ? id : undefined}
              type="radio"
              name={`${id}-${name}`}
              value={option.value}
              checked={form.values[name] === option.value}
              onChange={() => form.setValue(name, option.value as V[K])}
            />
            {option.icon && (
              <span className="field-choice-icon" aria-hidden="true">
                {option.icon}
              </span>
            )}
            <span className="field-choice-text">
              <span className="field-choice-label">{option.label}</span>
              {option.description && <span className="field-choice-description">{option.description}</span>}
            </span>
          </label>
        ))}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}

/**
 * A list of short words (tags) typed one at a time and added with Enter or a comma; `check` refuses one with
 * a message (the spec's tag rules) before it joins the list. Backspace in an empty input takes the last back.
 */
export function ChipsField<V extends FormValues, K extends KeysOf<V, string[]>>({
  form,
  name,
  label,
  hint,
  className,
  check,
  placeholder,
  prefix = '',
}: BaseProps<V, K> & {
  /** A message when `chip` may not join `current`, else undefined. */
  check?: (chip: string, current: readonly string[]) => string | undefined;
  placeholder?: string;
  /** Drawn before each chip, e.g. '#'. */
  prefix?: string;
}) {
  const [draft, setDraft] = useState('');
  const [refusal, setRefusal] = useState<string | undefined>();
  const id = form.fieldId(name);
  const chips = (form.values[name] as string[] | undefined) ?? [];
  const field = messageOf(form, name);
  const error = refusal ?? field.error;
  const invalid = Boolean(refusal) || field.invalid;
  const formRef = refusal ? [] : field.formRef;

  const add = (raw: string) => {
    const chip = raw.trim();
    if (chip === '') return true;
    const message = check?.(chip, chips);
    if (message) {
      setRefusal(message);
      return false;
    }
    setRefusal(undefined);
    form.setValue(name, [...chips, chip] as V[K]);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      if (add(draft)) setDraft('');
    } else if (event.key === 'Backspace' && draft === '' && chips.length > 0) {
      form.setValue(name, chips.slice(0, -1) as V[K]);
    }
  };

  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} invalid={invalid} className={className}>
      <div className="field-input field-chips">
        {chips.length > 0 && (
          <ul className="chip-list" aria-label="Added">
            {chips.map((chip) => (
              <li key={chip} className="chip is-selected field-chip">
                <span>
                  {prefix}
                  {chip}
                </span>
                <button
                  type="button"
                  className="field-chip-remove"
                  aria-label={`Remove ${prefix}${chip}`}
                  onClick={() => form.setValue(name, chips.filter((c) => c !== chip) as V[K])}
                >
                  <CloseIcon />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={id}
          className="field-chips-input"
          value={draft}
          placeholder={placeholder}
          enterKeyHint="enter"
          autoComplete="off"
          autoCapitalize="off"
          onChange={(event) => {
            const text = event.target.value;
            // A comma typed or pasted ends a chip on keyboards that send no key events (Android IMEs).
            if (text.includes(',')) {
              const parts = text.split(',');
              const last = parts.pop() ?? '';
              for (const part of parts) if (!add(part)) return setDraft(part);
              setDraft(last);
            } else {
              setRefusal(undefined);
              setDraft(text);
            }
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (add(draft)) setDraft('');
          }}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy(id, error, hint, ...formRef)}
        />
      </div>
    </FieldFrame>
  );
}

/** The platform's own date or date-time picker; `min` / `max` bound what it offers. */
export function DateField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className,
  type = 'date',
  min,
  max,
}: BaseProps<V, K> & { type?: 'date' | 'datetime-local'; min?: string; max?: string }) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} invalid={invalid} className={className}>
      <input
        id={id}
        name={name}
        type={type}
        className="field-input field-date"
        value={String(form.values[name] ?? '')}
        min={min}
        max={max}
        onChange={(event) => form.setValue(name, event.target.value as V[K])}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, error, hint, ...formRef)}
      />
    </FieldFrame>
  );
}

export interface Swatch {
  /** '#rrggbb' */
  value: string;
  /** Its name, for screen readers and the tooltip ('Violet'). */
  label: string;
}

/**
 * A colour: a palette of swatches (radio buttons, arrow keys move between them) plus the platform's own
 * colour picker for any other value. The value is a lower-case '#rrggbb', as `<input type="color">` gives.
 */
export function ColorField<V extends FormValues, K extends KeysOf<V, string>>({
  form,
  name,
  label,
  hint,
  className = '',
  palette,
  customLabel = 'Custom colour',
}: BaseProps<V, K> & { palette: readonly Swatch[]; customLabel?: string }) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  const value = String(form.values[name] ?? '').toLowerCase();
  const inPalette = palette.some((swatch) => swatch.value.toLowerCase() === value);
  const set = (color: string) => form.setValue(name, color.toLowerCase() as V[K]);
  return (
    <fieldset
      className={`field field-colors${invalid ? ' has-error' : ''} ${className}`}
      aria-describedby={describedBy(id, error, hint, ...formRef)}
    >
      <legend className="field-label">{label}</legend>
      <div className="field-swatches">
        {palette.map((swatch, index) => (
          <label
            key={swatch.value}
            className="field-swatch"
            title={swatch.label}
            style={{ '--swatch': swatch.value } as CSSProperties}
          >
            <input
              id={index === 0 ? id : undefined}
              type="radio"
              name={`${id}-${name}`}
              value={swatch.value}
              checked={value === swatch.value.toLowerCase()}
              onChange={() => set(swatch.value)}
            />
            <span className="visually-hidden">{swatch.label}</span>
          </label>
        ))}
        <label
          className={`field-swatch field-swatch-custom${inPalette ? '' : ' is-chosen'}`}
          title={customLabel}
          style={{ '--swatch': inPalette ? 'transparent' : value } as CSSProperties}
        >
          <input
            type="color"
            value={/^#[0-9a-f]{6}$/.test(value) ? value : '#000000'}
            onChange={(event) => set(event.target.value)}
          />
          <span className="visually-hidden">{customLabel}</span>
        </label>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}

/**
 * The form's send button, disabled with a spinner while sending, and right above it the form's own message
 * (one that belongs to no field), announced as it appears.
 */
export function SubmitButton<V extends FormValues>({
  form,
  children,
  className = '',
  busy = false,
}: {
  form: FormApi<V>;
  children: ReactNode;
  className?: string;
  /** Work of the screen's own before the form is sent (a stepper's check on Continue): the same spinner. */
  busy?: boolean;
}) {
  const waiting = form.submitting || busy;
  return (
    <>
      <div className="form-error-region" role="alert" id={form.formMessagesId}>
        {form.formMessages.map((message) => (
          <p key={message} className="form-error">
            {message}
          </p>
        ))}
      </div>
      <button
        type="submit"
        className={`btn btn-primary form-submit ${className}`}
        disabled={waiting}
        aria-busy={waiting}
      >
        {waiting && <span className="form-submit-spinner" aria-hidden="true" />}
        <span>{children}</span>
      </button>
    </>
  );
}

/**
 * `<form>` bound to the kit: no browser validation bubbles (the contract's messages show instead). `onSubmit`
 * replaces the kit's send for a form that is not sent at every submit: a stepper's Enter on an early step
 * means Continue, and only the last step calls `form.handleSubmit`.
 */
export function Form<V extends FormValues>({
  form,
  children,
  className = '',
  onSubmit,
  'aria-label': ariaLabel,
  'aria-labelledby': ariaLabelledBy,
}: {
  form: FormApi<V>;
  children: ReactNode;
  className?: string;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (!onSubmit) return void form.handleSubmit(event);
    event.preventDefault();
    onSubmit(event);
  };
  return (
    <form
      className={`form ${className}`}
      noValidate
      onSubmit={submit}
      aria-label={ariaLabel}
      aria-labelledby={ariaLabelledBy}
    >
      {children}
    </form>
  );
}
