// A change counter per database, for answers kept in memory (discover): bumped where what every viewer sees
// changes at once (a video published or deleted), so this node's cached answers are rebuilt at the next
// request instead of at the end of their minute. Other API nodes see the change when their minute ends.
const versions = new WeakMap<object, number>();

export const contentVersion = (db: object): number => versions.get(db) ?? 0;

export function contentChanged(db: object): void {
  versions.set(db, contentVersion(db) + 1);
}
