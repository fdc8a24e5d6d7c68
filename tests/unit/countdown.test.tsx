// The verify step's resend countdown (spec §4, §9: 60 s): what the figure reads as the clock moves.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatCountdown,
  RESEND_COUNTDOWN_MS,
  secondsLeft,
  useCountdown,
} from '../../src/features/auth/countdown';

describe('countdown arithmetic', () => {
  it('rounds up to whole seconds and never goes below zero', () => {
    expect(RESEND_COUNTDOWN_MS).toBe(60_000);
    expect(secondsLeft(60_000, 0)).toBe(60);
    expect(secondsLeft(60_000, 1)).toBe(60);
    expect(secondsLeft(60_000, 59_001)).toBe(1);
    expect(secondsLeft(60_000, 60_000)).toBe(0);
    expect(secondsLeft(60_000, 90_000)).toBe(0);
  });

  it('reads m:ss', () => {
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(0)).toBe('0:00');
  });
});

function Countdown({ until }: { until: number }) {
  const left = useCountdown(until);
  return <p>{left > 0 ? `Resend email in ${formatCountdown(left)}` : 'Resend email'}</p>;
}

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down once a second from the wall clock and ends at zero', async () => {
    render(<Countdown until={Date.now() + RESEND_COUNTDOWN_MS} />);
    expect(screen.getByText('Resend email in 1:00')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByText('Resend email in 0:59')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(58_000));
    expect(screen.getByText('Resend email in 0:01')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByText('Resend email')).toBeTruthy();
    // Stopped: nothing left to wake for.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes a moment already near (a reload 50 s after sending) as it is, and restarts for a new one', async () => {
    const sentAt = Date.now() - 50_000;
    const view = render(<Countdown until={sentAt + RESEND_COUNTDOWN_MS} />);
    expect(screen.getByText('Resend email in 0:10')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Resend email')).toBeTruthy();
    view.rerender(<Countdown until={Date.now() + RESEND_COUNTDOWN_MS} />);
    expect(screen.getByText('Resend email in 1:00')).toBeTruthy();
  });
});
