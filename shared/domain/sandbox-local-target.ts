import { classifyTarget } from './address-class';

/**
 * The sandbox's questions about a network target, answered by the one
 * address classifier every review uses (address-class.ts: every spelling a
 * resolver or a socket accepts, from the text alone). A target on this
 * machine, its private network or a cloud's metadata service is never
 * reached with one click: a loopback port may be Berth's own bridge or
 * another local service, and a metadata address hands out cloud credentials.
 */

/** Whether `target` (a host, `host:port`, `[v6]:port` or `*.host`) names this machine, a private or link-local network, or a cloud metadata service. */
export function isLocalOrPrivateTarget(target: string): boolean {
  return classifyTarget(target) !== 'public';
}

/**
 * Whether `target` names a cloud's metadata service or a link-local address
 * (169.254/16, where AWS, GCP and Azure serve credentials; `fd00:ec2::254`):
 * never worth opening to a server, whatever the person types.
 */
export function isMetadataOrLinkLocalTarget(target: string): boolean {
  const kind = classifyTarget(target);
  return kind === 'metadata' || kind === 'link-local';
}

/** Whether `target` names this computer itself (loopback or the unspecified address), where Berth listens. */
export function isThisComputerTarget(target: string): boolean {
  const kind = classifyTarget(target);
  return kind === 'loopback' || kind === 'unspecified';
}

/** Whether `target` names a port (`host:port`, `[v6]:port`), not the whole host. */
export function hasPort(target: string): boolean {
  const text = target.trim();
  return /^\[[^\]]*\]:\d+$/.test(text) || /^[^:[\]]+:\d+$/.test(text);
}

/** The port `target` names, or undefined for a bare host. */
export function targetPort(target: string): number | undefined {
  const text = target.trim();
  const match = /^\[[^\]]*\]:(\d+)$/.exec(text) ?? /^[^:[\]]+:(\d+)$/.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
