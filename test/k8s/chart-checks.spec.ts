// The chart as tools see it: `helm lint --strict` for the defaults and every ci/values-*.yaml,
// every rendered object valid against the Kubernetes API's schemas (strict: no unknown field),
// and the README's parameter tables generated from the current values.yaml.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHART, CI_VALUES, ROOT, helmLint, helmTemplate, parseObjects } from './support/chart';

const SHAPES: { name: string; files: string[]; values?: Record<string, unknown> }[] = [
  { name: 'defaults', files: [] },
  ...CI_VALUES.map((f) => ({ name: f, files: [f] })),
  {
    // The options the ci/ shapes leave out: PVCs (made and existing), an existing keys Secret, the
    // Hub token and mirror, an external OTLP endpoint, no NetworkPolicy, a queue-depth-only HPA.
    name: 'options',
    files: [],
    values: {
      auth: { existingSecret: 'my-keys' },
      huggingface: { existingSecret: 'hf', endpoint: 'https://hf-mirror.example', offline: true },
      otel: { enabled: true, endpoint: 'http://collector.observability:4318' },
      networkPolicy: { enabled: false },
      serviceAccount: { create: false, name: 'tessera' },
      chat: { modelCache: { type: 'pvc', existingClaim: 'models' } },
      transcription: {
        modelCache: { type: 'pvc', size: '2Gi', storageClass: 'fast', accessModes: ['ReadWriteMany'] },
      },
      gateway: { autoscaling: { enabled: true, targetCPUUtilizationPercentage: null, metrics: [
        { type: 'Pods', pods: { metric: { name: 'tessera_http_requests_in_flight' }, target: { type: 'AverageValue', averageValue: '20' } } },
      ] } },
    },
  },
];

describe.each(SHAPES)('chart with $name', ({ files, values }) => {
  it('passes helm lint --strict', () => {
    const res = helmLint({ files, values });
    expect(res.stderr + res.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(res.status).toBe(0);
  });

  it('renders only objects the Kubernetes API schemas accept', () => {
    const res = helmTemplate({ files, values });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const objects = parseObjects(res.stdout);
    expect(objects.length).toBeGreaterThan(5);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-chart-'));
    const file = path.join(dir, 'rendered.yaml');
    fs.writeFileSync(file, res.stdout);
    const check = spawnSync('bash', [path.join(ROOT, 'tools/k8s/chart-validate.sh'), 'check', file], {
      encoding: 'utf8',
    });
    const lines = (check.stdout + check.stderr).split('\n').filter(Boolean);
    const problems = lines.filter((l) => /^(ERROR|WARN)/.test(l));
    // ServiceMonitor is a custom resource (Prometheus Operator): no schema ships for it, and
    // its shape is asserted by the rendering specs instead. Anything else is a finding.
    const unexpected = problems.filter((l) => !/Couldn't find schema for kind ServiceMonitor/.test(l));
    expect(unexpected).toEqual([]);
    expect(check.status).toBe(0);
    // Every object was checked: one INFO (valid) line per object, plus the skipped CRDs.
    const serviceMonitors = objects.filter((o) => o.kind === 'ServiceMonitor').length;
    expect(lines.filter((l) => /^INFO .* passed for resource/.test(l))).toHaveLength(
      objects.length - serviceMonitors,
    );
  });
});

describe('chart README', () => {
  it('has the parameter tables generated from values.yaml (npm run chart:readme)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-readme-'));
    const readme = path.join(dir, 'README.md');
    fs.copyFileSync(path.join(CHART, 'README.md'), readme);
    const res = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/@bitnami/readme-generator-for-helm/bin/index.js'),
        '--values',
        path.join(CHART, 'values.yaml'),
        '--readme',
        readme,
      ],
      { encoding: 'utf8' },
    );
    expect(res.status).toBe(0);
    expect(fs.readFileSync(readme, 'utf8')).toBe(fs.readFileSync(path.join(CHART, 'README.md'), 'utf8'));
  });
});
