/** Largest PostgreSQL `integer`: a larger id names nothing, and must not reach the database as one. */
export const MAX_DB_ID = 2_147_483_647;

/** A path segment as a row id, or undefined when it is not a whole number within the column's range. */
export function dbId(value: string): number | undefined {
  if (!/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= MAX_DB_ID ? id : undefined;
}

/** Route generics of a path with one `:id`, e.g. `app.get<IdParams>('/v1/videos/:id/delete', ...)`. */
export type IdParams = { Params: { id: string } };
