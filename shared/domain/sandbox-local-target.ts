/**
 * Whether a network target is the person's own machine, their private
 * network or a cloud's metadata service: what a sandboxed server must never
 * be let reach with one click (a loopback port may be Berth's own bridge or
 * another local service; a metadata address hands out cloud credentials).
 * Every spelling a resolver or a socket accepts counts: `127.1`,
 * `2130706433`, `0x7f000001`, `0177.0.0.1`, `[::ffff:127.0.0.1]`, `[fe80::1%eth0]`.
 */

/** Host names of clouds' metadata services (they hand out the machine's cloud credentials). */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
/** Host names that stand for this machine or a cloud's metadata service. */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback', ...METADATA_NAMES]);

/** One part of an IPv4 address as `inet_aton` reads it: decimal, `0x` hex or leading-zero octal. */
function ipv4Part(text: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : parseInt(text.slice(2), 16);
  if (/^0[0-7]+$/.test(text)) return parseInt(text, 8);
  if (/^\d+$/.test(text)) return Number(text);
  return undefined;
}

/** The four bytes of an IPv4 address in any `inet_aton` spelling (`127.1`, `2130706433`, `0x7f.1`), or undefined. */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((part) => part === '')) return undefined;
  const values = parts.map(ipv4Part);
  if (values.some((value) => value === undefined)) return undefined;
  const numbers = values as number[];
  const last = numbers.at(-1)!;
  const lead = numbers.slice(0, -1);
  if (lead.some((value) => value > 255) || last >= 256 ** (5 - numbers.length)) return undefined;
  // The last part fills the bytes the others left ("127.1" = 127.0.0.1).
  const tail: number[] = [];
  for (let i = 4 - lead.length - 1, rest = last; i >= 0; i--) {
    tail.push(Math.floor(rest / 256 ** i) % 256);
  }
  return [...lead, ...tail];
}

function localIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network": 0.0.0.0 reaches the local host
    a === 127 ||
    a === 10 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT, often a private network
    a! >= 224 // multicast, reserved, broadcast
  );
}

/** The 16 bytes of an IPv6 address (zone id ignored, an IPv4 tail allowed), or undefined. */
function parseIpv6(text: string): number[] | undefined {
  const address = text.replace(/%.*$/, '');
  if (!/^[0-9a-f:.]+$/i.test(address) || !address.includes(':')) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const bytes: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      if (part.includes('.') && index === parts.length - 1) {
        const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(part) ? parseIpv4(part) : undefined;
        if (v4 === undefined) return undefined;
        bytes.push(...v4);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
        const value = parseInt(part, 16);
        bytes.push(value >> 8, value & 0xff);
      } else return undefined;
    }
    return bytes;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 16 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 2) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function localIpv6(bytes: number[]): boolean {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 15) && (bytes[15] === 0 || bytes[15] === 1)) return true; // :: and ::1
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return true; // fe80::/10 link-local
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return true; // fec0::/10 site-local (deprecated, still routed)
  if ((bytes[0]! & 0xfe) === 0xfc) return true; // fc00::/7 unique local
  if (bytes[0] === 0xff) return true; // multicast
  // An IPv4 address inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d).
  const v4 = bytes.slice(12);
  if (zeros(0, 10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || zeros(10, 12))) return localIpv4(v4);
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return localIpv4(v4);
  return false;
}

/** The host of a target: without `[…]`, a `:port`, a `*.` wildcard or a trailing dot. */
function hostOf(target: string): string {
  let host = target.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed !== null) host = bracketed[1]!;
  else if ((host.match(/:/g) ?? []).length === 1) host = host.slice(0, host.indexOf(':'));
  if (host.startsWith('*.')) host = host.slice(2);
  return host.replace(/\.$/, '');
}

/**
 * Whether `target` names a cloud's metadata service or a link-local address
 * (169.254/16, where AWS, GCP and Azure serve credentials; `fd00:ec2::254`):
 * never worth opening to a server, whatever the person types.
 */
export function isMetadataOrLinkLocalTarget(target: string): boolean {
  const host = hostOf(target);
  if (METADATA_NAMES.has(host)) return true;
  const v4 = parseIpv4(host) ?? ipv4InIpv6(parseIpv6(host));
  if (v4 !== undefined) return v4[0] === 169 && v4[1] === 254;
  const v6 = parseIpv6(host);
  return v6 !== undefined && ((v6[0] === 0xfe && (v6[1]! & 0xc0) === 0x80) || v6.join(',') === [0xfd, 0, 0x0e, 0xc2, ...new Array<number>(10).fill(0), 0x02, 0x54].join(','));
}

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries. */
function ipv4InIpv6(bytes: number[] | undefined): number[] | undefined {
  if (bytes === undefined || !bytes.slice(0, 10).every((byte) => byte === 0)) return undefined;
  return (bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0) ? bytes.slice(12) : undefined;
}

/** Whether `target` names a port (`host:port`, `[v6]:port`), not the whole host. */
export function hasPort(target: string): boolean {
  const text = target.trim();
  return /^\[[^\]]*\]:\d+$/.test(text) || /^[^:[\]]+:\d+$/.test(text);
}

/**
 * Whether `target` (a host, `host:port`, `[v6]:port` or `*.host`) names this
 * machine, a private or link-local network, or a cloud metadata service.
 */
export function isLocalOrPrivateTarget(target: string): boolean {
  const host = hostOf(target);
  if (host === '' || LOCAL_NAMES.has(host) || host.endsWith('.localhost')) return true;
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return localIpv4(v4);
  const v6 = parseIpv6(host);
  return v6 !== undefined && localIpv6(v6);
}
