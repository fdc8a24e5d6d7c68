import type { ReactNode } from 'react';
import type { FormApi, FormValues } from './useForm';

/**
 * How a field's message shows: under the field (`error`), or, for one that speaks of the whole form
 * ('Please fill all the fields.'), only once in the form's alert, which the control is then described by
 * (`formRef`). The field is marked `invalid` either way.
 */
export function messageOf<V extends FormValues>(form: FormApi<V>, name: keyof V & string) {
  const message = form.errors[name];
  const atForm = message !== undefined && form.formMessages.includes(message);
  return {
    error: atForm ? undefined : message,
    invalid: Boolean(message),
    formRef: atForm ? [form.formMessagesId] : [],
  };
}

/** The ids a control points to with aria-describedby: its message first, then its hint. */
export function describedBy(id: string, error: string | undefined, hint: ReactNode, ...more: string[]) {
  const ids = [...more, error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

/**
 * What stands under every field: the hint that stays, then the field's first message. The ids are the ones
 * `describedBy` gives the control, so a screen reader reads both with it.
 */
export function FieldNotes({
  id,
  hint,
  hintTone,
  error,
}: {
  id: string;
  hint?: ReactNode;
  /** `good`: the hint is good news (an available username), drawn green. */
  hintTone?: 'good' | undefined;
  error?: string | undefined;
}) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={`field-hint${hintTone === 'good' ? ' is-good' : ''}`}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}
