/**
 * A fixed-capacity FIFO: O(1) push that evicts the oldest item when full,
 * with a count of evictions so readers can say how much was lost.
 */
export class RingBuffer<T> implements Iterable<T> {
  // Grows by appending until full (so an idle buffer costs little), then wraps.
  private items: (T | undefined)[] = [];
  private start = 0;
  private size = 0;
  private evictedCount = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`RingBuffer capacity must be a positive integer, got ${capacity}`);
  }

  get length(): number {
    return this.size;
  }

  /** Items pushed out by newer ones since creation or the last `clear()`. */
  get evicted(): number {
    return this.evictedCount;
  }

  /** Append; returns the evicted oldest item when the buffer was full. */
  push(item: T): T | undefined {
    if (this.size < this.capacity) {
      this.items[(this.start + this.size) % this.capacity] = item;
      this.size += 1;
      return undefined;
    }
    const evicted = this.items[this.start];
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    this.evictedCount += 1;
    return evicted;
  }

  /** The item at `index`, 0 being the oldest; undefined when out of range. */
  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) return undefined;
    return this.items[(this.start + index) % this.capacity];
  }

  /** Put `item` in place of the one at `index` (0 being the oldest); out of range is a RangeError. */
  replace(index: number, item: T): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.size)
      throw new RangeError(`RingBuffer index ${index} is out of range (0 to ${this.size - 1})`);
    this.items[(this.start + index) % this.capacity] = item;
  }

  /** The newest item. */
  last(): T | undefined {
    return this.at(this.size - 1);
  }

  clear(): void {
    this.items = [];
    this.start = 0;
    this.size = 0;
    this.evictedCount = 0;
  }

  /** Oldest to newest. */
  toArray(): T[] {
    const out = new Array<T>(this.size);
    for (let i = 0; i < this.size; i += 1) out[i] = this.items[(this.start + i) % this.capacity] as T;
    return out;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.size; i += 1) yield this.items[(this.start + i) % this.capacity] as T;
  }
}
