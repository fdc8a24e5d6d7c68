// Issue 35: a screen whose load failed loads again by itself when the network returns (useRequest,
// usePages), without a tap on Retry; a failure that would be the same again waits for the viewer.
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import type { ListPage } from '../../src/api/usePages';
import { usePages } from '../../src/api/usePages';
import { useRequest } from '../../src/api/useRequest';

afterEach(() => {
  vi.restoreAllMocks();
});

const noAnswer = () => new ApiError(0, 'No connection.');
const backOnline = () => act(() => window.dispatchEvent(new Event('online')));
/** Within 2 s of the return (issue 35): a round of healing may wait for the gap after the previous test's. */
const healed = (check: () => void) => waitFor(check, { timeout: 2000 });
/** Longer than the gap reconnect.ts keeps between two rounds of healing. */
const nextReturn = () => act(() => new Promise((resolve) => setTimeout(resolve, 1100)));

describe('useRequest', () => {
  it('loads again when the network returns after a load that got no answer: error, loading, data', async () => {
    const load = vi
      .fn<(signal: AbortSignal) => Promise<string>>()
      .mockRejectedValueOnce(noAnswer())
      .mockResolvedValueOnce('profile');
    const seen: string[] = [];
    const { result } = renderHook(() => {
      const state = useRequest('/v1/users/luna', load);
      if (seen.at(-1) !== state.status) seen.push(state.status);
      return state;
    });
    await waitFor(() => expect(result.current.status).toBe('error'));
    backOnline();
    await healed(() => expect(result.current).toMatchObject({ status: 'success', data: 'profile' }));
    expect(seen).toEqual(['loading', 'error', 'loading', 'success']);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('also heals a 5xx, and tries again on the next return when the first retry fails too', async () => {
    const load = vi
      .fn<(signal: AbortSignal) => Promise<string>>()
      .mockRejectedValueOnce(new ApiError(503, 'Busy'))
      .mockRejectedValueOnce(noAnswer())
      .mockResolvedValueOnce('stats');
    const { result } = renderHook(() => useRequest('/v1/stats', load));
    await waitFor(() => expect(result.current.status).toBe('error'));
    backOnline();
    await healed(() => expect(load).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(result.current.status).toBe('error'));
    await nextReturn();
    backOnline();
    await healed(() => expect(result.current).toMatchObject({ status: 'success', data: 'stats' }));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('leaves a failure that would be the same again (404) to the viewer', async () => {
    const load = vi.fn(async () => {
      throw new ApiError(404, 'Not found');
    });
    const { result } = renderHook(() => useRequest('/v1/users/nobody', load));
    await waitFor(() => expect(result.current.status).toBe('error'));
    backOnline();
    await nextReturn();
    expect(load).toHaveBeenCalledTimes(1);
    expect(result.current.status).toBe('error');
  });

  it('does nothing on a return while it has its data', async () => {
    const load = vi.fn(async () => 'page');
    const { result } = renderHook(() => useRequest('/v1/pages/terms', load));
    await waitFor(() => expect(result.current.status).toBe('success'));
    backOnline();
    await nextReturn();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('usePages', () => {
  interface Item {
    id: number;
  }
  const page = (ids: number[], next: string | null): ListPage<Item> => ({
    data: ids.map((id) => ({ id })),
    links: { next },
  });
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;

  it('loads a failed first page again when the network returns', async () => {
    const fetchPage = vi
      .fn<(url: string, signal: AbortSignal) => Promise<ListPage<Item>>>()
      .mockRejectedValueOnce(noAnswer())
      .mockResolvedValueOnce(page([1, 2], null));
    const { result } = renderHook(() => usePages('/v1/tags/1/videos', fetchPage), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('error'));
    backOnline();
    await healed(() => expect(result.current.status).toBe('ready'));
    expect(result.current.items.map((i) => i.id)).toEqual([1, 2]);
  });

  it('asks for a failed later page again when the network returns', async () => {
    const fetchPage = vi
      .fn<(url: string, signal: AbortSignal) => Promise<ListPage<Item>>>()
      .mockResolvedValueOnce(page([1, 2], '/v1/tags/1/videos?cursor=2'))
      .mockRejectedValueOnce(noAnswer())
      .mockResolvedValueOnce(page([3], null));
    const { result } = renderHook(() => usePages('/v1/tags/1/videos', fetchPage), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.moreFailed).toBe(true));
    backOnline();
    await healed(() => expect(result.current.items.map((i) => i.id)).toEqual([1, 2, 3]));
    expect(result.current.moreFailed).toBe(false);
    expect(fetchPage).toHaveBeenLastCalledWith('/v1/tags/1/videos?cursor=2', expect.any(AbortSignal));
  });

  it('leaves a first page that is not there (404) to the viewer', async () => {
    const fetchPage = vi.fn(async (): Promise<ListPage<Item>> => {
      throw new ApiError(404, 'Not found');
    });
    const { result } = renderHook(() => usePages('/v1/tags/nope/videos', fetchPage), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('error'));
    backOnline();
    await nextReturn();
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
});
