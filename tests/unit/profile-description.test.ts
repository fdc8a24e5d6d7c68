import { describe, expect, it } from 'vitest';
import { descriptionLimit, truncateDescription } from '../../src/features/profile/description';

describe('descriptionLimit (spec §9)', () => {
  it.each([
    [320, 30],
    [499, 30],
    [500, 100],
    [899, 100],
    [900, 200],
    [1920, 200],
  ])('%i px → %i characters', (width, limit) => {
    expect(descriptionLimit(width)).toBe(limit);
  });
});

describe('truncateDescription', () => {
  it('leaves a text within the limit alone', () => {
    expect(truncateDescription('Short bio', 30)).toEqual({ text: 'Short bio', truncated: false });
    const exact = 'x'.repeat(30);
    expect(truncateDescription(exact, 30)).toEqual({ text: exact, truncated: false });
  });

  it('cuts a longer text to the limit and marks the cut', () => {
    const cut = truncateDescription('Neon loops and late-night sets. Live most evenings.', 30);
    expect(cut).toEqual({ text: 'Neon loops and late-night sets…', truncated: true });
  });

  it('drops the space before the ellipsis', () => {
    expect(truncateDescription('abcd efgh', 5).text).toBe('abcd…');
  });

  it('counts an emoji as one character and never splits it', () => {
    const text = '😀'.repeat(31);
    const cut = truncateDescription(text, 30);
    expect(cut.text).toBe(`${'😀'.repeat(30)}…`);
    expect(truncateDescription('😀'.repeat(30), 30).truncated).toBe(false);
  });
});
