// How /login and a mailed link hand an operator over to the console (src/features/admin): the challenge of
// the second step travels in the history entry's state, never in a URL a log or a screenshot could keep.
import type { OperatorChallenge } from '../contract/auth';

export const OPERATOR_SIGN_IN_PATH = '/admin/sign-in';

/** The navigation that continues an operator's sign-in in the console. */
export const operatorHandoff = (answer: OperatorChallenge) =>
  [
    OPERATOR_SIGN_IN_PATH,
    { replace: true, state: { challenge: answer.operator_challenge, step: answer.step } },
  ] as const;

/** The challenge a sign-in screen of the console was handed, if any. */
export function handedOver(state: unknown): { challenge: string; step: 'totp' | 'setup' } | undefined {
  const s = state as { challenge?: unknown; step?: unknown } | null;
  if (typeof s?.challenge !== 'string' || (s.step !== 'totp' && s.step !== 'setup')) return undefined;
  return { challenge: s.challenge, step: s.step };
}
