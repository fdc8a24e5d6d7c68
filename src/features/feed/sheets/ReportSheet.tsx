import { postVideoReport } from '../../../api/videos';
import { REPORT_MESSAGE_MAX, reportMessages, reportReasons, reportVideoSchema } from '../../../contract';
import { reportReasonLabels } from '../../../contract/report-labels';
import { ChoiceField, Form, SubmitButton, TextAreaField, TextField, useForm } from '../../../ui/form';
import { Sheet } from '../../../ui/Sheet';

const reasonOptions = reportReasons.map((value) => ({ value, label: reportReasonLabels[value] }));

/**
 * Report a video, on the form kit: the same valibot schema the server applies checks the form first, so the
 * messages are the spec's whichever side catches the mistake; a 422's first field message shows where it
 * belongs, other failures read as spec §8 says (server message, else 'Could not send the report.').
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
  const form = useForm({
    schema: reportVideoSchema({ guest }),
    initial: { video_id: videoId, reason: '', email: '', message: '' },
    errorTexts: { fallback: 'Could not send the report.' },
    onSubmit: async ({ reason, message, email }) => {
      await postVideoReport({ video_id: videoId, reason, message, ...(guest ? { email: email ?? '' } : {}) });
      onSent(reportMessages.sent);
    },
  });

  return (
    <Sheet title="Report video" onClose={onClose}>
      <Form form={form} aria-label="Report video">
        <ChoiceField form={form} name="reason" label="Reason" options={reasonOptions} variant="list" />
        {guest && <TextField form={form} name="email" label="Email" type="email" autoComplete="email" />}
        <TextAreaField
          form={form}
          name="message"
          label="Description"
          maxLength={REPORT_MESSAGE_MAX}
          overflow="stop"
          rows={3}
        />
        <SubmitButton form={form}>Send report</SubmitButton>
      </Form>
    </Sheet>
  );
}
