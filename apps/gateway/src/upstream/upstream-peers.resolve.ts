// The replicas behind one upstream address, each as a gRPC target of its own (so that its health
// can be asked without the channel's round-robin choosing a replica) and as the peer name grpc-js
// reports for a call to it (`host:port`, `[v6]:port`). A DNS name resolves to every address it
// has, as the calls' channel resolves it (a headless Service in Kubernetes: one per ready pod).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { grpcTarget } from '@tessera/contracts';

export interface UpstreamPeer {
  /** A channel target that reaches this replica alone. */
  target: string;
  /** What grpc-js' `call.getPeer()` reports for a call to it; null when it cannot be told. */
  peer: string | null;
}

const HOST_PORT = /^(?:dns:(?:\/\/[^/]*\/)?)?(\[[^\]]+\]|[^:/[\]]+):(\d+)$/;

/** The replicas `address` (an upstream variable's value) stands for now; throws when DNS fails. */
export async function resolveUpstreamPeers(address: string): Promise<UpstreamPeer[]> {
  const target = grpcTarget(address);
  // grpc-js' address lists (`ipv4:a:p,b:p`): each address a replica of its own.
  const list = /^(ipv4|ipv6):(.+)$/.exec(target);
  if (list) {
    const [, scheme, addresses] = list;
    return addresses.split(',').map((peer) => ({ target: `${scheme}:${peer}`, peer }));
  }
  const hostPort = HOST_PORT.exec(target.replace(/^dns:\/\/\//, ''));
  // Another scheme (unix:…): asked as one, through the channel's own resolution.
  if (!hostPort) return [{ target, peer: null }];
  const [, bracketed, port] = hostPort;
  const host = bracketed.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
  return addresses.map(({ address: ip }) => {
    const peer = isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
    return { target: `${isIP(ip) === 6 ? 'ipv6' : 'ipv4'}:${peer}`, peer };
  });
}
