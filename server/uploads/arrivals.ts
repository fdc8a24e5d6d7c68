/**
 * The order in which requests on one upload arrived, against the order in which they reach tus.
 *
 * Between the two sit checks that wait (the upload's session read, a rate limit on Redis), and on a pool
 * of database connections they can end in any order. A PATCH whose line was cut is given up by its client,
 * which asks where to resume with a HEAD. If the HEAD overtakes that PATCH, it answers the offset before
 * the PATCH's bytes; the PATCH then writes them, and the client's next PATCH, sent from the answered
 * offset, is refused: the client asks again and sends that chunk a second time. A PATCH that a later
 * request on its upload has overtaken is therefore refused before it writes: its client has already gone
 * on, and the offset the later request answered stays true.
 */
export interface Arrival {
  readonly upload: string;
  readonly turn: number;
}

export function arrivalOrder() {
  let turns = 0;
  /** Per upload with a request in progress: how many are, and the latest turn that has reached tus. */
  const uploads = new Map<string, { open: number; reached: number }>();

  return {
    /** A request on `upload` arrived: call before anything that waits. */
    arrive(upload: string): Arrival {
      const entry = uploads.get(upload) ?? { open: 0, reached: 0 };
      entry.open += 1;
      uploads.set(upload, entry);
      turns += 1;
      return { upload, turn: turns };
    },
    /** The request reaches tus. False when a request that arrived after it got there first. */
    reach({ upload, turn }: Arrival): boolean {
      const entry = uploads.get(upload);
      if (!entry) return true;
      if (entry.reached > turn) return false;
      entry.reached = turn;
      return true;
    },
    /** The request's answer has gone (or its connection has): once none is left, the upload is forgotten. */
    leave({ upload }: Arrival) {
      const entry = uploads.get(upload);
      if (!entry) return;
      entry.open -= 1;
      if (entry.open <= 0) uploads.delete(upload);
    },
    /** How many uploads have a request in progress (for the test that nothing is kept after them). */
    get tracked() {
      return uploads.size;
    },
  };
}
