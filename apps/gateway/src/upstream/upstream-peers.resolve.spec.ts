import { resolveUpstreamPeers } from './upstream-peers.resolve';

describe('resolveUpstreamPeers', () => {
  it('names an IP address as grpc-js names the peer of a call to it', async () => {
    expect(await resolveUpstreamPeers('127.0.0.1:50051')).toEqual([
      { target: 'ipv4:127.0.0.1:50051', peer: '127.0.0.1:50051' },
    ]);
    expect(await resolveUpstreamPeers('[::1]:50051')).toEqual([
      { target: 'ipv6:[::1]:50051', peer: '[::1]:50051' },
    ]);
  });

  it("splits grpc-js' address lists", async () => {
    expect(await resolveUpstreamPeers('ipv4:127.0.0.1:1,127.0.0.2:2')).toEqual([
      { target: 'ipv4:127.0.0.1:1', peer: '127.0.0.1:1' },
      { target: 'ipv4:127.0.0.2:2', peer: '127.0.0.2:2' },
    ]);
  });

  it('resolves a DNS name to every address it has', async () => {
    const peers = await resolveUpstreamPeers('dns:///localhost:7');
    expect(peers.length).toBeGreaterThan(0);
    for (const { target, peer } of peers) {
      expect(peer).toMatch(/^(127\.\d+\.\d+\.\d+|\[::1\]):7$/);
      expect(target).toMatch(/^ipv[46]:/);
    }
  });

  it('leaves other schemes to the channel, as one replica that cannot be named', async () => {
    expect(await resolveUpstreamPeers('unix:/run/chat.sock')).toEqual([
      { target: 'unix:/run/chat.sock', peer: null },
    ]);
  });

  it('fails when the name does not resolve', async () => {
    await expect(resolveUpstreamPeers('no-such-host.invalid:50051')).rejects.toThrow();
  });
});
