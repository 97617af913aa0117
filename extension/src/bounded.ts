/**
 * Per-page state is bounded: a page of Open WebUI stays open for days, answer after answer.
 * `keepLast` drops a collection's oldest keys (Sets and Maps keep insertion order) beyond `max`.
 */
export function keepLast<K>(collection: Set<K> | Map<K, unknown>, max: number): void {
  while (collection.size > max) collection.delete(collection.keys().next().value as K);
}
