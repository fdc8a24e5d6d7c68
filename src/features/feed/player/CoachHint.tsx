import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { tutorialStepAtom } from '../../../state/preferences';
import { useMediaQuery } from '../useMediaQuery';

/**
 * A mouse is the only pointer: there is no finger to swipe with. Touch laptops and phones match `pointer:
 * coarse` or `any-pointer: coarse` and keep the spec's swipe hints.
 */
export const MOUSE_QUERY = '(hover: hover) and (pointer: fine) and (not (any-pointer: coarse))';

/** Step 0 teaches the next video, step 1 the profile panel; each says what works on the viewer's device. */
const HINTS = {
  touch: [
    { arrow: '↑', motion: 'is-up', title: 'SWIPE UP', text: 'For Next Video' },
    { arrow: '←', motion: 'is-left', title: 'SWIPE LEFT', text: 'To Open Profile' },
  ],
  mouse: [
    { arrow: '↓', motion: 'is-down', title: 'SCROLL OR PRESS ↓', text: 'For Next Video' },
    { arrow: '↙', motion: 'is-left', title: 'CLICK THE CREATOR', text: 'To Open Profile' },
  ],
} as const;

/** The coach hint over the first videos. It never blocks the gesture it teaches: only its button takes taps. */
export function CoachHint({ step, onDismiss }: { step: 0 | 1; onDismiss: () => void }) {
  const mouse = useMediaQuery(MOUSE_QUERY);
  const hint = HINTS[mouse ? 'mouse' : 'touch'][step];
  return (
    <div className="coach">
      <span className={`coach-arrow ${hint.motion}`} aria-hidden="true">
        {hint.arrow}
      </span>
      <strong>{hint.title}</strong>
      <span>{hint.text}</span>
      <button type="button" className="btn btn-ghost coach-dismiss" onClick={onDismiss}>
        Got it
      </button>
    </div>
  );
}

/** The coach step (kept on the device): each hint goes once the viewer has done what it teaches, or taps it away. */
export function useCoachStep(current: number, panelOpen: boolean) {
  const [coachStep, setCoachStep] = useAtom(tutorialStepAtom);
  useEffect(() => {
    if (coachStep === 0 && current > 0) setCoachStep(1);
  }, [coachStep, current, setCoachStep]);
  // However the profile opened (swipe, drag, the creator's name), the profile hint has been learnt.
  useEffect(() => {
    if (coachStep === 1 && panelOpen) setCoachStep(2);
  }, [coachStep, panelOpen, setCoachStep]);
  return [coachStep, setCoachStep] as const;
}
