/** Sets a map entry as its newest, dropping the oldest entry when the map is full: a bounded memo. */
export function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
