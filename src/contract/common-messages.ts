// The texts every screen may show (a failed request, a full device, the server's own answers), apart from
// messages.ts: the app's first load needs these and none of the forms' (issue 17: the whole table cost every
// first screen 2.7 KB of JS gzipped). messages.ts holds them too, as `network`, `storageFull` and `server`.

/** A request that got no answer at all (offline, timeout, DNS). */
export const networkMessage = 'Network error.';
/** The device refused to store something (IndexedDB or file-system quota). */
export const storageFullMessage =
  'Your device is out of storage space. Free some space and try again; what you typed is kept.';

export const serverMessages = {
  internal: 'Something went wrong, try again later.',
  notFound: 'Not found.',
  unauthenticated: 'Unauthenticated.',
  forbidden: 'This action is unauthorized.',
  validation: 'The given data was invalid.',
  badRequest: 'The request could not be understood.',
  // Query fields of every list, and the opaque cursor of links.next.
  invalidPage: 'Page must be a whole number from 1 to 999999.',
  invalidPerPage: 'Per page must be a whole number from 1 to 999.',
  invalidCursor: 'Invalid cursor.',
  invalidGenderFilter: 'Gender must be m, t or m,t.',
  invalidIds: 'Ids must be whole numbers from 1 to 2147483647, comma separated.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request.',
  tooManyGuests: 'Too many likes and views from this address. Please try again later.',
  invalidText: 'This text contains a broken character (a lone UTF-16 surrogate).',
} as const;
