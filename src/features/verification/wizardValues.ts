import type { SignatureStrokes } from '../../ui/form/SignatureField';

export type WizardValues = {
  step: number;
  legal_name: string;
  stage_name: string;
  address: string;
  country: string;
  gender: string;
  date_of_birth: string;
  age: string;
  identification: string;
  identification_id: string;
  front_picture_id: Blob | null;
  back_picture_id: Blob | null;
  face_picture_id: Blob | null;
  signature: Blob | null;
  signature_strokes: SignatureStrokes | null;
};

export type Field = keyof WizardValues & string;

/** The fields each step shows, so that Continue checks them and a server message finds its step. */
export const stepFields: readonly (readonly Field[])[] = [
  ['legal_name', 'stage_name', 'address', 'country', 'gender', 'date_of_birth', 'age'],
  ['identification', 'identification_id', 'front_picture_id', 'back_picture_id', 'face_picture_id'],
  ['signature'],
];
