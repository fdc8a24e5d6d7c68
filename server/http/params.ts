/** Route generics of a path with one `:id`, e.g. `app.get<IdParams>('/v1/videos/:id/delete', ...)`. */
export type IdParams = { Params: { id: string } };
