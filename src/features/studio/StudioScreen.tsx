import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { ApiError } from '../../api/http';
import { fetchStudio, joinStudio, leaveStudio, type Studio } from '../../api/studio';
import { useRequest } from '../../api/useRequest';
import { joinStudioSchema, messages, socialMessages } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Form, SubmitButton, TextField, useForm } from '../../ui/form';
import { BuildingIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import './studio.css';

const invalidKey = () =>
  new ApiError(422, socialMessages.invalidKey, { key: [socialMessages.invalidKey] }, { fromServer: true });

/**
 * /account/settings/studio and /join-studio (spec §2, §4): loading, then the studio the creator belongs to
 * (with Leave studio) or the form that joins one with the key its operator handed out.
 */
export function StudioScreen() {
  const [attempt, setAttempt] = useState(0);
  const loaded = useRequest(`studio:${attempt}`, (signal) => fetchStudio(signal));
  // What a join or a leave answered, ahead of a reload.
  const [known, setKnown] = useState<{ studio: Studio | null; attempt: number } | null>(null);
  const studio =
    known && known.attempt === attempt ? known.studio : loaded.status === 'success' ? loaded.data : undefined;
  const set = (next: Studio | null) => setKnown({ studio: next, attempt });

  let body: React.ReactNode;
  if (studio !== undefined) {
    body = studio ? <Managed studio={studio} onLeft={() => set(null)} /> : <JoinForm onJoined={set} />;
  } else if (loaded.status === 'error') {
    body = (
      <LoadFailed
        title="Couldn't load your studio"
        error={loaded.error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else {
    body = <Spinner fill />;
  }

  return (
    <>
      <ScreenHeader title="Studio" />
      <div className="screen-body">{body}</div>
    </>
  );
}

function Managed({ studio, onLeft }: { studio: Studio; onLeft: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const showToast = useSetAtom(showToastAtom);
  const leave = async () => {
    setLeaving(true);
    try {
      await leaveStudio();
      setConfirming(false);
      onLeft();
    } catch {
      setConfirming(false);
      showToast(socialMessages.leaveFailed, { tone: 'error' });
    } finally {
      setLeaving(false);
    }
  };
  return (
    <section className="studio-card" aria-labelledby="studio-name">
      <span className="studio-badge" aria-hidden="true">
        <BuildingIcon />
      </span>
      <p className="studio-kicker">Your studio</p>
      <h2 id="studio-name" className="studio-name">
        {studio.name}
      </h2>
      <p className="studio-text">
        The studio's managers can edit your profile and manage your videos for you.
      </p>
      <button type="button" className="btn btn-danger studio-leave" onClick={() => setConfirming(true)}>
        Leave studio
      </button>
      {confirming && (
        <ConfirmDialog
          title={socialMessages.leaveTitle}
          text={socialMessages.leaveQuestion}
          confirmLabel={socialMessages.leaveConfirm}
          busy={leaving}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void leave()}
        />
      )}
    </section>
  );
}

function JoinForm({ onJoined }: { onJoined: (studio: Studio) => void }) {
  const form = useForm({
    schema: joinStudioSchema,
    initial: { key: '' },
    errorTexts: { network: messages.network },
    onSubmit: async ({ key }) => {
      try {
        onJoined(await joinStudio(key));
      } catch (error) {
        // Spec §5: any answer but 200 reads 'Invalid key', under the field.
        if (error instanceof ApiError && error.status !== 0) throw invalidKey();
        throw error;
      }
    },
  });
  const submit = () => {
    if (form.validate()) {
      void form.handleSubmit();
      return;
    }
    // Spec §5: an empty key shows 'Invalid key' at once, and the request is still sent.
    void joinStudio(form.values.key).then(onJoined, () => undefined);
  };
  return (
    <section className="studio-card is-join" aria-labelledby="studio-join-title">
      <span className="studio-badge" aria-hidden="true">
        <BuildingIcon />
      </span>
      <h2 id="studio-join-title" className="studio-name">
        Join a studio
      </h2>
      <p className="studio-text">
        Working with a studio? Enter the key it gave you. Its managers can then edit your profile and manage
        your videos.
      </p>
      <Form form={form} onSubmit={submit} aria-label="Join a studio" className="studio-form">
        <TextField form={form} name="key" label="Studio key" autoComplete="off" />
        <SubmitButton form={form}>Join</SubmitButton>
      </Form>
    </section>
  );
}
