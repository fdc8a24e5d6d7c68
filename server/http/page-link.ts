// Page-numbered next link used by the social lists; the videos branch moved its own cursor-based nextLink to
// listing.ts, so the page-based one lives here after the merge of both branches.
export function nextLink(path: string, query: Record<string, unknown>, page: number, hasMore: boolean) {
  if (!hasMore) return null;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'page') params.set(k, String(v));
  params.set('page', String(page + 1));
  return `${path}?${params}`;
}
