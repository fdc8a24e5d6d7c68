import { useEffect, useState } from 'react';
import { CameraIcon, CloseIcon, ImageIcon } from '../more-icons';
import { describedBy, FieldNotes, messageOf } from './FieldNotes';
import type { FormApi, FormValues } from './useForm';
import './image-field.css';

/** The names of `V`'s fields that hold a picked image. */
type ImageKeys<V> = {
  [K in keyof V & string]: V[K] extends Blob | null | undefined | '' ? K : never;
}[keyof V & string];

/** An object URL for `blob` while it is shown, revoked when it changes or the field goes. */
function usePreview(blob: unknown): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!(blob instanceof Blob) || blob.size === 0) {
      setUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/**
 * A photo picked from the device or taken with the camera (`capture`: 'environment' for documents, 'user'
 * for a selfie; shown on touch screens only, where there is a camera to open). The File itself is the field's
 * value, so a draft keeps it across a reload, and the contract's schema checks size and type on the device
 * the moment it is picked, before a byte is sent.
 */
export function ImageField<V extends FormValues, K extends ImageKeys<V>>({
  form,
  name,
  label,
  hint,
  capture,
  accept = 'image/png,image/jpeg',
  className = '',
}: {
  form: FormApi<V>;
  name: K;
  label: string;
  hint?: string;
  capture?: 'user' | 'environment';
  accept?: string;
  className?: string;
}) {
  const id = form.fieldId(name);
  const { error, invalid, formRef } = messageOf(form, name);
  const value = form.values[name];
  const preview = usePreview(value);
  const picked = value instanceof Blob && value.size > 0;
  const described = describedBy(id, error, hint, ...formRef);

  const take = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared, so that picking the same file again (after removing it) is a change too.
    input.value = '';
    if (!file) return;
    form.setValue(name, file as V[K]);
    form.validate([name]);
  };

  return (
    <fieldset className={`field image-field${invalid ? ' has-error' : ''} ${className}`}>
      <legend className="field-label">{label}</legend>
      <div className="image-field-body">
        <div className={`image-field-preview${picked ? ' is-picked' : ''}`}>
          {preview ? (
            <img src={preview} alt={`${label}, as chosen`} />
          ) : (
            <ImageIcon className="image-field-placeholder" />
          )}
          {picked && (
            <button
              type="button"
              className="image-field-remove"
              aria-label={`Remove the photo: ${label}`}
              onClick={() => form.setValue(name, null as V[K])}
            >
              <CloseIcon />
            </button>
          )}
        </div>
        <div className="image-field-actions">
          {capture && (
            <label className="btn btn-ghost image-field-pick is-camera">
              <CameraIcon aria-hidden="true" />
              <span>{picked ? 'Retake' : 'Take photo'}</span>
              <input
                type="file"
                accept={accept}
                capture={capture}
                className="visually-hidden"
                aria-label={`${label}: take a photo`}
                aria-describedby={described}
                onChange={(event) => take(event.currentTarget)}
              />
            </label>
          )}
          <label className="btn btn-ghost image-field-pick">
            <ImageIcon aria-hidden="true" />
            <span>{picked ? 'Choose another' : 'Choose photo'}</span>
            <input
              id={id}
              name={name}
              type="file"
              accept={accept}
              className="visually-hidden"
              aria-label={`${label}: choose a photo`}
              aria-invalid={invalid || undefined}
              aria-describedby={described}
              onChange={(event) => take(event.currentTarget)}
            />
          </label>
        </div>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}
