// The form kit's colour field (src/ui/form ColorField) in a real React render: a palette of swatches plus the
// platform's colour picker, bound to the contract's colour schema as the channel-colour setting uses it.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages, profileColorSchema } from '../../src/contract';
import { ColorField, Form, SubmitButton, useForm } from '../../src/ui/form';

const palette = [
  { value: '#8b5cf6', label: 'Violet' },
  { value: '#06b6d4', label: 'Cyan' },
];

function ColorForm({ initial, onSubmit }: { initial: string; onSubmit: (color: string) => void }) {
  const form = useForm({
    schema: profileColorSchema,
    initial: { color: initial },
    onSubmit: ({ color }) => onSubmit(color),
  });
  return (
    <Form form={form}>
      <ColorField form={form} name="color" label="Border color" palette={palette} />
      <output data-testid="value">{form.values.color}</output>
      <SubmitButton form={form}>Save</SubmitButton>
    </Form>
  );
}

const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('ColorField', () => {
  it('is one labelled group whose swatches are radios; the current value is checked', () => {
    render(<ColorForm initial="#06b6d4" onSubmit={() => undefined} />);
    expect(screen.getByRole('group', { name: 'Border color' })).toBeTruthy();
    expect(radio('Cyan').checked).toBe(true);
    expect(radio('Violet').checked).toBe(false);
    expect((screen.getByLabelText('Custom colour') as HTMLInputElement).type).toBe('color');
  });

  it('takes a swatch or a custom colour (lower-cased) and sends it', async () => {
    const sent: string[] = [];
    render(<ColorForm initial="#06b6d4" onSubmit={(color) => sent.push(color)} />);
    await act(async () => fireEvent.click(radio('Violet')));
    expect(screen.getByTestId('value').textContent).toBe('#8b5cf6');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await act(async () =>
      fireEvent.change(screen.getByLabelText('Custom colour'), { target: { value: '#FF0066' } }),
    );
    // A colour outside the palette leaves every swatch unchecked: the custom one is the choice.
    expect(radio('Violet').checked).toBe(false);
    expect(radio('Cyan').checked).toBe(false);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(sent).toEqual(['#8b5cf6', '#ff0066']);
  });

  it("shows the contract's message for a value that is not a colour", async () => {
    render(<ColorForm initial="red" onSubmit={() => undefined} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(screen.getByText(messages.profile.invalidColor)).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Border color' });
    expect(document.getElementById(group.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      messages.profile.invalidColor,
    );
  });
});
