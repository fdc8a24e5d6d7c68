// The owner's side of the profile, piece by piece: the image check made before any byte is sent, the
// verification prompts of spec §4, and the contest sheet's HTML going through the sanitiser.
import './happy-dom-dompurify';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { messages, PROFILE_IMAGE_MAX_BYTES, profileImageProblem } from '../../src/contract';
import { ContestSheet } from '../../src/features/profile/Contests';
import { VerificationPrompt } from '../../src/features/profile/ProfileSections';

const p = messages.profile;

describe('profileImageProblem (spec §5: png, jpeg, jpg up to 16 MB)', () => {
  it.each([
    ['avatar.png', 'image/png', 1000, null],
    ['photo.jpg', 'image/jpeg', 1000, null],
    ['photo.jpeg', 'image/jpeg', PROFILE_IMAGE_MAX_BYTES, null],
    ['photo.JPG', 'image/jpg', 1000, null],
    // Some Android pickers give no type: the name decides.
    ['IMG_0001.JPEG', '', 1000, null],
    ['big.png', 'image/png', PROFILE_IMAGE_MAX_BYTES + 1, p.imageTooLarge],
    ['anim.gif', 'image/gif', 1000, p.imageType],
    ['photo.heic', 'image/heic', 1000, p.imageType],
    ['notes.txt', '', 1000, p.imageType],
    ['clip.mp4', 'video/mp4', 40 * 1024 * 1024, p.imageType],
  ])('%s (%s, %d bytes) → %s', (name, type, size, expected) => {
    expect(profileImageProblem({ name, type, size })).toBe(expected);
  });

  it('uses the words of the spec', () => {
    expect(p.imageTooLarge).toBe('Image size cannot be bigger than 16MB');
    expect(PROFILE_IMAGE_MAX_BYTES).toBe(16 * 1024 * 1024);
  });
});

function renderPrompt(status: 'none' | 'pending' | 'rejected' | 'approved') {
  const router = createMemoryRouter([{ path: '/', element: <VerificationPrompt status={status} /> }]);
  return render(<RouterProvider router={router} />);
}

describe('VerificationPrompt (spec §4)', () => {
  it.each([
    ['none', messages.upload.verifyPrompt, 'Verify now'],
    ['pending', messages.upload.verifyPrompt, 'Check status'],
    ['rejected', messages.upload.verificationRejected, 'Try again'],
  ] as const)('%s: its sentence and a way to the validation screen', (status, text, action) => {
    renderPrompt(status);
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: action }).getAttribute('href')).toBe(
      '/account/settings/validation',
    );
  });

  it('says nothing once approved', () => {
    const { container } = renderPrompt('approved');
    expect(container.textContent).toBe('');
  });

  it('has the exact words of the spec', () => {
    expect(messages.upload.verifyPrompt).toBe('To upload videos, please verify your identity...');
    expect(messages.upload.verificationRejected).toBe('Your verification was rejected, please try again.');
  });
});

describe('ContestSheet', () => {
  it("shows the contest's HTML without scripts, handlers or javascript: links", () => {
    render(
      <ContestSheet
        contest={{
          id: 1,
          title: 'Loop of the month',
          content:
            '<p>Send a <strong>loop</strong>.</p><script>window.hacked = 1</script>' +
            '<img src="/x.png" onerror="window.hacked = 2"><a href="javascript:alert(1)">rules</a>',
        }}
        onClose={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Loop of the month' });
    expect(dialog.querySelector('strong')?.textContent).toBe('loop');
    expect(dialog.querySelector('script')).toBeNull();
    expect(dialog.querySelector('img')?.hasAttribute('onerror')).toBe(false);
    expect(dialog.innerHTML).not.toMatch(/javascript:|hacked/);
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});
