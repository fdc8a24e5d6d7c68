/** The wizard's steps; the fourth is the screen shown once the request is sent. */
export const STEPS = ['Personal data', 'Identity document', 'Declaration', 'Sent'] as const;

export function Stepper({ step }: { step: number }) {
  return (
    <div className="stepper">
      <p className="stepper-label">
        Step {step} of {STEPS.length} · <strong>{STEPS[step - 1]}</strong>
      </p>
      <ol className="stepper-bar" aria-label="Steps">
        {STEPS.map((title, i) => (
          <li
            key={title}
            className={i + 1 < step ? 'is-done' : i + 1 === step ? 'is-current' : ''}
            aria-current={i + 1 === step ? 'step' : undefined}
          >
            <span className="visually-hidden">{title}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
