import { AuthorizationServerMismatchError } from '@modelcontextprotocol/client';

/** RFC 8414 issuers compared as the SDK does: one trailing slash of difference is the same server. */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/**
 * The authorization server a client's credentials may be sent to. Without
 * it, the MCP server's protected-resource metadata would decide, and a
 * hostile or compromised server could name an authorization server of its
 * own and collect a client secret or a workload's identity token. The person
 * may enter it; otherwise the first successful token request pins it (and
 * `onPinned` persists it), so from then on another one is refused with both
 * named (AuthorizationServerMismatchError, before anything is sent).
 */
export class IssuerPin {
  constructor(
    private issuer: string | undefined,
    private readonly onPinned?: (issuer: string) => void,
  ) {}

  get current(): string | undefined {
    return this.issuer;
  }

  /** Throws when the MCP server sent Berth to another authorization server than the pinned one. */
  check(resolved: string | undefined): void {
    if (this.issuer !== undefined && resolved !== undefined && !sameIssuer(this.issuer, resolved))
      throw new AuthorizationServerMismatchError(this.issuer, resolved);
  }

  /** The authorization server at `issuer` issued tokens for the credentials: the first success pins it. */
  succeeded(issuer: string | undefined): void {
    if (this.issuer !== undefined || issuer === undefined) return;
    this.issuer = issuer;
    this.onPinned?.(issuer);
  }
}
