import type { ServerState } from '../../../shared/domain';

/** "2026-07-28 (modern)": the version and which handshake it came from. */
export function protocolLabel(server: ServerState): string | undefined {
  // Negotiated by the live connection: only a ready server has one.
  if (server.status !== 'ready' || !server.protocolVersion) return undefined;
  if (server.era === 'modern') return `${server.protocolVersion} (modern)`;
  if (server.era === 'legacy') return `${server.protocolVersion} (initialize)`;
  return server.protocolVersion;
}

/** One sentence a person can read to understand the era. */
export function eraExplanation(server: ServerState): string | undefined {
  if (server.status !== 'ready') return undefined;
  if (server.era === 'modern') {
    return 'Negotiated with server/discover (the 2026-07-28 revision): stateless requests, input_required retries and subscriptions/listen.';
  }
  if (server.era === 'legacy') {
    return 'Negotiated with the initialize handshake (revisions 2024-11-05 to 2025-11-25). Berth remembers this so the server is not probed again.';
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
      if (flags.listChanged === true) extras.push('list changes');
      if (flags.subscribe === true) extras.push('subscribe');
    }
    chips.push(extras.length > 0 ? `${name} (${extras.join(', ')})` : name);
  }
  return chips.sort();
}
