import { useEffect, useRef, useState } from 'react';
import type { FormApi } from '../../ui/form';
import { type Field, stepFields, type WizardValues } from './wizardValues';

const stepOf = (field: string) => stepFields.findIndex((fields) => fields.includes(field as Field)) + 1;

/**
 * Where the wizard's focus goes: to the new step's heading when the person moves on or back (so a screen
 * reader starts reading it), and after a failed send to the first field with a message, on the earliest step
 * that has one. `markSend` comes before a send, so that only a send's messages move the steps.
 */
export function useStepFocus(form: FormApi<WizardValues>, step: number) {
  const heading = useRef<HTMLHeadingElement>(null);
  const jumpToErrors = useRef(false);
  const [focusRequest, setFocusRequest] = useState<'heading' | 'error' | null>(null);

  useEffect(() => {
    if (!jumpToErrors.current) return;
    const withError = Object.keys(form.errors).filter((key) => form.errors[key as Field]);
    if (withError.length === 0) return;
    jumpToErrors.current = false;
    const first = Math.min(...withError.map(stepOf).filter((n) => n > 0));
    if (Number.isFinite(first) && first !== step) form.setValue('step', first);
    setFocusRequest('error');
  }, [form.errors, form, step]);

  useEffect(() => {
    if (!focusRequest) return;
    setFocusRequest(null);
    if (focusRequest === 'heading') {
      window.scrollTo({ top: 0 });
      heading.current?.focus();
      return;
    }
    const first = (stepFields[step - 1] ?? []).find((field) => form.errors[field]);
    if (first) document.getElementById(form.fieldId(first))?.focus();
  }, [focusRequest, step, form]);

  const go = (next: number) => {
    form.setValue('step', next);
    setFocusRequest('heading');
  };
  const markSend = () => {
    jumpToErrors.current = true;
  };

  return { heading, go, markSend };
}
