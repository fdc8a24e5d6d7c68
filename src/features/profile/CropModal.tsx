// The crop modal (spec §2 'Image crop modal'): crop, then a preview with Update or Discard. The profile screen
// imports it dynamically once an image has been chosen: it brings cropperjs (useCropper).
import { useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { errorText, isAbort } from '../../api/errors';
import { updateProfileImage } from '../../api/profile';
import { messages, type OwnProfile, PROFILE_IMAGE_BOXES, type ProfileImageField } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Sheet } from '../../ui/Sheet';
import { CropPreview } from './CropPreview';
import { CropStep } from './CropStep';
import { useCropper } from './useCropper';
// The form kit's error box and submit spinner, so the modal reads like every other form of the app.
import '../../ui/form/form.css';
import './crop.css';

const p = messages.profile;

const TEXTS: Record<ProfileImageField, { crop: string; done: string; alt: string }> = {
  profile_photo: { crop: 'Crop profile image', done: p.photoUpdated, alt: 'New profile image' },
  profile_cover: { crop: 'Crop cover image', done: p.coverUpdated, alt: 'New cover image' },
};

export default function CropModal({
  field,
  file,
  onClose,
  onSaved,
}: {
  field: ProfileImageField;
  file: File;
  onClose: () => void;
  onSaved: (user: OwnProfile) => void;
}) {
  const box = PROFILE_IMAGE_BOXES[field];
  const texts = TEXTS[field];
  const showToast = useSetAtom(showToastAtom);
  const cropper = useCropper(file, box.width / box.height);
  const [step, setStep] = useState<'crop' | 'preview'>('crop');
  const [result, setResult] = useState<{ blob: Blob; url: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cropFocusRef = useRef<HTMLDivElement>(null);
  const updateRef = useRef<HTMLButtonElement>(null);
  const sendRef = useRef<AbortController | null>(null);

  useEffect(() => () => sendRef.current?.abort(), []);
  // Each step hides the other one's controls: the focus moves to where the next decision is, rather than
  // falling to the page behind.
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    (step === 'preview' ? updateRef.current : cropFocusRef.current)?.focus();
  }, [step]);
  useEffect(() => {
    if (!result) return;
    return () => URL.revokeObjectURL(result.url);
  }, [result]);

  const crop = async () => {
    setFailure(null);
    try {
      const blob = await cropper.exportJpeg(box);
      if (!blob) return;
      setResult({ blob, url: URL.createObjectURL(blob) });
      setStep('preview');
    } catch {
      setFailure(p.imageType);
    }
  };

  const update = async () => {
    if (!result || sending) return;
    const controller = new AbortController();
    sendRef.current = controller;
    setSending(true);
    setFailure(null);
    try {
      const answer = await updateProfileImage(field, result.blob, controller.signal);
      showToast(texts.done);
      onSaved(answer.user);
    } catch (error) {
      if (isAbort(error)) return;
      // Spec §8: one sentence for every failure of the upload, whatever the server or the network said.
      setFailure(errorText(error, { network: p.imageFailed, serverMessage: false, fallback: p.imageFailed }));
      setSending(false);
    }
  };

  const close = () => {
    sendRef.current?.abort();
    onClose();
  };

  const round = field === 'profile_photo';
  return (
    <Sheet
      title={step === 'crop' ? texts.crop : 'Preview'}
      onClose={close}
      className="crop-sheet"
      closeOnBackdrop={false}
    >
      <CropStep
        cropper={cropper}
        round={round}
        hidden={step !== 'crop'}
        failure={failure}
        focusRef={cropFocusRef}
        onCancel={close}
        onNext={crop}
      />
      {step === 'preview' && result && (
        <CropPreview
          url={result.url}
          alt={texts.alt}
          box={box}
          round={round}
          sending={sending}
          failure={failure}
          updateRef={updateRef}
          onAdjust={() => {
            setFailure(null);
            setStep('crop');
          }}
          onDiscard={close}
          onUpdate={update}
        />
      )}
    </Sheet>
  );
}
