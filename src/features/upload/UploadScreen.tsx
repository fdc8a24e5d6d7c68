import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useOwnProfile } from '../../api/useOwnProfile';
import { messages, type OwnProfile } from '../../contract';
import { useUpload } from '../../offline/uploads';
import { authAtom, expireSession } from '../../state/auth';
import { Link } from '../../ui/Link';
import { ShieldIcon, UploadIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import { Dropzone } from './Dropzone';
import { percent } from './describe';
import { UploadDetails } from './UploadDetails';
import { UploadQueueList } from './UploadQueueList';
import './upload.css';

/**
 * /upload for a signed-in account (guests get the creator promo from the router). Who may upload is known
 * before a file is chosen (spec §4): plain users are pointed to a creator account, creators whose identity is
 * not approved to the verification wizard. Then step 1 (choose) and, at `?upload=<id>`, step 2 (details)
 * while the bytes travel; the list of this device's uploads below either step.
 */
export function UploadScreen() {
  const auth = useAtomValue(authAtom);
  const { profile, error, retry } = useOwnProfile();
  const offline = error instanceof ApiError && error.status === 0;

  let body: ReactNode;
  if (auth?.userType === 'user' || profile?.type === 'user') body = <CreatorsOnly />;
  else if (profile && profile.isVerified !== 'approved') body = <VerifyFirst status={profile.isVerified} />;
  else if (profile || offline) body = <Uploader offline={!profile} />;
  else if (error) body = <LoadFailed title="Couldn't load your profile" error={error} onRetry={retry} />;
  else body = <Spinner fill />;

  return (
    <>
      <ScreenHeader title="Upload" />
      <div className="upload-screen">{body}</div>
    </>
  );
}

function Uploader({ offline }: { offline: boolean }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const current = useUpload(params.get('upload'));
  // A details step for an upload that is no longer here (removed, another account's) is step 1.
  const step = current ? 2 : 1;
  const videoStep =
    current && current.state !== 'sent' && current.state !== 'failed'
      ? percent(current.state === 'saving' ? current.saved : current.sent, current.size)
      : current
        ? 'Done'
        : null;
  return (
    <>
      <ol className="upload-steps" aria-label="Steps">
        <li className={step === 1 ? 'is-current' : 'is-done'} aria-current={step === 1 ? 'step' : undefined}>
          <span className="upload-step-dot" aria-hidden="true">
            1
          </span>
          <span>Video</span>
          {videoStep && <span className="upload-step-extra">{videoStep}</span>}
        </li>
        <li className={step === 2 ? 'is-current' : ''} aria-current={step === 2 ? 'step' : undefined}>
          <span className="upload-step-dot" aria-hidden="true">
            2
          </span>
          <span>Details</span>
        </li>
      </ol>
      {offline && (
        <p className="upload-note" role="status">
          You're offline. A video you choose now is kept on this device and uploads once you're back.
        </p>
      )}
      {current ? (
        <UploadDetails key={current.id} upload={current} />
      ) : (
        <Dropzone
          onAccepted={(id) => {
            if (params.get('upload')) setParams({ upload: id });
            else navigate(`/upload?upload=${id}`);
          }}
        />
      )}
      <UploadQueueList exclude={current?.id} />
    </>
  );
}

/** A plain user (spec §6): uploads are for models and channels, which are accounts of their own. */
function CreatorsOnly() {
  const navigate = useNavigate();
  return (
    <section className="upload-gate" aria-labelledby="upload-gate-title">
      <div className="upload-gate-badge" aria-hidden="true">
        <UploadIcon />
      </div>
      <h2 id="upload-gate-title" className="upload-gate-title">
        Uploads are for creators
      </h2>
      <p className="upload-gate-text">{messages.upload.creatorsOnly}</p>
      <p className="upload-gate-text is-small">
        A creator account is a separate account: registering signs you out of this one.
      </p>
      <button
        type="button"
        className="btn btn-primary upload-gate-cta"
        onClick={() => {
          // Registration sends signed-in people to their account, so this one steps aside first.
          expireSession();
          navigate('/register/model');
        }}
      >
        Register as a creator
      </button>
    </section>
  );
}

/** Spec §4: a model or channel whose identity is not approved is asked to verify before choosing a file. */
function VerifyFirst({ status }: { status: OwnProfile['isVerified'] }) {
  const rejected = status === 'rejected';
  return (
    <section className="upload-gate" aria-labelledby="upload-gate-title">
      <div className="upload-gate-badge" aria-hidden="true">
        <ShieldIcon />
      </div>
      <h2 id="upload-gate-title" className="upload-gate-title">
        {rejected ? 'Verification rejected' : 'Verify your identity'}
      </h2>
      <p className="upload-gate-text">
        {rejected ? messages.upload.verificationRejected : messages.upload.verifyPrompt}
      </p>
      {status === 'pending' && <p className="upload-gate-text is-small">{messages.verification.pending}</p>}
      <Link to="/account/settings/validation" className="btn btn-primary upload-gate-cta">
        {rejected ? 'Try again' : status === 'pending' ? 'See my verification' : 'Verify my identity'}
      </Link>
    </section>
  );
}
