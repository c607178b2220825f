import { AddressPolicy } from './address.policy';

const kindOf = (policy: AddressPolicy, address: string, hostAllowed = false) =>
  policy.refuseAddress(address, hostAllowed)?.kind;

describe('AddressPolicy (default: public unicast only)', () => {
  const policy = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'a loopback'],
    ['127.255.255.254', 'a loopback'],
    ['::1', 'a loopback'],
    ['10.1.2.3', 'a private'],
    ['172.16.0.1', 'a private'],
    ['172.31.255.255', 'a private'],
    ['192.168.1.1', 'a private'],
    ['fc00::1', 'a private'],
    ['fd12:3456:789a::1', 'a private'],
    ['169.254.1.1', 'a link-local'],
    ['fe80::1', 'a link-local'],
    ['fe80::1%eth0', 'a link-local'],
    ['100.64.0.1', 'a carrier-grade NAT'],
    ['100.127.255.255', 'a carrier-grade NAT'],
    ['169.254.169.254', 'a cloud metadata'],
    ['fd00:ec2::254', 'a cloud metadata'],
    ['169.254.170.2', 'a cloud metadata'],
    ['100.100.100.200', 'a cloud metadata'],
    ['0.0.0.0', 'an unspecified'],
    ['0.1.2.3', 'an unspecified'],
    ['::', 'an unspecified'],
    ['224.0.0.1', 'a multicast'],
    ['239.255.255.250', 'a multicast'],
    ['ff02::1', 'a multicast'],
    ['255.255.255.255', 'a broadcast'],
    ['240.0.0.1', 'a reserved'],
    ['192.0.2.1', 'a reserved'],
    ['198.18.0.1', 'a reserved'],
    ['2001:db8::1', 'a reserved'],
    ['64:ff9b::a00:1', 'a reserved (rfc6052)'],
    ['2002:a00:1::1', 'a reserved (6to4)'],
    ['::7f00:1', 'a reserved (IPv4-compatible)'],
  ])('refuses %s as %s address', (address, kind) => {
    expect(kindOf(policy, address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'a loopback'],
    ['::ffff:7f00:1', 'a loopback'],
    ['::ffff:10.0.0.1', 'a private'],
    ['::ffff:169.254.169.254', 'a cloud metadata'],
    ['::ffff:100.64.0.1', 'a carrier-grade NAT'],
    ['::ffff:0.0.0.0', 'an unspecified'],
  ])('refuses the IPv4-mapped %s as the IPv4 address it is (%s)', (address, kind) => {
    expect(kindOf(policy, address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(policy.refuseAddress(address)).toBeUndefined();
    },
  );

  it('refuses the metadata host names before anything is resolved, in any case', () => {
    expect(policy.refuseHostName('metadata.google.internal')?.kind).toBe('a cloud metadata');
    expect(policy.refuseHostName('METADATA.Google.Internal.')?.kind).toBe('a cloud metadata');
    expect(policy.refuseHostName('metadata.goog')?.kind).toBe('a cloud metadata');
    expect(policy.refuseHostName('images.example.com')).toBeUndefined();
  });

  it('words the refusal for the 400', () => {
    expect(policy.refuseAddress('10.0.0.1')?.message).toBe(
      'resolves to a private address, which this server does not fetch images from',
    );
  });
});

describe('AddressPolicy with an allow-list', () => {
  const policy = new AddressPolicy([
    'images.internal',
    '.corp.example',
    '127.0.0.2',
    '10.20.0.0/16',
    'fd00:1::/32',
    '169.254.0.0/16',
  ]);

  it('allows the addresses and ranges listed, and only those', () => {
    expect(kindOf(policy, '127.0.0.2')).toBeUndefined();
    expect(kindOf(policy, '::ffff:127.0.0.2')).toBeUndefined();
    expect(kindOf(policy, '127.0.0.1')).toBe('a loopback');
    expect(kindOf(policy, '10.20.3.4')).toBeUndefined();
    expect(kindOf(policy, '10.21.0.1')).toBe('a private');
    expect(kindOf(policy, 'fd00:1::5')).toBeUndefined();
    expect(kindOf(policy, 'fd00:2::5')).toBe('a private');
  });

  it('allows any address of a host name listed, or under a listed domain', () => {
    expect(policy.allowsHost('images.internal')).toBe(true);
    expect(policy.allowsHost('IMAGES.internal.')).toBe(true);
    expect(policy.allowsHost('cdn.corp.example')).toBe(true);
    expect(policy.allowsHost('corp.example.evil.com')).toBe(false);
    expect(policy.allowsHost('other.internal')).toBe(false);
    expect(kindOf(policy, '192.168.0.9', true)).toBeUndefined();
  });

  it('never allows a metadata address, even inside an allowed range or for an allowed name', () => {
    expect(kindOf(policy, '169.254.1.1')).toBeUndefined();
    expect(kindOf(policy, '169.254.169.254')).toBe('a cloud metadata');
    expect(kindOf(policy, '169.254.169.254', true)).toBe('a cloud metadata');
  });
});
