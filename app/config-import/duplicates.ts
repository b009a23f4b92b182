import { isDeepStrictEqual } from 'node:util';
import type { ServerConfig } from '../../shared/domain/server';
import type { ImportCandidate } from './foreign-formats';
import { configImportError } from '../../shared/domain/config-import-errors';
import type { HostMessage } from '../../shared/domain/host-message';

/** Why a candidate looks like a server Berth already has. */
export interface DuplicateMatch {
  /** The existing Berth server. */
  name: string;
  reason: 'same-name' | 'same-command';
  /** For the preview, e.g. `Berth already runs the same command as "github"`. */
  message: string;
  /** `message` as a code, for the renderer to word. */
  hostMessage: HostMessage;
}

/** A candidate annotated for the preview. */
export type CheckedCandidate = ImportCandidate & { duplicateOf?: DuplicateMatch };

function match(name: string, reason: DuplicateMatch['reason']): DuplicateMatch {
  const words = configImportError(
    reason === 'same-name' ? 'config-import-errors.duplicate-name' : 'config-import-errors.duplicate-command',
    { name },
  );
  return { name, reason, message: words.text, hostMessage: words.hostMessage };
}

function sameLaunch(a: ServerConfig, b: ServerConfig): boolean {
  return a.command === b.command && isDeepStrictEqual(a.args, b.args) && (a.cwd ?? '') === (b.cwd ?? '');
}

/**
 * Mark candidates that match an existing server: the same name (ignoring
 * case, as people read names), or the same command, args and cwd under
 * another name. A name match wins, since adding it would clash.
 */
export function markDuplicates(
  candidates: readonly ImportCandidate[],
  existing: ReadonlyMap<string, ServerConfig>,
): CheckedCandidate[] {
  const byLowerName = new Map([...existing.keys()].map((name) => [name.toLowerCase(), name]));
  return candidates.map((candidate) => {
    const sameName = byLowerName.get(candidate.name.toLowerCase());
    if (sameName !== undefined) {
      return {
        ...candidate,
        duplicateOf: match(sameName, 'same-name'),
      };
    }
    const config = candidate.config;
    if (config !== undefined) {
      for (const [name, other] of existing) {
        if (sameLaunch(config, other)) {
          return {
            ...candidate,
            duplicateOf: match(name, 'same-command'),
          };
        }
      }
    }
    return { ...candidate };
  });
}
