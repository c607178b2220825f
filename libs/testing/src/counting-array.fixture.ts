// An array that counts how often its items are read: a spec shows with it that a limit refuses
// an array on its length alone, before any per-item work.

/** `length` copies of `item` in an array that counts how many times an item is read. */
export function countingItemReads(
  length: number,
  item: unknown = 'x',
): { array: unknown[]; reads: () => number } {
  let reads = 0;
  const array = new Proxy(Array<unknown>(length).fill(item), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { array, reads: () => reads };
}
