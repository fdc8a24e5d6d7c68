// Search boxes become LIKE patterns in three places (the tag list, the typo-tolerant search, the console's
// accounts): the user's own %, _ and \ must match themselves there, not any text.

/** A contains-match for LIKE or ILIKE, with the user's text taken literally (PostgreSQL's default escape, \). */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
