// values.schema.json: helm refuses bad values before rendering anything, in `helm lint` and
// `helm template` (and so `helm install`) alike.
import { helmLint, helmTemplate } from './support/chart';

const BAD: [string, Record<string, unknown>, RegExp][] = [
  ['an unknown model cache type', { chat: { modelCache: { type: 's3' } } }, /chat.*modelCache.*type/s],
  ['zero GPUs', { chat: { gpu: { enabled: true, count: 0 } } }, /chat.*gpu.*count/s],
  ['an unknown GPU provider', { chat: { gpu: { enabled: true, provider: 'rocm' } } }, /chat.*gpu.*provider/s],
  ['negative replicas', { embeddings: { replicaCount: -1 } }, /embeddings.*replicaCount/s],
  ['replicas as a string', { embeddings: { replicaCount: 'two' } }, /embeddings.*replicaCount/s],
  ['an unknown top-level value', { gatway: { enabled: true } }, /gatway/],
  ['a misspelt component value', { speech: { replicas: 2 } }, /speech.*replicas/s],
  [
    'a model entry with capability (the chart adds it)',
    { chat: { models: [{ id: 'm', source: 'hf:o/m', capability: 'chat' }] } },
    /chat.*models.*capability/s,
  ],
  ['a model entry without source', { chat: { models: [{ id: 'm' }] } }, /chat.*models.*source/s],
  ['an unknown dtype', { chat: { models: [{ id: 'm', source: 'x', dtype: 'fp8' }] } }, /dtype/],
  ['a port out of range', { gateway: { service: { port: 70000 } } }, /gateway.*service.*port/s],
  ['an unknown pull policy', { image: { pullPolicy: 'Sometimes' } }, /image.*pullPolicy/s],
  ['an API key with a comma', { auth: { apiKeys: ['a,b'] } }, /auth.*apiKeys/s],
  ['a digest entry without id', { auth: { keys: [{ sha256: 'a'.repeat(64) }] } }, /auth.*keys/s],
  ['a keys entry with key and sha256', { auth: { keys: [{ id: 'a', key: 'k', sha256: 'a'.repeat(64) }] } }, /auth.*keys/s],
  ['an unknown limit', { auth: { keys: [{ id: 'a', key: 'k', limits: { rpm: 1 } }] } }, /auth.*keys/s],
  ['a Redis URL of another scheme', { rateLimit: { redis: { url: 'http://redis' } } }, /rateLimit.*redis.*url/s],
  ['a request timeout over a day', { gateway: { requestTimeoutMs: 86400001 } }, /requestTimeoutMs/],
  ['an HPA without replicas', { chat: { autoscaling: { enabled: true, maxReplicas: 0 } } }, /maxReplicas/],
  ['a bad scrape interval', { serviceMonitor: { interval: 'often' } }, /interval/],
  ['an OTLP endpoint without scheme', { otel: { endpoint: 'collector:4318' } }, /otel.*endpoint/s],
];

describe('values.schema.json', () => {
  it.each(BAD)('rejects %s', (_, values, where) => {
    for (const res of [helmTemplate({ values }), helmLint({ values })]) {
      expect(res.status).not.toBe(0);
      const output = res.stderr + res.stdout;
      expect(output).toMatch(/values don't meet the specifications of the schema/);
      expect(output).toMatch(where);
    }
  });

  it('accepts the defaults with a valid override of each kind', () => {
    const res = helmTemplate({
      values: {
        chat: { gpu: { enabled: true, count: 2 }, modelCache: { type: 'pvc', size: '20Gi' } },
        speech: { gpu: { enabled: true, provider: 'cuda' } },
        embeddings: { replicaCount: 0, pdb: { minAvailable: '50%' } },
        gateway: { requestTimeoutMs: 600000, service: { type: 'LoadBalancer', port: 443 } },
      },
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });
});
