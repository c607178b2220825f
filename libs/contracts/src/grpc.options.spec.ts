import { grpcTarget, protoRoot } from './grpc.options';
import * as fs from 'node:fs';
import * as path from 'node:path';

describe('grpcTarget', () => {
  it('resolves plain host:port through DNS so round_robin sees every address', () => {
    expect(grpcTarget('embeddings:50051')).toBe('dns:///embeddings:50051');
    expect(grpcTarget('127.0.0.1:4000')).toBe('dns:///127.0.0.1:4000');
  });

  it('keeps targets that already name a scheme', () => {
    expect(grpcTarget('dns:///svc.ns.svc.cluster.local:50051')).toBe(
      'dns:///svc.ns.svc.cluster.local:50051',
    );
    expect(grpcTarget('unix:///tmp/embeddings.sock')).toBe('unix:///tmp/embeddings.sock');
  });
});

it('finds proto/ above the code', () => {
  expect(fs.existsSync(path.join(protoRoot(), 'tessera/v1/embeddings.proto'))).toBe(true);
});
