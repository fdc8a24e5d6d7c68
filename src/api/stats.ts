import { type StatsInput, type StatsResponse, statsResponseSchema } from '../contract';
import { apiFetch } from './http';

/** POST /v1/profile/stats: no body for the last 30 days, or `{from, to}` (UTC days, both inclusive). */
export function fetchStats(range: StatsInput | undefined, signal?: AbortSignal): Promise<StatsResponse> {
  return apiFetch('/v1/profile/stats', {
    method: 'POST',
    ...(range ? { body: range } : {}),
    schema: statsResponseSchema,
    signal,
  });
}
