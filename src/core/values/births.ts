/**
 * Which maps of values a piece of work made (a dict of keyword arguments a build fills), told from those it
 * was given or found. Only maps made through `born` while some work is watched are known; any other counts as
 * not made by it.
 */
const watched: WeakSet<object>[] = [];

/** `map`, as made by the work being watched. */
export function born<T extends object>(map: T): T {
  for (const made of watched) made.add(map);
  return map;
}

/** Runs `work`; `made` then tells whether it made a map. */
export function watchingBirths<T>(work: () => T): { readonly result: T; readonly made: (map: object) => boolean } {
  const made = new WeakSet<object>();
  watched.push(made);
  try {
    return { result: work(), made: (map) => made.has(map) };
  } finally {
    watched.pop();
  }
}
