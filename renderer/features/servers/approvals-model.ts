import { serverIdentityKey } from '../../../shared/domain/consent';
import type { ConsentPolicy } from '../../../shared/domain/consent';
import { ServerConfigSchema } from '../../../shared/domain/server';
import type { ServerConfig, ServerConfigInput } from '../../../shared/domain/server';
import type { RootsView } from '../../../shared/contract/roots';
import { translate } from '../../i18n/use-t';

/** What the person approved for one server that an edit of its command or address could carry over. */
export interface HeldApprovals {
  /** Tool permissions given to the server as it is now (not those already stale for another command). */
  toolPermissions: number;
  /** Folders it was allowed to see. */
  folders: number;
}

/** What the renderer knows about approvals (the store's fields). */
export interface ApprovalSources {
  consentPolicies: ConsentPolicy[];
  rootsView: RootsView | undefined;
}

export function heldApprovals(sources: ApprovalSources, server: string): HeldApprovals {
  const toolPermissions = sources.consentPolicies.filter(
    (p) => p.server === server && p.stale !== 'server-changed' && p.stale !== 'unrecorded',
  ).length;
  const folders = sources.rootsView?.consent[server]?.allowed.length ?? 0;
  return { toolPermissions, folders };
}

export function holdsApprovals(held: HeldApprovals): boolean {
  return held.toolPermissions > 0 || held.folders > 0;
}

/** The approvals as a person reads them: “2 tool permissions”, “access to 1 folder”. */
export function describeApprovals(held: HeldApprovals): string[] {
  return [
    ...(held.toolPermissions > 0
      ? [translate('servers.approvals.toolPermissions', { count: held.toolPermissions })]
      : []),
    ...(held.folders > 0 ? [translate('servers.approvals.folders', { count: held.folders })] : []),
  ];
}

/** Whether saving `after` makes it a different program in the host's eyes: another command, arguments, working folder or address. */
export function identityChanges(before: ServerConfig, after: ServerConfigInput): boolean {
  // As the host will store it (trimmed): a stray space is not a new program.
  const parsed = ServerConfigSchema.safeParse(after);
  return serverIdentityKey(before) !== serverIdentityKey(parsed.success ? parsed.data : after);
}
