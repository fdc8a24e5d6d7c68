// Reads that many concurrent requests make one by one (a viewer's likes among a page of videos, the user
// behind a token) are coalesced: while one query runs, the requests that arrive wait and are answered by the
// next query, which reads for all of them at once. Each answer is still read after its request arrived, so
// nothing is staler than before; under a crowd the database sees one query per batch instead of one per
// request (PGlite runs one query at a time: this is what bounds a personal page there).
//
// The first request of an idle reader waits one turn of the event loop (setImmediate) before its query
// starts. On PGlite a query answers without ever giving the loop back to the sockets, so without that turn
// every batch would be of one; with it, every request parsed in the same poll phase joins the batch.
export function coalesce<K, V>(
  /** Reads the answers of a batch of keys; a key without an entry gets `missing`. */
  read: (keys: K[]) => Promise<Map<K, V>>,
  missing: V,
  maxBatch = 256,
): (key: K) => Promise<V> {
  let queue: { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    running = true;
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      try {
        const answers = await read([...new Set(batch.map((b) => b.key))]);
        for (const b of batch) b.resolve(answers.has(b.key) ? (answers.get(b.key) as V) : missing);
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    running = false;
  }
  return (key) =>
    new Promise<V>((resolve, reject) => {
      queue.push({ key, resolve, reject });
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
}
