/**
 * Where a network target points, from its text alone (no DNS): a public
 * address or name, or this computer, its network or the cloud's metadata
 * service, in every spelling a URL parser or a resolver accepts (decimal
 * `2852039166`, hex `0x7f000001`, octal `0177.0.0.1`, short `127.1`,
 * IPv4-mapped IPv6, zone ids, trailing dots). Reviews use it to refuse or
 * warn before anything connects, and never to suggest such a target.
 */
export type AddressClass = 'public' | 'loopback' | 'link-local' | 'private' | 'metadata' | 'unspecified';

/** What each non-public class is, in words for a review. */
export const ADDRESS_CLASS_WORDS: Readonly<Record<Exclude<AddressClass, 'public'>, string>> = {
  loopback: 'this computer (loopback), where Berth and other local services listen',
  'link-local': 'the local link (169.254.x.x / fe80::), where cloud metadata and device set-up pages answer',
  private: 'a private network address (a home, office or cloud network)',
  metadata: "a cloud's metadata service, which hands out the machine's credentials",
  unspecified: 'the unspecified address (0.0.0.0 / ::), which reaches this computer',
};

// Names that only ever mean this computer, the local network or a metadata service.
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);
const PRIVATE_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain', '.lan', '.intranet', '.corp'];
// Metadata services at addresses outside the link-local range (Alibaba, Azure's wire server, AWS over IPv6).
const METADATA_V4 = new Set(['100.100.100.200', '168.63.129.16']);

/** One IPv4 part as inet_aton reads it: decimal, 0x hex or 0-led octal; undefined when it is none. */
function ipv4Part(text: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : Number.parseInt(text.slice(2), 16);
  if (/^0[0-7]+$/.test(text)) return Number.parseInt(text.slice(1), 8);
  if (/^(0|[1-9]\d*)$/.test(text)) return Number(text);
  return undefined;
}

/** The 32-bit value of an IPv4 address in any inet_aton / WHATWG spelling (1 to 4 parts), or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values = parts.map(ipv4Part);
  if (values.some((value) => value === undefined)) return undefined;
  const numbers = values as number[];
  const last = numbers[numbers.length - 1] as number;
  const head = numbers.slice(0, -1);
  if (head.some((value) => value > 255) || last >= 256 ** (5 - numbers.length)) return undefined;
  return head.reduce((sum, value, index) => sum + value * 256 ** (3 - index), 0) + last;
}

function inV4(value: number, base: readonly [number, number, number, number], bits: number): boolean {
  const start = ((base[0] << 24) >>> 0) + (base[1] << 16) + (base[2] << 8) + base[3];
  const size = 2 ** (32 - bits);
  return value >= start && value < start + size;
}

function classifyV4(value: number): AddressClass {
  const dotted = [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
  if (dotted === '169.254.169.254' || METADATA_V4.has(dotted)) return 'metadata';
  if (inV4(value, [0, 0, 0, 0], 8)) return 'unspecified';
  if (inV4(value, [127, 0, 0, 0], 8)) return 'loopback';
  if (inV4(value, [169, 254, 0, 0], 16)) return 'link-local';
  const privateRanges: Array<[[number, number, number, number], number]> = [
    [[10, 0, 0, 0], 8],
    [[172, 16, 0, 0], 12],
    [[192, 168, 0, 0], 16],
    [[100, 64, 0, 0], 10], // carrier-grade NAT, also used inside clouds
    [[192, 0, 0, 0], 24], // IETF protocol assignments
    [[198, 18, 0, 0], 15], // benchmarking
    [[224, 0, 0, 0], 4], // multicast
    [[240, 0, 0, 0], 4], // reserved, and the broadcast address
  ];
  return privateRanges.some(([base, bits]) => inV4(value, base, bits)) ? 'private' : 'public';
}

/** The eight 16-bit groups of an IPv6 address (zone id ignored, an IPv4 tail allowed), or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  const address = text.replace(/%.*$/, '');
  if (!/^[0-9a-f:.]+$/i.test(address) || address.split('::').length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (piece.includes('.') && index === pieces.length - 1) {
        if (!/^\d+(\.\d+){3}$/.test(piece)) return undefined;
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const [left, right] = address.split('::');
  const head = groups(left ?? '');
  const tail = right === undefined ? [] : groups(right);
  if (head === undefined || tail === undefined) return undefined;
  if (right === undefined) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing < 1 ? undefined : [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function classifyV6(g: readonly number[]): AddressClass {
  const v4 = (hi: number, lo: number) => classifyV4(((g[hi] as number) * 65_536 + (g[lo] as number)) >>> 0);
  const zeros = (from: number, to: number) => g.slice(from, to).every((value) => value === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // An IPv4 address inside IPv6: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d).
  if (zeros(0, 5) && g[5] === 0xffff) return v4(6, 7);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(6, 7);
  if (zeros(0, 6)) return v4(6, 7);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(6, 7);
  if (g[0] === 0x2002) return v4(1, 2); // 6to4 carries an IPv4 address in bits 16 to 48
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && zeros(2, 7) && g[7] === 0x254) return 'metadata';
  const first = g[0] as number;
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0 || (first & 0xff00) === 0xff00) return 'private';
  return 'public';
}

/**
 * The class of one host: a name, an IPv4 address in any spelling, or an IPv6
 * address with or without brackets. A wildcard entry (`*.localhost`) is
 * classed by what it covers.
 */
export function classifyAddress(host: string): AddressClass {
  let text = host.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) {
    const groups = parseIpv6(text);
    return groups === undefined ? 'public' : classifyV6(groups);
  }
  text = text.replace(/\.+$/, '').replace(/^\*\./, '');
  if (text === '') return 'unspecified';
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return classifyV4(v4);
  if (
    text === 'localhost' ||
    text.endsWith('.localhost') ||
    text === 'localhost.localdomain' ||
    text === 'ip6-localhost' ||
    text === 'ip6-loopback'
  )
    return 'loopback';
  if (METADATA_NAMES.has(text)) return 'metadata';
  if (PRIVATE_SUFFIXES.some((suffix) => text.endsWith(suffix))) return 'private';
  return 'public';
}

/** The host of a target written as a URL, `host:port`, `[v6]:port` or a bare host or domain entry. */
export function targetHost(target: string): string {
  const text = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      return new URL(text).hostname;
    } catch {
      // Not a URL a client would open: classify the text after the scheme.
      return targetHost(
        text
          .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
          .replace(/^[^@/]*@/, '')
          .split(/[/?#]/)[0] ?? '',
      );
    }
  }
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(text);
  if (bracketed !== null) return `[${bracketed[1] ?? ''}]`;
  // Exactly one colon is `host:port`; more is a bare IPv6 address.
  return text.split(':').length === 2 ? (text.split(':')[0] ?? '') : text;
}

/** The class of a URL's or entry's host. */
export function classifyTarget(target: string): AddressClass {
  return classifyAddress(targetHost(target));
}

/** Why a review stops at a target, in words, or undefined for a public one. */
export function nonPublicTargetReason(target: string): string | undefined {
  const kind = classifyTarget(target);
  return kind === 'public' ? undefined : `${targetHost(target)} is ${ADDRESS_CLASS_WORDS[kind]}`;
}
