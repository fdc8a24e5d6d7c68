import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import * as v from 'valibot';
import { type ErrorTexts, errorText } from '../../api/errors';
import { ApiError } from '../../api/http';
import { formLevelMessages } from '../../contract/messages';
import { deleteDraft, readDraft, writeDraft } from '../../offline/drafts';
import { readAuth } from '../../state/auth';

/** What a form holds while it is typed into: strings, booleans, lists, files. */
export type FormValues = Record<string, unknown>;
/** Field name → its first message. */
export type FieldErrors<V extends FormValues> = Partial<Record<keyof V & string, string>>;

export interface UseFormOptions<S extends v.GenericSchema, V extends FormValues> {
  /**
   * The contract's schema of the payload, the same one the server route parses with; a function when the
   * schema depends on what is typed or who types it (the report's email only for guests).
   */
  schema: S | ((values: V) => S);
  initial: V;
  /** Sends the valid payload. A throw (an ApiError) becomes field messages or the form's message. */
  onSubmit: (output: v.InferOutput<S>, values: V) => Promise<unknown> | unknown;
  /** Which words a failure gets (src/api/errors.ts); a 422's field messages always land on their fields. */
  errorTexts?: ErrorTexts;
  /** Told about every failed send, e.g. for a toast the spec asks for beside the field messages. */
  onError?: (error: unknown) => void;
  /**
   * Keeps what is typed on the device until the form is sent, so a reload or a closed tab loses nothing.
   * `omit`: fields never written to disk (passwords). Drafts belong to the signed-in account.
   */
  draft?: { key: string; omit?: readonly (keyof V & string)[] };
}

export interface FormApi<V extends FormValues> {
  /** Prefix of every field's element id. */
  id: string;
  values: V;
  errors: FieldErrors<V>;
  /** A message that belongs to no field: the server's, or a 422 message for a field this form lacks. */
  formError: string | null;
  /**
   * What the form's alert shows, each once: `formError`, and any field message that speaks of the whole form
   * (see `formLevelOf`); the fields carrying one are marked, and say nothing under themselves.
   */
  formMessages: readonly string[];
  /** The id of the form's alert, which a field whose message shows there points to. */
  formMessagesId: string;
  submitting: boolean;
  setValue: <K extends keyof V & string>(name: K, value: V[K]) => void;
  setValues: (patch: Partial<V>) => void;
  /**
   * Fills the fields still empty with what is known from elsewhere (the signed-in account's email). Not
   * typing: a draft's own value still wins, an empty one does not clear it, and no draft is written for it.
   */
  prefill: (patch: Partial<V>) => void;
  /** Shows messages found outside the schema (a taken username, a picture too big). */
  setErrors: (errors: FieldErrors<V>, formError?: string | null) => void;
  /**
   * One field's message found outside the schema (undefined clears it), the others left as they are: for an
   * answer that arrives while the person types (a username's availability).
   */
  setFieldError: (name: keyof V & string, message: string | undefined) => void;
  /**
   * Checks the named fields only (a stepper's current step) and shows their messages; true when they are
   * valid. Without names, the whole form.
   */
  validate: (names?: readonly (keyof V & string)[]) => boolean;
  handleSubmit: (event?: FormEvent) => Promise<void>;
  /** Back to `values` (default: the initial ones) with no messages, and the draft forgotten. */
  reset: (values?: V) => void;
  fieldId: (name: keyof V & string) => string;
}

/** valibot issues → the first message of each top-level field, plus the first one that names none. */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): {
  fields: Record<string, string>;
  root?: string;
} {
  const fields: Record<string, string> = {};
  let root: string | undefined;
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string') fields[key] ??= issue.message;
    else root ??= issue.message;
  }
  return { fields, root };
}

/**
 * A server 422 `errors` object → messages on this form's fields; the first message of a field the form does
 * not have becomes the form's message, so nothing the server said is dropped.
 */
export function serverErrorsToFields(
  errors: Record<string, string[]>,
  fieldNames: readonly string[],
): { fields: Record<string, string>; rest?: string } {
  const fields: Record<string, string> = {};
  let rest: string | undefined;
  for (const [key, list] of Object.entries(errors)) {
    const message = list[0];
    if (!message) continue;
    // Nested names ('links.0.url', 'tags[1]') belong to their top-level field.
    const top = key.split(/[.[]/)[0] ?? key;
    if (fieldNames.includes(top)) fields[top] ??= message;
    else rest ??= message;
  }
  return { fields, rest };
}

/**
 * The field messages that speak of the whole form: those the contract words for no field in particular
 * ('Please fill all the fields.'), and any one several fields carry at once. Shown once, not under each.
 */
export function formLevelOf(errors: Readonly<Record<string, string | undefined>>): string[] {
  const seen = new Set<string>();
  const shared: string[] = [];
  for (const message of Object.values(errors)) {
    if (!message) continue;
    if ((formLevelMessages.has(message) || seen.has(message)) && !shared.includes(message))
      shared.push(message);
    seen.add(message);
  }
  return shared;
}

const draftKeyOf = (key: string) => `${readAuth()?.userId ?? 'guest'}:${key}`;

/**
 * The form kit's hook: values, the contract's validation with its exact messages under each field, a server
 * 422 mapped onto the same fields, the submit state, and optionally a draft kept on the device.
 * Messages appear on submit; after a first attempt they follow every keystroke, so a fixed field clears.
 */
export function useForm<S extends v.GenericSchema, V extends FormValues>(
  options: UseFormOptions<S, V>,
): FormApi<V> {
  const id = useId();
  const [values, setValuesState] = useState<V>(options.initial);
  const [errors, setErrorsState] = useState<FieldErrors<V>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Fields whose messages follow every keystroke: those checked once (a step's Continue), or all after a
  // submit. Messages the server gave stay on their field until that field changes.
  const live = useRef<Set<string> | 'all'>(new Set());
  const fromServer = useRef(new Set<string>());
  const touched = useRef(false);
  const prefilled = useRef(new Set<string>());
  const latest = useRef(options);
  latest.current = options;
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const schemaFor = useCallback((vals: V): S => {
    const { schema } = latest.current;
    return typeof schema === 'function' ? (schema as (values: V) => S)(vals) : schema;
  }, []);

  const check = useCallback(
    (vals: V) => {
      const result = v.safeParse(schemaFor(vals), vals);
      return result.success
        ? { ok: true as const, output: result.output as v.InferOutput<S>, fields: {}, root: undefined }
        : { ok: false as const, output: undefined, ...issuesToErrors(result.issues) };
    },
    [schemaFor],
  );

  // The draft: read once (what was typed before wins only while nothing new has been typed), written after
  // each change settles. Its owner is whoever was signed in when the form opened: a sign-in form that
  // succeeds must forget the guest's draft, not look for one under the account it just signed in.
  const draftKey = options.draft?.key;
  const storeKey = useMemo(() => (draftKey ? draftKeyOf(draftKey) : undefined), [draftKey]);
  const storeKeyRef = useRef(storeKey);
  storeKeyRef.current = storeKey;
  useEffect(() => {
    if (!storeKey) return;
    let cancelled = false;
    readDraft(storeKey)
      .then((stored) => {
        if (cancelled || !stored || touched.current) return;
        const known = Object.fromEntries(
          Object.entries(stored).filter(
            ([key, value]) => key in latest.current.initial && !(value === '' && prefilled.current.has(key)),
          ),
        ) as Partial<V>;
        setValuesState((current) => ({ ...current, ...known }));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [storeKey]);

  const draftTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!storeKey || !touched.current) return;
    draftTimer.current = setTimeout(() => {
      const omit = new Set<string>(latest.current.draft?.omit ?? []);
      const kept = Object.fromEntries(Object.entries(values).filter(([key]) => !omit.has(key)));
      void writeDraft(storeKey, kept).catch(() => undefined);
    }, 300);
    return () => clearTimeout(draftTimer.current);
  }, [storeKey, values]);

  const revalidate = useCallback(
    (next: V, changed: readonly string[]) => {
      for (const name of changed) fromServer.current.delete(name);
      const watched = live.current;
      if (watched !== 'all' && watched.size === 0) return;
      const fields = check(next).fields as Record<string, string>;
      setErrorsState((current) => {
        const merged: Record<string, string | undefined> = {};
        for (const [name, message] of Object.entries(current as Record<string, string | undefined>))
          if (fromServer.current.has(name)) merged[name] = message;
        for (const name of watched === 'all' ? Object.keys(next) : watched)
          merged[name] = fields[name] ?? merged[name];
        return merged as FieldErrors<V>;
      });
    },
    [check],
  );

  const setValues = useCallback(
    (patch: Partial<V>) => {
      touched.current = true;
      const next = { ...valuesRef.current, ...patch };
      valuesRef.current = next;
      setValuesState(next);
      revalidate(next, Object.keys(patch));
    },
    [revalidate],
  );

  const setValue = useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) =>
      setValues({ [name]: value } as unknown as Partial<V>),
    [setValues],
  );

  const prefill = useCallback(
    (patch: Partial<V>) => {
      const empty = Object.entries(patch).filter(([key, value]) => {
        const now = valuesRef.current[key];
        return value !== undefined && value !== '' && (now === undefined || now === '');
      });
      if (empty.length === 0) return;
      for (const [key] of empty) prefilled.current.add(key);
      const next = { ...valuesRef.current, ...Object.fromEntries(empty) } as V;
      valuesRef.current = next;
      setValuesState(next);
      revalidate(
        next,
        empty.map(([key]) => key),
      );
    },
    [revalidate],
  );

  const fieldId = useCallback((name: keyof V & string) => `${id}-${name}`, [id]);

  const focusFirst = useCallback(
    (names: readonly string[]) => {
      const first = Object.keys(valuesRef.current).find((key) => names.includes(key));
      if (first) document.getElementById(fieldId(first as keyof V & string))?.focus();
    },
    [fieldId],
  );

  const validate = useCallback(
    (names?: readonly (keyof V & string)[]) => {
      const result = check(valuesRef.current);
      const fields = result.fields as Record<string, string>;
      if (!names) {
        live.current = 'all';
        setErrorsState(fields as FieldErrors<V>);
        setFormError(result.root ?? null);
        focusFirst(Object.keys(fields));
        return result.ok;
      }
      if (live.current !== 'all') for (const name of names) live.current.add(name);
      const mine = Object.fromEntries(
        Object.entries(fields).filter(([key]) => (names as readonly string[]).includes(key)),
      );
      setErrorsState((current) => {
        const next: Record<string, string | undefined> = { ...current };
        for (const name of names) next[name] = mine[name];
        return next as FieldErrors<V>;
      });
      focusFirst(Object.keys(mine));
      return Object.keys(mine).length === 0;
    },
    [check, focusFirst],
  );

  const handleSubmit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (submitting) return;
      live.current = 'all';
      fromServer.current.clear();
      const snapshot = valuesRef.current;
      const result = check(snapshot);
      setErrorsState(result.fields as FieldErrors<V>);
      setFormError(result.root ?? null);
      if (!result.ok) {
        focusFirst(Object.keys(result.fields));
        return;
      }
      setSubmitting(true);
      try {
        await latest.current.onSubmit(result.output, snapshot);
        // A write still waiting (typed, then sent at once) would bring the sent draft back.
        clearTimeout(draftTimer.current);
        const key = storeKeyRef.current;
        if (key) await deleteDraft(key).catch(() => undefined);
      } catch (error) {
        latest.current.onError?.(error);
        if (error instanceof ApiError && error.status === 422 && error.errors) {
          const mapped = serverErrorsToFields(error.errors, Object.keys(snapshot));
          fromServer.current = new Set(Object.keys(mapped.fields));
          setErrorsState(mapped.fields as FieldErrors<V>);
          const rest = mapped.rest ?? (Object.keys(mapped.fields).length === 0 ? error.message : undefined);
          setFormError(rest ?? null);
          focusFirst(Object.keys(mapped.fields));
        } else {
          setFormError(errorText(error, latest.current.errorTexts));
        }
      } finally {
        setSubmitting(false);
      }
    },
    [check, focusFirst, submitting],
  );

  const setErrors = useCallback((next: FieldErrors<V>, nextFormError: string | null = null) => {
    fromServer.current = new Set(Object.keys(next).filter((key) => next[key as keyof V & string]));
    setErrorsState(next);
    setFormError(nextFormError);
  }, []);

  const setFieldError = useCallback((name: keyof V & string, message: string | undefined) => {
    if (message) fromServer.current.add(name);
    else fromServer.current.delete(name);
    setErrorsState((current) => ({ ...current, [name]: message }));
  }, []);

  const reset = useCallback((next?: V) => {
    live.current = new Set();
    fromServer.current.clear();
    touched.current = false;
    const fresh = next ?? latest.current.initial;
    valuesRef.current = fresh;
    setValuesState(fresh);
    setErrorsState({});
    setFormError(null);
    clearTimeout(draftTimer.current);
    const key = storeKeyRef.current;
    if (key) void deleteDraft(key).catch(() => undefined);
  }, []);

  const formMessages = useMemo(() => {
    const shared = formLevelOf(errors as Record<string, string | undefined>);
    return formError && !shared.includes(formError) ? [formError, ...shared] : shared;
  }, [errors, formError]);

  return useMemo(
    () => ({
      id,
      values,
      errors,
      formError,
      formMessages,
      formMessagesId: `${id}-form-error`,
      submitting,
      setValue,
      setValues,
      prefill,
      setErrors,
      setFieldError,
      validate,
      handleSubmit,
      reset,
      fieldId,
    }),
    [
      id,
      values,
      errors,
      formError,
      formMessages,
      submitting,
      setValue,
      setValues,
      prefill,
      setErrors,
      setFieldError,
      validate,
      handleSubmit,
      reset,
      fieldId,
    ],
  );
}
