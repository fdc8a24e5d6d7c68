import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { ApiError } from '../../api/http';
import { postVideoReport } from '../../api/videos';
import { type ReportReason, reportMessages, reportReasons, reportVideoSchema } from '../../contract';
import { Sheet } from '../../ui/Sheet';

const reasonLabels: Record<ReportReason, string> = {
  innapropiate: 'Inappropriate content',
  copyright: 'Copyright infringement',
  'wrong-hashtag': 'Wrong hashtag',
  spam: 'Spam',
  'hateful-content': 'Hateful content',
  'rape-sexual-assault': 'Rape or sexual assault',
  violence: 'Violence',
  death: 'Death',
  deepfake: 'Deepfake',
  drugs: 'Drugs',
  underage: 'Underage',
  consent: 'Lack of consent',
  other: 'Other',
};

type Errors = Partial<Record<'email' | 'reason' | 'message' | 'form', string>>;

/**
 * Report a video. The same valibot schema the server applies checks the form first, so the messages are the
 * spec's whichever side catches the mistake; the server's answer is shown as it comes.
 */
export function ReportSheet({
  videoId,
  guest,
  onClose,
  onSent,
}: {
  videoId: number;
  guest: boolean;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const [reason, setReason] = useState<string>('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { video_id: videoId, reason: reason || undefined, message, ...(guest ? { email } : {}) };
    const parsed = v.safeParse(reportVideoSchema({ guest }), input);
    if (!parsed.success) {
      const flat = v.flatten(parsed.issues).nested ?? {};
      setErrors({ email: flat.email?.[0], reason: flat.reason?.[0], message: flat.message?.[0] });
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await postVideoReport({ video_id: videoId, reason, message, ...(guest ? { email } : {}) });
      onSent(reportMessages.sent);
    } catch (error) {
      // 422 shows the first of the server's field messages (spec §7), anything else its message.
      const first = error instanceof ApiError ? Object.values(error.errors ?? {})[0]?.[0] : undefined;
      setErrors({
        form: first ?? (error instanceof ApiError ? error.message : 'Could not send the report.'),
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Sheet title="Report video" onClose={onClose}>
      <form className="report-form" onSubmit={submit} noValidate>
        <fieldset className="report-reasons">
          <legend className="field">Reason</legend>
          {reportReasons.map((r) => (
            <label key={r} className="report-reason">
              <input
                type="radio"
                name="reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
              />
              <span>{reasonLabels[r]}</span>
            </label>
          ))}
        </fieldset>
        {errors.reason && <p className="field-error">{errors.reason}</p>}
        {guest && (
          <label className="field">
            Email
            <input
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={Boolean(errors.email)}
            />
            {errors.email && <span className="field-error">{errors.email}</span>}
          </label>
        )}
        <label className="field">
          Description
          <textarea
            value={message}
            maxLength={2000}
            onChange={(e) => setMessage(e.target.value)}
            aria-invalid={Boolean(errors.message)}
          />
          {errors.message && <span className="field-error">{errors.message}</span>}
        </label>
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send report'}
        </button>
      </form>
    </Sheet>
  );
}
