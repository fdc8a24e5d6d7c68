import { useSetAtom } from 'jotai';
import { type ComponentType, type ReactNode, useRef, useState } from 'react';
import { messages, type OwnProfile, type ProfileImageField, profileImageProblem } from '../../contract';
import { showToastAtom } from '../../state/toast';

type CropModalType = ComponentType<{
  field: ProfileImageField;
  file: File;
  onClose: () => void;
  onSaved: (user: OwnProfile) => void;
}>;

interface Editing {
  field: ProfileImageField;
  file: File;
  Modal: CropModalType;
}

/**
 * The owner's avatar and cover (spec §2, §5): choose an image, which is checked on the device (type, 16 MB)
 * before a byte is sent, then crop it in the modal. The modal, and cropperjs with it, is downloaded only
 * once there is an image to crop.
 */
export function useImageEditing(onSaved: (user: OwnProfile) => void): {
  choose: (field: ProfileImageField) => void;
  element: ReactNode;
} {
  const showToast = useSetAtom(showToastAtom);
  const inputRef = useRef<HTMLInputElement>(null);
  const fieldRef = useRef<ProfileImageField>('profile_photo');
  const [editing, setEditing] = useState<Editing | null>(null);

  const choose = (field: ProfileImageField) => {
    fieldRef.current = field;
    inputRef.current?.click();
  };

  const picked = (file: File | undefined) => {
    if (!file) return;
    const field = fieldRef.current;
    const problem = profileImageProblem(file);
    if (problem) {
      showToast(problem, { tone: 'error' });
      return;
    }
    import('./CropModal').then(
      ({ default: Modal }) => setEditing({ field, file, Modal }),
      () => showToast(messages.network, { tone: 'error' }),
    );
  };

  const element = (
    <>
      <input
        ref={inputRef}
        type="file"
        // Spec §5: png, jpeg, jpg. The picker offers them; what the system hands back is checked again.
        accept="image/png,image/jpeg,.png,.jpg,.jpeg"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          picked(event.target.files?.[0]);
          // The same file chosen again (after a discard) must still count as a choice.
          event.target.value = '';
        }}
      />
      {editing && (
        <editing.Modal
          key={`${editing.field}:${editing.file.name}:${editing.file.lastModified}`}
          field={editing.field}
          file={editing.file}
          onClose={() => setEditing(null)}
          onSaved={(user) => {
            setEditing(null);
            onSaved(user);
          }}
        />
      )}
    </>
  );
  return { choose, element };
}
