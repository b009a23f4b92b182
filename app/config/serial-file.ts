import { atomicWriteFile } from './atomic-write';

/**
 * A state file written atomically, one write after the other (a later save never lands before an earlier one). A
 * failed write rejects its own caller only; the next write still runs.
 */
export class SerialFile {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  write(text: string): Promise<void> {
    const next = this.writing.then(() => atomicWriteFile(this.path, text));
    this.writing = next.catch(() => undefined);
    return next;
  }
}
