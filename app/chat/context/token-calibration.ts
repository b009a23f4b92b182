import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../../config/atomic-write';
import { loadStateFile } from '../../config/state-file';
import { errorMessage } from '../../../shared/error-message';
import { MAX_FACTOR, MIN_FACTOR } from '../../providers/token-estimate';

// The estimate's correction per model (token-estimate.ts) outlives a run: without it, the first turn after a
// restart would be measured by the bare rule of thumb again, and the meter would jump once the provider answered.

/** The file in Berth's state folder. */
export const TOKEN_CALIBRATION_FILE = 'token-estimates.json';

const FileSchema = z.object({
  version: z.literal(1),
  /** Reported ÷ estimated per model key, as TokenEstimator learnt it. */
  factors: z.record(z.string().min(1), z.number().min(MIN_FACTOR).max(MAX_FACTOR)),
});

/** Options for {@linkcode TokenCalibrationFile.open}. */
export interface TokenCalibrationOptions {
  stateDir: string;
  /** A problem with the file, in words for the log (the estimate goes on uncorrected; nothing else stops). */
  warn: (message: string) => void;
  now?: () => number;
}

/**
 * `<stateDir>/token-estimates.json`: the factors read at start and saved after each correction. A file that
 * cannot be used is moved aside (never written over) and the estimate starts from the rule of thumb.
 */
export class TokenCalibrationFile {
  /** Writes are chained so two saves never interleave their renames. */
  private writing: Promise<void> = Promise.resolve();
  /** The write that has not started yet: saves asked for meanwhile join it (it takes the newest factors). */
  private nextWrite: Promise<void> | undefined;
  private latest: ReadonlyMap<string, number> = new Map();

  private constructor(
    readonly path: string,
    readonly factors: ReadonlyMap<string, number>,
    private readonly warn: (message: string) => void,
    /** Why the file on disk must not be written over (it could not be read, nor moved aside). */
    private readonly saveBlocked: string | undefined,
  ) {}

  static async open({ stateDir, warn, now = Date.now }: TokenCalibrationOptions): Promise<TokenCalibrationFile> {
    const path = join(stateDir, TOKEN_CALIBRATION_FILE);
    const loaded = await loadStateFile(path, FileSchema, now);
    if (loaded.kind === 'loaded')
      return new TokenCalibrationFile(path, new Map(Object.entries(loaded.data.factors)), warn, undefined);
    if (loaded.kind === 'unusable')
      warn(
        loaded.movedTo !== undefined
          ? `Token estimates: ${path} was unusable (${loaded.problem}); moved it to ${loaded.movedTo}. Estimates start uncorrected and are learnt again from the next replies.`
          : `Token estimates: ${loaded.message}. Estimates are learnt again from the next replies but not saved until the file is fixed or removed.`,
      );
    return new TokenCalibrationFile(path, new Map(), warn, loaded.kind === 'unusable' ? loaded.saveBlocked : undefined);
  }

  /** Save `factors` (the estimator's whole table) after the write under way; never rejects. */
  save(factors: ReadonlyMap<string, number>): Promise<void> {
    this.latest = factors;
    if (this.saveBlocked !== undefined) return this.writing;
    if (this.nextWrite !== undefined) return this.nextWrite;
    const write = this.writing.then(() => {
      this.nextWrite = undefined;
      const snapshot = { version: 1, factors: Object.fromEntries(this.latest) };
      return atomicWriteFile(this.path, `${JSON.stringify(snapshot, null, 2)}\n`);
    });
    // Losing a correction only costs a less accurate first estimate: say so in the log, go on.
    this.writing = write.catch((error: unknown) => {
      this.warn(`Token estimates: could not save ${this.path}: ${errorMessage(error)}`);
    });
    this.nextWrite = this.writing;
    return this.writing;
  }

  /** Resolves once every save asked for so far is on disk (or reported as failed). */
  flush(): Promise<void> {
    return this.nextWrite ?? this.writing;
  }
}
