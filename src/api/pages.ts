import { type Page, pageResponseSchema } from '../contract';
import { apiFetch } from './http';

export async function fetchPage(slug: string, signal?: AbortSignal): Promise<Page> {
  const { data } = await apiFetch(`/v1/page/${encodeURIComponent(slug)}`, {
    schema: pageResponseSchema,
    signal,
  });
  return data;
}
