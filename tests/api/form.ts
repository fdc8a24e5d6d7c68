// multipart/form-data bodies for app.inject(), built by hand so a test controls every byte and name.
import { randomBytes } from 'node:crypto';
import { ageOn } from '../../src/contract/verification';

export type Part = string | { filename: string; contentType: string; data: Buffer };

export function multipartBody(parts: Record<string, Part>) {
  const boundary = `----sc${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The text fields of a valid verification request (POST /v1/profile/verification), documents aside. */
export const verificationFields = () => ({
  legal_name: 'Jane Example',
  gender: 't',
  address: '1 Main St, Berlin',
  country: 'de',
  date_of_birth: '1990-01-01',
  age: String(ageOn('1990-01-01')),
  stage_name: 'Janie',
  identification: 'passport',
  identification_id: 'X1234567',
});
