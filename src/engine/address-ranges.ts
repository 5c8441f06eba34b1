/**
 * Which kind of network an IP address belongs to, for the outbound guard (docs/webhooks.md,
 * "Where deliveries may go"): the server calls URLs its users give it, and must not be made to
 * reach its own machine, its private network or a cloud's metadata service on their behalf.
 */

export const BLOCKED_RANGES = [
  'unspecified',
  'loopback',
  'private',
  'shared',
  'link-local',
  'unique-local',
  'reserved',
] as const;

export type BlockedRange = (typeof BLOCKED_RANGES)[number];
export type AddressRange = BlockedRange | 'public';

/** How a message names each range: "127.0.0.1 is a loopback address". */
export const RANGE_DESCRIPTIONS: Record<BlockedRange, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private (RFC 1918) address',
  shared: 'a carrier-grade NAT (RFC 6598) address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local IPv6 address',
  reserved: 'a multicast or reserved address',
};

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The four bytes of a dotted IPv4 address, as resolvers and the URL parser write it. */
function ipv4Bytes(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read). */
function ipv6Groups(text: string): number[] | undefined {
  // A zone (fe80::1%eth0) names an interface, not part of the address.
  const address = text.replace(/%.*$/, '');
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      const v4 = index === parts.length - 1 ? ipv4Bytes(part) : undefined;
      if (v4) groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

function ipv4Range([a, b]: readonly number[]): AddressRange {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'shared';
  // 169.254.169.254 is the cloud providers' instance-metadata service.
  if (a === 169 && b === 254) return 'link-local';
  if (a! >= 224) return 'reserved';
  return 'public';
}

/** The IPv4 address an IPv6 one carries in its last 32 bits. */
const lastIpv4 = (groups: readonly number[]) => [
  groups[6]! >> 8,
  groups[6]! & 0xff,
  groups[7]! >> 8,
  groups[7]! & 0xff,
];

function ipv6Range(groups: readonly number[]): AddressRange {
  const [first] = groups;
  const zeroUntil = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroUntil(8)) return 'unspecified';
  if (zeroUntil(7) && groups[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses reach the IPv4
  // address they carry, and so does NAT64 (64:ff9b::a.b.c.d) through its gateway.
  if (zeroUntil(5) && (groups[5] === 0xffff || groups[5] === 0)) return ipv4Range(lastIpv4(groups));
  if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return ipv4Range(lastIpv4(groups));
  // 6to4 (2002:a.b.c.d::/48) tunnels to the IPv4 address in its second and third groups.
  if (first === 0x2002) return ipv4Range([groups[1]! >> 8, groups[1]! & 0xff]);
  if ((first! & 0xfe00) === 0xfc00) return 'unique-local';
  if ((first! & 0xffc0) === 0xfe80) return 'link-local';
  if ((first! & 0xff00) === 0xff00) return 'reserved';
  return 'public';
}

/** The range of an IP address (dotted IPv4, or IPv6 with or without brackets); undefined for a name. */
export function addressRange(address: string): AddressRange | undefined {
  const v4 = ipv4Bytes(address);
  if (v4) return ipv4Range(v4);
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v6 = bare.includes(':') ? ipv6Groups(bare) : undefined;
  return v6 ? ipv6Range(v6) : undefined;
}

/**
 * The range a URL's host names without asking DNS: an IP literal's (the URL parser has already
 * turned `2130706433` or `0x7f.1` into `127.0.0.1`), loopback for `localhost` and its subdomains
 * (RFC 6761 reserves them), undefined for any other name.
 */
export function hostRange(hostname: string): AddressRange | undefined {
  if (/^localhost\.?$|\.localhost\.?$/i.test(hostname)) return 'loopback';
  return addressRange(hostname);
}
