/** Anything ordered by a sequence number. */
export interface Sequenced {
  seq: number;
}

interface Cursor<T> {
  list: readonly T[];
  position: number;
  seq: number;
}

/**
 * Merge lists that are each sorted newest first (descending `seq`) and return
 * the newest `limit` items overall, oldest first. A max-heap over the list
 * heads makes it O(limit · log k) for k lists, whatever their total length.
 */
export function mergeNewest<T extends Sequenced>(lists: readonly (readonly T[])[], limit: number): T[] {
  const heap: Cursor<T>[] = [];
  const at = (index: number): Cursor<T> => heap[index] as Cursor<T>;
  const swap = (a: number, b: number): void => {
    const tmp = at(a);
    heap[a] = at(b);
    heap[b] = tmp;
  };
  const up = (start: number): void => {
    for (let i = start; i > 0;) {
      const parent = (i - 1) >> 1;
      if (at(parent).seq >= at(i).seq) return;
      swap(parent, i);
      i = parent;
    }
  };
  const down = (start: number): void => {
    for (let i = start; ;) {
      const left = 2 * i + 1;
      let largest = i;
      if (left < heap.length && at(left).seq > at(largest).seq) largest = left;
      if (left + 1 < heap.length && at(left + 1).seq > at(largest).seq) largest = left + 1;
      if (largest === i) return;
      swap(largest, i);
      i = largest;
    }
  };

  for (const list of lists) {
    const first = list[0];
    if (first === undefined) continue;
    heap.push({ list, position: 0, seq: first.seq });
    up(heap.length - 1);
  }
  const out: T[] = [];
  while (out.length < limit && heap.length > 0) {
    const top = at(0);
    out.push(top.list[top.position] as T);
    const next = top.list[top.position + 1];
    if (next !== undefined) {
      top.position += 1;
      top.seq = next.seq;
    } else {
      const last = heap.pop() as Cursor<T>;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    down(0);
  }
  return out.reverse();
}
