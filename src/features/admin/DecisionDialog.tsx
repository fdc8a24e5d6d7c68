import type { ReactNode } from 'react';
import { Form, type FormApi, type FormValues, SelectField, SubmitButton, TextAreaField } from '../../ui/form';
import { Sheet } from '../../ui/Sheet';
import { isConflict, reasonOptions } from './parts';

/**
 * A decision that needs words (a reason, a note): a modal sheet with its form, Cancel beside the send. The
 * page behind is inert while it is open, so the review screen's shortcuts cannot fire under it.
 */
export function DecisionDialog<V extends FormValues>({
  title,
  lead,
  form,
  submitLabel,
  danger = false,
  onClose,
  children,
}: {
  title: string;
  /** What is being decided (the video's title, the creator's name): one line under the title. */
  lead?: ReactNode;
  form: FormApi<V>;
  submitLabel: string;
  danger?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Sheet title={title} onClose={() => !form.submitting && onClose()} className="admin-dialog">
      {lead && <p className="admin-dialog-lead">{lead}</p>}
      <Form form={form}>
        {children}
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={form.submitting}>
            Cancel
          </button>
          <SubmitButton form={form} className={danger ? 'admin-submit-danger' : ''}>
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </Sheet>
  );
}

type ReasonValues = { reason: string; note: string };

/**
 * A reason from one of the contract's tables (the sentence the person reads is the option's label) and the
 * operator's own note under it: the two fields of every decision that is mailed.
 */
export function ReasonFields<V extends ReasonValues>({
  form: anyForm,
  reasons,
  noteLabel = 'Note to the creator (optional)',
}: {
  form: FormApi<V>;
  reasons: Record<string, string>;
  noteLabel?: string;
}) {
  // The two fields exist in every such form (the type says so); the kit's field types cannot see that
  // through a generic, so they are given the form as its reason-and-note part.
  const form = anyForm as unknown as FormApi<ReasonValues>;
  return (
    <>
      <SelectField
        form={form}
        name="reason"
        label="Reason"
        placeholder="Choose a reason"
        options={reasonOptions(reasons)}
      />
      <TextAreaField
        form={form}
        name="note"
        label={noteLabel}
        hint="Added under the reason in the email, and kept in the audit log."
        maxLength={2000}
        rows={3}
      />
    </>
  );
}

/**
 * Sends a decision; true once it is made. Someone else's decision first (409) is not a form error: the
 * caller's `onConflict` shows it and refreshes the list instead.
 */
export async function decide(send: () => Promise<unknown>, onConflict: () => void): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (error) {
    if (!isConflict(error)) throw error;
    onConflict();
    return false;
  }
}
