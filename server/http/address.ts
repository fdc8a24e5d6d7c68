// The address a per-address limit counts: the client's IPv4 address, or its IPv6 network. One IPv6 user
// commonly holds a whole /64 (a home line, a phone), so counting full addresses would hand each client 2^64
// fresh identities: 12 of 12 logins and 60 of 60 guest likes from one /64 went through (issue 32). The
// prefix is IPV6_LIMIT_PREFIX (64 by default; 128 counts single addresses again).
/** `address` as its /`prefix` network (`2001:db8:1:2::/64`), or the IPv4 address as is. */
export function limitKey(address: string, prefix: number): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  // Node hands over IPv4 in dotted form and IPv6 with colons; nothing else reaches here.
  if (!address.includes(':') || prefix >= 128) return address;
  const groups = expand(address.replace(/%.*$/, ''));
  const words = Math.ceil(prefix / 16);
  const kept = groups.slice(0, words);
  const partial = prefix % 16;
  if (partial && kept.length === words) {
    const last = kept[words - 1] ?? 0;
    kept[words - 1] = last & (0xffff << (16 - partial));
  }
  return `${kept.map((g) => g.toString(16)).join(':')}::/${prefix}`;
}

/** The eight 16-bit groups of an IPv6 address, `::` and a trailing dotted IPv4 written out. */
function expand(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g || '0', 16));
}
