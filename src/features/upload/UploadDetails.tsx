import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http';
import { messages } from '../../contract';
import { TITLE_MAX, tagProblem, uploadDetailsFieldsSchema } from '../../contract/upload-details';
import { type DetailsValues, type UploadView, uploads } from '../../offline/uploads';
import { showToastAtom } from '../../state/toast';
import {
  CheckboxField,
  ChipsField,
  DateField,
  Form,
  SubmitButton,
  SwitchField,
  serverErrorsToFields,
  TextField,
  useForm,
} from '../../ui/form';
import { Link } from '../../ui/Link';
import { UploadItem } from './UploadItem';

const m = messages.upload;

/** The device's IANA zone: a date-time picker value is wall-clock time there (upload-details says so). */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** `min` of a datetime-local picker: now, on this device's clock, to the minute. */
function localNow(): string {
  const now = new Date();
  now.setMinutes(now.getMinutes() - now.getTimezoneOffset());
  return now.toISOString().slice(0, 16);
}

const FIELDS: (keyof DetailsValues)[] = [
  'title',
  'tags',
  'is_nsfw',
  'schedule',
  'uploadDate',
  'uploadDateTimezone',
];

/**
 * Step 2 (spec §4), open while the bytes travel: the upload's card (thumbnail, progress, pause, cancel) and
 * its details. Submitted details are kept with the upload and sent once the video exists, so 'Submit
 * Video' works offline and mid-upload alike; what is typed and not yet submitted is a draft on the device.
 */
export function UploadDetails({ upload }: { upload: UploadView }) {
  const navigate = useNavigate();
  const showToast = useSetAtom(showToastAtom);
  const zone = useRef(upload.details?.uploadDateTimezone ?? localZone()).current;
  const noVideoComing = upload.state === 'failed' && upload.final;

  const form = useForm({
    schema: uploadDetailsFieldsSchema,
    initial: upload.details ?? {
      title: '',
      tags: [] as string[],
      is_nsfw: false,
      schedule: false,
      uploadDate: '',
      uploadDateTimezone: zone,
    },
    draft: { key: `upload-details:${upload.id}` },
    errorTexts: {
      // Spec §8: 'Failed to submit video details.' with the server's error.
      answered: (_status, message) => (message ? `${m.detailsFailed} ${message}` : m.detailsFailed),
      fallback: m.detailsFailed,
    },
    onSubmit: async (_valid, values) => {
      let result: 'sent' | 'queued';
      try {
        result = await uploads.saveDetails(upload.id, values);
      } catch (error) {
        // The video failed on the server: its reason reads as spec §8 words it, not as a field message.
        if (error instanceof ApiError && error.errors?.videoId && error.message.startsWith(m.failed('')))
          throw new ApiError(error.status, error.message, { upload: [error.message] }, { fromServer: true });
        throw error;
      }
      showToast(result === 'sent' ? m.uploaded : 'Details saved: they go out with the video.', {
        long: result !== 'sent',
      });
      // Spec §4: after the submit, back to step 1 and to the account.
      navigate('/account');
    },
  });

  // Details the server refused while the creator was elsewhere: its messages land on their fields.
  const { setErrors } = form;
  const refusal = upload.detailsState === 'failed' ? upload.detailsError : null;
  useEffect(() => {
    if (!refusal) return;
    const mapped = serverErrorsToFields(refusal.errors ?? {}, FIELDS);
    setErrors(mapped.fields, mapped.rest ?? (Object.keys(mapped.fields).length ? null : refusal.message));
  }, [refusal, setErrors]);

  return (
    <div className="upload-step2">
      <div className="upload-step2-aside">
        <UploadItem upload={upload} variant="card" />
        {noVideoComing && (
          <Link to="/upload" className="btn btn-ghost upload-another">
            Choose another video
          </Link>
        )}
      </div>
      <Form form={form} aria-label="Video details" className="upload-form">
        <TextField
          form={form}
          name="title"
          label="Title"
          maxLength={TITLE_MAX}
          placeholder="What is this video about?"
          autoComplete="off"
        />
        <ChipsField
          form={form}
          name="tags"
          label="Tags"
          prefix="#"
          check={tagProblem}
          placeholder="Add a tag"
          hint="Press Enter or type a comma to add it. Letters, numbers, - and _."
        />
        <CheckboxField form={form} name="is_nsfw" label="Not safe for work" />
        <SwitchField form={form} name="schedule" label="Schedule publication" />
        {form.values.schedule && (
          <DateField
            form={form}
            name="uploadDate"
            label="Publish on"
            type="datetime-local"
            min={localNow()}
            hint={`Time zone: ${zone.replace(/_/g, ' ')}`}
          />
        )}
        <SubmitButton form={form}>Submit Video</SubmitButton>
      </Form>
    </div>
  );
}
