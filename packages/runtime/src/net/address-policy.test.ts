import { NO_ALLOWED_CIDRS, blockedRange, isAddressAllowed, parseAllowCidrs } from './address-policy';

describe('blockedRange without an allow-list', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:7f00:1', 'ipv4Mapped'],
    ['::ffff:10.0.0.1', 'ipv4Mapped'],
    ['::ffff:169.254.169.254', 'ipv4Mapped'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'ipv4Mapped'],
    // Public IPv4 mapped into IPv6 is still refused: the v4 form is the one to use.
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    // ipaddr alone would read this as ::ffff:127.0.0.1; a socket connects to ::7f00:1.
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::0.0.0.1', 'loopback'],
    ['::0.0.0.0', 'unspecified'],
    ['::a00:1', 'ipv4Compatible'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:a00:1::', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['::ffff:0:a00:1', 'rfc6145'],
    ['100::1', 'discard'],
    ['not an address', 'invalid'],
    ['', 'invalid'],
    ['127.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['2130706433', 'invalid'],
    ['[::1]', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedRange(address, NO_ALLOWED_CIDRS)).toBe(range);
    expect(isAddressAllowed(address, NO_ALLOWED_CIDRS)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
  ])('allows public unicast %s', (address) => {
    expect(blockedRange(address, NO_ALLOWED_CIDRS)).toBeUndefined();
    expect(isAddressAllowed(address, NO_ALLOWED_CIDRS)).toBe(true);
  });
});

describe('blockedRange with an allow-list', () => {
  const allow = parseAllowCidrs('127.0.0.0/8, 10.1.0.0/16,fd00::/8');

  it.each([
    '127.0.0.1',
    '127.5.5.5',
    '10.1.2.3',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.0.9',
  ])('allows %s', (address) => {
    expect(isAddressAllowed(address, allow)).toBe(true);
  });

  it.each([
    ['10.2.0.1', 'private'],
    ['::1', 'loopback'],
    ['fc00::1', 'uniqueLocal'],
    ['::ffff:10.2.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['169.254.169.254', 'linkLocal'],
  ])('still refuses %s (%s)', (address, range) => {
    expect(blockedRange(address, allow)).toBe(range);
  });

  it('keeps allowing public unicast', () => {
    expect(isAddressAllowed('8.8.8.8', allow)).toBe(true);
  });

  it('reads dotted IPv6 entries as sockets do', () => {
    expect(isAddressAllowed('::7f00:1', parseAllowCidrs('::127.0.0.1/128'))).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.1', parseAllowCidrs('::127.0.0.1/128'))).toBe(false);
  });

  it('matches IPv6 ranges written in full', () => {
    expect(isAddressAllowed('::1', parseAllowCidrs('::1/128'))).toBe(true);
    expect(isAddressAllowed('::2', parseAllowCidrs('::1/128'))).toBe(false);
  });
});

describe('parseAllowCidrs', () => {
  it('reads a comma-separated list, tolerating white space', () => {
    const allow = parseAllowCidrs(' 127.0.0.0/8 ,\t::1/128,192.168.0.0/16 ');
    expect(allow.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      '127.0.0.0/8',
      '::1/128',
      '192.168.0.0/16',
    ]);
  });

  it.each(['', '   '])('reads %j as no ranges', (text) => {
    expect(parseAllowCidrs(text)).toEqual([]);
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.0/33', '127.0.0.0/33'],
    ['10.0.0.0/8,,::1/128', ''],
    ['10.0.0.0/8, localhost/8', 'localhost/8'],
    ['::1/129', '::1/129'],
    ['10.0.0.0/', '10.0.0.0/'],
    ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ['0x7f.1/8', '0x7f.1/8'],
  ])('refuses %j, naming %j', (text, entry) => {
    expect(() => parseAllowCidrs(text)).toThrow(`allow-list entry "${entry}" is not a CIDR`);
  });
});
