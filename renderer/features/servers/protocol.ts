import type { ServerState } from '../../../shared/domain';
import { translate } from '../../i18n/use-t';

// Worded when the component renders: it uses useT(), so a language switch re-renders these too.

/** "2026-07-28 (modern)": the version and which handshake it came from. */
export function protocolLabel(server: ServerState): string | undefined {
  // Negotiated by the live connection: only a ready server has one.
  if (server.status !== 'ready' || !server.protocolVersion) return undefined;
  if (server.era === 'modern') return translate('servers.protocol.modern', { version: server.protocolVersion });
  if (server.era === 'legacy') return translate('servers.protocol.legacy', { version: server.protocolVersion });
  return server.protocolVersion;
}

/** One sentence a person can read to understand the era. */
export function eraExplanation(server: ServerState): string | undefined {
  if (server.status !== 'ready') return undefined;
  if (server.era === 'modern') {
    return translate('servers.protocol.modernExplained');
  }
  if (server.era === 'legacy') {
    return translate('servers.protocol.legacyExplained');
  }
  return undefined;
}

/** Capability names a person can read, e.g. `tools (list changes)`. */
export function capabilityChips(capabilities: Record<string, unknown> | undefined): string[] {
  if (!capabilities) return [];
  const chips: string[] = [];
  for (const [name, value] of Object.entries(capabilities)) {
    if (value === undefined || value === null || value === false) continue;
    const extras: string[] = [];
    if (typeof value === 'object') {
      const flags = value as Record<string, unknown>;
      if (flags.listChanged === true) extras.push(translate('servers.protocol.listChanges'));
      if (flags.subscribe === true) extras.push('subscribe');
    }
    chips.push(extras.length > 0 ? `${name} (${extras.join(', ')})` : name);
  }
  return chips.sort();
}
