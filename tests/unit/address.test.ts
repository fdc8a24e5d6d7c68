// Which clients a per-address limit counts as one (server/http/address.ts).
import { describe, expect, it } from 'vitest';
import { limitKey } from '../../server/http/address';

describe('limit key of a client address', () => {
  it('keeps an IPv4 address, also when it comes IPv4-mapped', () => {
    expect(limitKey('198.51.100.7', 64)).toBe('198.51.100.7');
    expect(limitKey('::ffff:198.51.100.7', 64)).toBe('198.51.100.7');
  });

  it('groups IPv6 by the prefix, however the address is written', () => {
    expect(limitKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64)).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8:1:2::1', 64)).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:DB8:1:2:0:0:0:ffff', 64)).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8::1', 64)).toBe('2001:db8:0:0::/64');
    expect(limitKey('::1', 64)).toBe('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0', 64)).toBe('fe80:0:0:0::/64');
    expect(limitKey('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1:0::/56');
    expect(limitKey('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6');
  });
});
