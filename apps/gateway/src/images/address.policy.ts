// Which addresses the gateway may fetch an image from: by default only public unicast ones. An
// address is classified by ipaddr.js's special ranges (RFC 6890 and successors), an IPv4-mapped
// IPv6 address (::ffff:127.0.0.1) as the IPv4 address it is, and anything ipaddr.js does not
// call `unicast` is refused: loopback, private (RFC 1918, ULA fc00::/7), link-local (169.254/16,
// fe80::/10), carrier-grade NAT (100.64/10), unspecified, multicast, broadcast, and the reserved,
// documentation, benchmarking and translation ranges (NAT64, 6to4, Teredo: they embed IPv4
// addresses that could be private). The cloud metadata endpoints are refused by address and by
// name, even when an allow-list entry covers them.
//
// TESSERA_IMAGE_FETCH_ALLOW lists host names (`.corp.example` for its subdomains), addresses
// and CIDR ranges that may be fetched from even so. A host name entry allows whatever that name
// resolves to; an address entry allows that address whichever name led to it.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The metadata services of AWS, GCP, Azure, OpenStack, Oracle (169.254.169.254), AWS's IPv6
 * one, AWS ECS task metadata and Alibaba Cloud's. */
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200'];
const METADATA_HOSTS = ['metadata.google.internal', 'metadata.goog'];

/** How a refused range is named in the 400, by ipaddr.js's range name. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  uniqueLocal: 'a private',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
  reserved: 'a reserved',
};

/**
 * IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291), which ipaddr.js counts as unicast
 * but no public host uses; :: and ::1 inside it are classified before this.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** Why an address is refused; the message completes "<url> …". */
export class AddressRefusal extends Error {
  constructor(readonly kind: string) {
    super(`resolves to ${kind} address, which this server does not fetch images from`);
    this.name = 'AddressRefusal';
  }
}

export class AddressPolicy {
  private readonly hosts = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges: [Address, number][] = [];
  private readonly metadata = new Set(METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toString()));

  /** `allow`: entries already checked by the configuration (host names, addresses, CIDRs). */
  constructor(allow: readonly string[] = []) {
    for (const entry of allow) {
      if (entry.includes('/')) this.ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const address = unmapped(ipaddr.parse(entry));
        this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else if (entry.startsWith('.')) this.suffixes.push(hostKey(entry));
      else this.hosts.add(hostKey(entry));
    }
  }

  /** Whether the URL's host name is on the allow-list (so whatever it resolves to is fetched). */
  allowsHost(hostname: string): boolean {
    const key = hostKey(hostname);
    return this.hosts.has(key) || this.suffixes.some((suffix) => key.endsWith(suffix));
  }

  /** A refusal by name alone, before anything is resolved: the metadata host names. */
  refuseHostName(hostname: string): AddressRefusal | undefined {
    return METADATA_HOSTS.includes(hostKey(hostname))
      ? new AddressRefusal('a cloud metadata')
      : undefined;
  }

  /**
   * A refusal of the address about to be connected to, or undefined when it may be.
   * `hostAllowed`: the host name it was resolved from is on the allow-list.
   */
  refuseAddress(text: string, hostAllowed = false): AddressRefusal | undefined {
    let address: Address;
    try {
      address = unmapped(ipaddr.parse(text));
    } catch {
      return new AddressRefusal('an unparsable');
    }
    if (this.metadata.has(address.toString())) return new AddressRefusal('a cloud metadata');
    if (hostAllowed || this.inAllowedRange(address)) return undefined;
    const range = address.range();
    if (range === 'unicast') {
      const compatible = address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE);
      return compatible ? new AddressRefusal('a reserved (IPv4-compatible)') : undefined;
    }
    return new AddressRefusal(RANGE_NAMES[range] ?? `a reserved (${range})`);
  }

  private inAllowedRange(address: Address): boolean {
    return this.ranges.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    );
  }
}

/** ::ffff:a.b.c.d is a.b.c.d: classified, compared and allowed as the IPv4 address. */
function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** Host names compare without case and without the trailing dot of a fully qualified name. */
function hostKey(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}
