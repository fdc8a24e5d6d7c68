// The form kit's pickers (photos, calendar dates), grouped selects and a screen's own submit, rendered in
// happy-dom with the contract's schemas: what a creator sees when picking.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  messages,
  sixMonthsAgo,
  statsInputSchema,
  statsMessages,
  VERIFICATION_IMAGE_MAX_BYTES,
  verificationSchema,
} from '../../src/contract';
import { Form, SelectField, useForm } from '../../src/ui/form';
import { DatePickerField } from '../../src/ui/form/DatePickerField';
import { ImageField } from '../../src/ui/form/ImageField';

const m = messages.verification;

function Photo() {
  const form = useForm({
    schema: verificationSchema,
    initial: { front_picture_id: null as Blob | null },
    onSubmit: () => undefined,
  });
  return (
    <>
      <ImageField form={form} name="front_picture_id" label="Front of the document" capture="environment" />
      <button type="button" onClick={() => form.validate(['front_picture_id'])}>
        Check
      </button>
    </>
  );
}

const pick = (label: string, file: File) =>
  act(async () => fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } }));

describe('ImageField', () => {
  it('offers the camera and the files, shows the picked photo, and can remove it', async () => {
    render(<Photo />);
    expect(screen.getByLabelText('Front of the document: take a photo').getAttribute('capture')).toBe(
      'environment',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Check' })));
    expect(screen.getByText(m.frontPicture)).toBeTruthy();

    await pick(
      'Front of the document: choose a photo',
      new File([new Uint8Array(64)], 'id.jpg', { type: 'image/jpeg' }),
    );
    expect(screen.queryByText(m.frontPicture)).toBeNull();
    expect(screen.getByRole('img', { name: 'Front of the document, as chosen' })).toBeTruthy();

    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Remove the photo: Front of the document' })),
    );
    expect(screen.queryByRole('img', { name: 'Front of the document, as chosen' })).toBeNull();
  });

  it('refuses a photo over 16 MB, or not a PNG or JPEG, the moment it is picked', async () => {
    render(<Photo />);
    const big = new File([new Uint8Array(VERIFICATION_IMAGE_MAX_BYTES + 1)], 'big.jpg', {
      type: 'image/jpeg',
    });
    await pick('Front of the document: choose a photo', big);
    expect(screen.getByText(messages.profile.imageTooLarge)).toBeTruthy();
    expect(screen.getByLabelText('Front of the document: choose a photo').getAttribute('aria-invalid')).toBe(
      'true',
    );
    await pick(
      'Front of the document: choose a photo',
      new File([new Uint8Array(8)], 'a.gif', { type: 'image/gif' }),
    );
    expect(screen.getByText(messages.profile.imageType)).toBeTruthy();
    const exact = new File([new Uint8Array(VERIFICATION_IMAGE_MAX_BYTES)], 'ok.png', { type: 'image/png' });
    await pick('Front of the document: choose a photo', exact);
    expect(screen.queryByText(messages.profile.imageType)).toBeNull();
    expect(screen.queryByText(messages.profile.imageTooLarge)).toBeNull();
  });
});

describe('the verification contract', () => {
  const base = {
    legal_name: 'Jane Example',
    gender: 't',
    address: '1 Main St',
    country: 'de',
    date_of_birth: '1990-05-01',
    age: new Date().getUTCFullYear() - 1990 - (new Date().getUTCMonth() < 4 ? 1 : 0),
    stage_name: 'Janie',
    identification: 'passport',
    identification_id: 'X1',
  };
  it('takes the pictures as Blobs on the device and as presence on the server, and names each missing one', () => {
    const blob = new Blob([new Uint8Array(4)], { type: 'image/png' });
    const pictures = {
      front_picture_id: blob,
      back_picture_id: blob,
      face_picture_id: blob,
      signature: blob,
    };
    expect(v.safeParse(verificationSchema, { ...base, ...pictures }).success).toBe(true);
    const presence = {
      front_picture_id: 'file',
      back_picture_id: 'file',
      face_picture_id: 'file',
      signature: 'file',
    };
    expect(v.safeParse(verificationSchema, { ...base, ...presence }).success).toBe(true);
    const result = v.safeParse(verificationSchema, {
      ...base,
      front_picture_id: null,
      back_picture_id: '',
      signature: new Blob([]),
    });
    const byField = Object.fromEntries((result.issues ?? []).map((i) => [i.path?.[0]?.key, i.message]));
    expect(byField).toEqual({
      front_picture_id: m.frontPicture,
      back_picture_id: m.backPicture,
      face_picture_id: m.facePicture,
      signature: m.signature,
    });
  });
});

function Range({ onPicked }: { onPicked: (day: string) => void }) {
  const form = useForm({
    schema: statsInputSchema,
    initial: { from: '2025-03-10', to: '' },
    onSubmit: () => undefined,
  });
  return (
    <DatePickerField
      form={form}
      name="from"
      label="From"
      min="2025-03-05"
      max="2025-03-20"
      onPicked={(day) => {
        onPicked(day);
        form.validate(['from']);
      }}
    />
  );
}

describe('DatePickerField', () => {
  it('is read-only and opens a calendar bounded by min and max, where a tap or the keyboard picks', async () => {
    const picked: string[] = [];
    render(<Range onPicked={(day) => picked.push(day)} />);
    const field = screen.getByLabelText('From') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    expect(field.value).not.toBe('');
    await act(async () => fireEvent.click(field));
    const dialog = screen.getByRole('dialog', { name: 'From' });
    const day = (n: number) =>
      within(dialog).getByRole('button', { name: new RegExp(`\\b${n} March 2025|March ${n}, 2025`) });
    expect((day(4) as HTMLButtonElement).disabled).toBe(true);
    expect((day(21) as HTMLButtonElement).disabled).toBe(true);
    expect((day(5) as HTMLButtonElement).disabled).toBe(false);
    expect(day(10).getAttribute('aria-pressed')).toBe('true');
    expect(document.activeElement).toBe(day(10));
    // Arrow keys move the focus by a day and by a week, never past the bounds.
    await act(async () => fireEvent.keyDown(day(10), { key: 'ArrowRight' }));
    expect(document.activeElement).toBe(day(11));
    await act(async () => fireEvent.keyDown(day(11), { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(day(18));
    await act(async () => fireEvent.keyDown(day(18), { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(day(20));
    expect(within(dialog).getByRole('button', { name: 'Next month' }).hasAttribute('disabled')).toBe(true);
    await act(async () => fireEvent.click(day(20)));
    expect(picked).toEqual(['2025-03-20']);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(field.value).toMatch(/20/);
    // The same key opens it again.
    await act(async () => fireEvent.keyDown(field, { key: 'Enter' }));
    expect(screen.getByRole('dialog', { name: 'From' })).toBeTruthy();
  });

  it('shows the contract’s order message under the start date', async () => {
    function Both() {
      const form = useForm({
        schema: statsInputSchema,
        initial: { from: '2025-03-10', to: '2025-03-08' },
        onSubmit: () => undefined,
      });
      return (
        <button type="button" onClick={() => form.validate(['from', 'to'])}>
          {form.errors.from ?? 'ok'}
        </button>
      );
    }
    render(<Both />);
    await act(async () => fireEvent.click(screen.getByRole('button')));
    expect(screen.getByRole('button').textContent).toBe(statsMessages.order);
    expect(sixMonthsAgo(new Date('2025-08-31T10:00:00Z'))).toBe('2025-03-03');
  });
});

describe('SelectField and Form', () => {
  it('lists grouped options under their group, and lets a screen decide what a submit does', async () => {
    let decided = 0;
    function Regions() {
      const form = useForm({
        schema: v.object({ region: v.string() }),
        initial: { region: '' },
        onSubmit: () => {
          throw new Error('the kit must not submit on its own');
        },
      });
      const [seen, setSeen] = useState('');
      return (
        <Form
          form={form}
          onSubmit={() => {
            decided++;
            setSeen(form.values.region);
          }}
        >
          <SelectField
            form={form}
            name="region"
            label="Region"
            placeholder="Select"
            options={[
              { value: 'US-CA', label: 'California', group: 'United States' },
              { value: 'CA-QC', label: 'Quebec', group: 'Canada' },
              { value: 'US-TX', label: 'Texas', group: 'United States' },
            ]}
          />
          <p>{seen}</p>
          <button type="submit">Add</button>
        </Form>
      );
    }
    render(<Regions />);
    const select = screen.getByLabelText('Region') as HTMLSelectElement;
    expect(select.options[0]?.textContent).toBe('Select');
    const groups = [...select.querySelectorAll('optgroup')].map((g) => [
      g.label,
      [...g.querySelectorAll('option')].map((o) => o.textContent),
    ]);
    expect(groups).toEqual([
      ['United States', ['California', 'Texas']],
      ['Canada', ['Quebec']],
    ]);
    await act(async () => fireEvent.change(select, { target: { value: 'CA-QC' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add' })));
    expect(decided).toBe(1);
    expect(screen.getByText('CA-QC')).toBeTruthy();
  });
});
