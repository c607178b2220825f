// What charts/tessera renders, feature by feature, from the real `helm template`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CAPABILITIES as REGISTRY } from '@tessera/contracts';
import { apiKeyFromRaw, keyIdOf, parseKeysFile, sha256Hex } from '@tessera/config';
import { parse } from 'yaml';
import {
  CAPABILITIES,
  FULLNAME,
  ROOT,
  container,
  envOf,
  render,
  type Loose,
  type Rendered,
} from './support/chart';

const cpu = render({ files: ['values-cpu.yaml'] });
const gpu = render({ files: ['values-gpu.yaml'] });
const embeddingsOnly = render({ files: ['values-embeddings-only.yaml'] });
const defaults = render();

const API_KEY = 'sk-ci-cpu-0123456789';
const name = (component: string) => `${FULLNAME}-${component}`;

function modelsFileOf(r: Rendered, component: string): Loose {
  return parse(r.get('ConfigMap', `${name(component)}-models`).data!['models.yaml']);
}

describe('objects and labels', () => {
  it('deploys every capability of the registry (libs/contracts)', () => {
    expect([...REGISTRY].sort()).toEqual([...CAPABILITIES].sort());
    for (const capability of REGISTRY) expect(defaults.deployment(capability)).toBeDefined();
  });

  it('names every component <fullname>-<component> and labels every object', () => {
    for (const component of ['gateway', ...CAPABILITIES]) {
      const deployment = defaults.deployment(component);
      expect(deployment.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'tessera',
        'app.kubernetes.io/instance': 'rel',
        'app.kubernetes.io/component': component,
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': 'tessera-0.1.0',
      });
      expect(deployment.spec.selector.matchLabels).toEqual({
        'app.kubernetes.io/name': 'tessera',
        'app.kubernetes.io/instance': 'rel',
        'app.kubernetes.io/component': component,
      });
    }
    for (const o of cpu.objects) {
      expect(o.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'tessera',
        'app.kubernetes.io/instance': 'rel',
      });
    }
  });

  it('uses the release name alone when it already says tessera', () => {
    const res = render({ values: { fullnameOverride: 'tessera' } });
    expect(res.find('Deployment', 'tessera-gateway')).toBeDefined();
  });

  it('renders only the enabled components', () => {
    const deployments = embeddingsOnly.ofKind('Deployment').map((d) => d.metadata.name);
    expect(deployments.sort()).toEqual([name('embeddings'), name('gateway')]);
    const env = envOf(container(embeddingsOnly.deployment('gateway')));
    expect(Object.keys(env).filter((k) => /^TESSERA_.*_ADDR$/.test(k))).toEqual([
      'TESSERA_EMBEDDINGS_ADDR',
    ]);
  });
});

describe('images', () => {
  it('runs the audio image for speech and transcription, appVersion by default', () => {
    for (const component of ['gateway', 'chat', 'embeddings', 'moderation']) {
      expect(container(defaults.deployment(component)).image).toBe('ghcr.io/tessera-ai/tessera:0.1.0');
    }
    for (const component of ['speech', 'transcription']) {
      expect(container(defaults.deployment(component)).image).toBe(
        'ghcr.io/tessera-ai/tessera-audio:0.1.0',
      );
    }
  });

  it('starts each component from its build output (the image keeps tini as PID 1)', () => {
    // dist/ mirrors the sources (tsconfig.build.json: rootDir ./): each script the pods run is
    // the build of a source file that exists.
    const built = (script: string) =>
      fs.existsSync(path.join(ROOT, script.replace(/^dist\//, '').replace(/\.js$/, '.ts')));
    for (const component of ['gateway', ...CAPABILITIES]) {
      const spec = defaults.deployment(component).spec.template.spec;
      const c = spec.containers[0];
      expect(c.command).toBeUndefined(); // the image's entrypoint (tini) stays
      expect(c.args).toEqual(['node', `dist/apps/${component}/src/main.js`]);
      expect(built(c.args[1])).toBe(true);
      for (const init of spec.initContainers ?? []) expect(built(init.args[1])).toBe(true);
    }
  });
});

describe('replicas and autoscaling', () => {
  it('omits replicas where an HPA scales the Deployment, and the HPA targets it', () => {
    for (const component of ['chat', 'embeddings']) {
      expect(cpu.deployment(component).spec.replicas).toBeUndefined();
      const hpa = cpu.get('HorizontalPodAutoscaler', name(component));
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: name(component),
      });
      expect(hpa.spec.metrics[0]).toEqual({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      });
    }
    expect(cpu.get('HorizontalPodAutoscaler', name('chat')).spec).toMatchObject({
      minReplicas: 1,
      maxReplicas: 3,
    });
  });

  it('adds the extra metrics, e.g. queue depth as a Pods metric', () => {
    const metrics = cpu.get('HorizontalPodAutoscaler', name('chat')).spec.metrics;
    expect(metrics).toHaveLength(2);
    expect(metrics[1]).toEqual({
      type: 'Pods',
      pods: {
        metric: { name: 'tessera_chat_active_generations' },
        target: { type: 'AverageValue', averageValue: '8' },
      },
    });
  });

  it('sets replicas and makes no HPA without autoscaling', () => {
    expect(cpu.deployment('gateway').spec.replicas).toBe(2);
    for (const component of ['moderation', 'speech', 'transcription']) {
      expect(cpu.deployment(component).spec.replicas).toBe(1);
      expect(cpu.find('HorizontalPodAutoscaler', name(component))).toBeUndefined();
    }
    expect(defaults.ofKind('HorizontalPodAutoscaler')).toEqual([]);
  });

  it('refuses a CPU target without CPU requests', () => {
    expect(() => render({ values: { speech: { autoscaling: { enabled: true } } } })).toThrow(
      /speech.autoscaling.targetCPUUtilizationPercentage needs speech.resources.requests.cpu/,
    );
  });

  it('makes a PodDisruptionBudget per component selecting its pods', () => {
    for (const component of ['gateway', ...CAPABILITIES]) {
      const pdb = cpu.get('PodDisruptionBudget', name(component));
      expect(pdb.apiVersion).toBe('policy/v1');
      expect(pdb.spec.minAvailable).toBe(1);
      expect(pdb.spec.selector.matchLabels).toEqual(
        cpu.deployment(component).spec.selector.matchLabels,
      );
    }
    const own = render({ values: { chat: { pdb: { maxUnavailable: '50%' } } } });
    expect(own.get('PodDisruptionBudget', name('chat')).spec).toEqual({
      maxUnavailable: '50%',
      selector: expect.anything(),
    });
    const none = render({ values: { chat: { pdb: { enabled: false } } } });
    expect(none.find('PodDisruptionBudget', name('chat'))).toBeUndefined();
  });
});

describe('GPU', () => {
  const onGpu = ['chat', 'transcription'];
  // values-gpu.yaml: chat on WebGPU (the default provider), transcription on CUDA.
  const provider: Record<string, string> = { chat: 'webgpu', transcription: 'cuda' };
  const gpuToleration = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };

  it('asks for nvidia.com/gpu, tolerates the GPU taint and runs the CUDA image only for cuda', () => {
    for (const component of ['gateway', ...CAPABILITIES]) {
      const deployment = gpu.deployment(component);
      const c = container(deployment);
      const tolerations = deployment.spec.template.spec.tolerations ?? [];
      const init = deployment.spec.template.spec.initContainers?.[0];
      if (onGpu.includes(component)) {
        expect(c.resources.limits['nvidia.com/gpu']).toBe(1);
        expect(tolerations).toContainEqual(gpuToleration);
        // WebGPU runs on the plain image: it needs no CUDA library, only the Vulkan loader.
        expect(c.image).toMatch(provider[component] === 'cuda' ? /:0\.1\.0-cuda$/ : /:0\.1\.0$/);
        expect(init.image).toBe(c.image);
        // The pull needs no GPU: the init container never holds one.
        expect(init.resources?.limits?.['nvidia.com/gpu']).toBeUndefined();
      } else {
        expect(JSON.stringify(deployment)).not.toContain('nvidia.com/gpu');
        expect(c.image).toMatch(/:0\.1\.0$/);
      }
    }
    expect(container(gpu.deployment('chat')).resources).toEqual({
      requests: { cpu: '1', memory: '4Gi' },
      limits: { memory: '8Gi', 'nvidia.com/gpu': 1 },
    });
  });

  it('asks the NVIDIA container toolkit for the graphics capability (the Vulkan ICD) on GPU pods only', () => {
    for (const component of ['gateway', ...CAPABILITIES]) {
      const deployment = gpu.deployment(component);
      const env = envOf(container(deployment));
      if (onGpu.includes(component)) {
        expect(env.NVIDIA_DRIVER_CAPABILITIES).toBe('compute,utility,graphics');
        const init = deployment.spec.template.spec.initContainers[0];
        expect(envOf(init).NVIDIA_DRIVER_CAPABILITIES).toBeUndefined();
      } else {
        expect(env.NVIDIA_DRIVER_CAPABILITIES).toBeUndefined();
      }
    }
  });

  it("selects the GPU provider (CPU as fallback) for GPU models that chose none", () => {
    for (const model of modelsFileOf(gpu, 'chat').models) {
      expect(model.options.execution_providers).toEqual(['webgpu', 'cpu']);
    }
    expect(modelsFileOf(gpu, 'transcription').models[0].options).toEqual({
      execution_providers: ['cuda', 'cpu'],
    });
    for (const model of modelsFileOf(gpu, 'embeddings').models) {
      expect(model.options?.execution_providers).toBeUndefined();
    }
    // The gateway's models file holds the same entries.
    const gatewayModels = modelsFileOf(gpu, 'gateway').models;
    for (const model of modelsFileOf(gpu, 'chat').models) {
      expect(gatewayModels).toContainEqual(model);
    }
    const chosen = render({
      values: {
        chat: {
          gpu: { enabled: true },
          models: [{ id: 'm', source: 'hf:o/m', options: { execution_providers: ['cpu'] } }],
        },
      },
    });
    expect(modelsFileOf(chosen, 'chat').models[0].options.execution_providers).toEqual(['cpu']);
  });

  it('defaults gpu.provider to webgpu on the plain image', () => {
    const res = render({ values: { embeddings: { gpu: { enabled: true } } } });
    expect(container(res.deployment('embeddings')).image).toMatch(/:0\.1\.0$/);
    for (const model of modelsFileOf(res, 'embeddings').models) {
      expect(model.options.execution_providers).toEqual(['webgpu', 'cpu']);
    }
  });

  it('rolls GPU pods in place by default (no surge pod waiting for a GPU)', () => {
    for (const component of onGpu) {
      expect(gpu.deployment(component).spec.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
      });
    }
    expect(gpu.deployment('embeddings').spec.strategy).toBeUndefined();
  });

  it('keeps the GPU count and the user tolerations', () => {
    const res = render({
      values: {
        chat: {
          gpu: { enabled: true, count: 2 },
          tolerations: [{ key: 'pool', value: 'a100', effect: 'NoSchedule', operator: 'Equal' }],
        },
      },
    });
    const spec = res.deployment('chat').spec.template.spec;
    expect(spec.containers[0].resources.limits['nvidia.com/gpu']).toBe(2);
    expect(spec.tolerations).toEqual([
      { key: 'pool', value: 'a100', effect: 'NoSchedule', operator: 'Equal' },
      gpuToleration,
    ]);
  });
});

describe('Services', () => {
  it('makes the capability Services headless with the gRPC and metrics ports', () => {
    for (const component of CAPABILITIES) {
      const service = cpu.get('Service', name(component));
      expect(service.spec.clusterIP).toBe('None');
      expect(service.spec.ports).toEqual([
        { name: 'grpc', port: 50051, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' },
        { name: 'http-metrics', port: 9464, targetPort: 'http-metrics', protocol: 'TCP' },
      ]);
      expect(service.spec.selector).toEqual(cpu.deployment(component).spec.selector.matchLabels);
      const ports = container(cpu.deployment(component)).ports;
      expect(ports).toEqual([
        { name: 'grpc', containerPort: 50051, protocol: 'TCP' },
        { name: 'http-metrics', containerPort: 9464, protocol: 'TCP' },
      ]);
    }
  });

  it('gives the gateway a ClusterIP Service on port 80 to its 8080', () => {
    const service = cpu.get('Service', name('gateway'));
    expect(service.spec.type).toBe('ClusterIP');
    expect(service.spec.clusterIP).toBeUndefined();
    expect(service.spec.ports).toEqual([
      { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
    ]);
    expect(container(cpu.deployment('gateway')).ports).toEqual([
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'http-metrics', containerPort: 9464, protocol: 'TCP' },
    ]);
  });

  it("serves the gateway's /metrics on 9464 through a ClusterIP Service of its own, never the API's", () => {
    expect(envOf(container(cpu.deployment('gateway'))).METRICS_PORT).toBe('9464');
    const exposed = render({ values: { gateway: { service: { type: 'LoadBalancer' } } } });
    expect(exposed.get('Service', name('gateway')).spec.ports.map((p: Loose) => p.name)).toEqual([
      'http',
    ]);
    const metrics = exposed.get('Service', `${name('gateway')}-metrics`);
    expect(metrics.spec.type).toBe('ClusterIP');
    expect(metrics.spec.ports).toEqual([
      { name: 'http-metrics', port: 9464, targetPort: 'http-metrics', protocol: 'TCP' },
    ]);
    expect(metrics.spec.selector).toEqual(cpu.deployment('gateway').spec.selector.matchLabels);
    for (const component of ['gateway', ...CAPABILITIES]) {
      expect(defaults.deployment(component).spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
        'prometheus.io/path': '/metrics',
      });
    }
    const plain = render({ values: { prometheusAnnotations: false } });
    expect(
      plain.deployment('gateway').spec.template.metadata.annotations['prometheus.io/scrape'],
    ).toBeUndefined();
  });

  it('points the gateway at each enabled capability by its headless Service', () => {
    const env = envOf(container(cpu.deployment('gateway')));
    for (const capability of CAPABILITIES) {
      expect(env[`TESSERA_${capability.toUpperCase()}_ADDR`]).toBe(`${name(capability)}:50051`);
    }
  });
});

describe('NetworkPolicy', () => {
  it('lets only gateway pods reach each capability gRPC port', () => {
    const gatewayLabels = cpu.deployment('gateway').spec.template.metadata.labels;
    for (const component of CAPABILITIES) {
      const policy = cpu.get('NetworkPolicy', name(component));
      expect(policy.spec.podSelector.matchLabels).toEqual(
        cpu.deployment(component).spec.selector.matchLabels,
      );
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      const [grpc, metrics] = policy.spec.ingress;
      expect(grpc.ports).toEqual([{ port: 'grpc', protocol: 'TCP' }]);
      expect(grpc.from).toHaveLength(1);
      const selector = grpc.from[0].podSelector.matchLabels;
      expect(selector['app.kubernetes.io/component']).toBe('gateway');
      // The selector matches the gateway's pods and no capability's.
      for (const [k, v] of Object.entries(selector)) expect(gatewayLabels[k]).toBe(v);
      expect(metrics.ports).toEqual([{ port: 'http-metrics', protocol: 'TCP' }]);
      expect(metrics.from).toBeUndefined();
    }
    expect(embeddingsOnly.ofKind('NetworkPolicy').map((p) => p.metadata.name)).toEqual([
      name('gateway'),
      name('embeddings'),
    ]);
  });

  it("opens the gateway's API port to all and its metrics port as the services' are", () => {
    const policy = cpu.get('NetworkPolicy', name('gateway'));
    expect(policy.spec.podSelector.matchLabels).toEqual(
      cpu.deployment('gateway').spec.selector.matchLabels,
    );
    expect(policy.spec.ingress).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }] },
      { ports: [{ port: 'http-metrics', protocol: 'TCP' }] },
    ]);
    const peer = { podSelector: { matchLabels: { app: 'prometheus' } } };
    const limited = render({ values: { networkPolicy: { metricsFrom: [peer] } } });
    expect(limited.get('NetworkPolicy', name('gateway')).spec.ingress[1].from).toEqual([peer]);
    expect(limited.get('NetworkPolicy', name('gateway')).spec.ingress[0].from).toBeUndefined();
  });

  it('limits the metrics port to networkPolicy.metricsFrom when given, and is optional', () => {
    const peer = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
    const limited = render({ values: { networkPolicy: { metricsFrom: [peer] } } });
    expect(limited.get('NetworkPolicy', name('chat')).spec.ingress[1].from).toEqual([peer]);
    const off = render({ values: { networkPolicy: { enabled: false } } });
    expect(off.ofKind('NetworkPolicy')).toEqual([]);
  });
});

describe('API keys', () => {
  it('keeps the keys in the Secret only, mounted as the gateway keys file', () => {
    const secret = cpu.get('Secret', `${FULLNAME}-api-keys`);
    expect(Buffer.from(secret.data!['api-keys'], 'base64').toString()).toBe(API_KEY);
    // Nowhere else: not in plain text, not base64 outside the Secret.
    expect(cpu.text).not.toContain(API_KEY);
    const others = cpu.objects.filter((o) => o !== secret);
    expect(JSON.stringify(others)).not.toContain(secret.data!['api-keys']);

    const gateway = cpu.deployment('gateway');
    const env = envOf(container(gateway));
    expect(env.TESSERA_API_KEYS).toBeUndefined();
    expect(env.TESSERA_API_KEYS_FILE).toBe('/etc/tessera/auth/api-keys');
    const volume = gateway.spec.template.spec.volumes.find((v: Loose) => v.name === 'api-keys');
    expect(volume.secret).toEqual({
      secretName: `${FULLNAME}-api-keys`,
      defaultMode: 0o440,
      items: [{ key: 'api-keys', path: 'api-keys' }],
    });
    for (const cm of cpu.ofKind('ConfigMap')) expect(JSON.stringify(cm)).not.toContain('sk-');
  });

  it('uses an existing Secret instead of making one', () => {
    const res = render({ values: { auth: { existingSecret: 'mine', existingSecretKey: 'keys' } } });
    expect(res.find('Secret', `${FULLNAME}-api-keys`)).toBeUndefined();
    const volume = res
      .deployment('gateway')
      .spec.template.spec.volumes.find((v: Loose) => v.name === 'api-keys');
    expect(volume.secret.secretName).toBe('mine');
    expect(volume.secret.items).toEqual([{ key: 'keys', path: 'api-keys' }]);
  });

  it('writes auth.keys and auth.apiKeys as the YAML keys file the gateway reads', () => {
    const digest = sha256Hex('sk-team-b');
    const res = render({
      values: {
        auth: {
          apiKeys: ['sk-raw-one'],
          keys: [
            { id: 'team-a', key: 'sk-team-a', limits: { requests_per_minute: 60 } },
            { id: 'team-b', sha256: digest, models: ['gpt-4o-mini'] },
          ],
        },
      },
    });
    const secret = res.get('Secret', `${FULLNAME}-api-keys`);
    const file = Buffer.from(secret.data!['api-keys'], 'base64').toString();
    // The raw key has no id in the file: the gateway names it under TESSERA_KEY_ID_SECRET.
    const idOf = (key: string) => keyIdOf(key, 'the-secret-of-the-release');
    expect(parseKeysFile(file, 'secret', idOf)).toEqual([
      apiKeyFromRaw('sk-raw-one', idOf('sk-raw-one')),
      { ...apiKeyFromRaw('sk-team-a', 'team-a'), limits: { requestsPerMinute: 60 } },
      { id: 'team-b', sha256: digest, models: ['gpt-4o-mini'], limits: {} },
    ].map((key) => expect.objectContaining({ ...key, limits: expect.objectContaining(key.limits) })));
    for (const raw of ['sk-raw-one', 'sk-team-a']) expect(res.text.split(raw)).toHaveLength(1);
  });

  it('passes the Redis URL from a Secret and writes the usage log per pod when asked', () => {
    const res = render({
      values: {
        rateLimit: { redis: { url: 'redis://:pw@redis:6379/0' } },
        gateway: { usageLog: { enabled: true, existingClaim: 'usage' } },
      },
    });
    const secret = res.get('Secret', `${FULLNAME}-redis`);
    expect(Buffer.from(secret.data!.url, 'base64').toString()).toBe('redis://:pw@redis:6379/0');
    expect(res.text.split('redis://:pw@')).toHaveLength(1);
    const gateway = container(res.deployment('gateway'));
    const redisEnv = gateway.env.find((e: Loose) => e.name === 'TESSERA_REDIS_URL');
    expect(redisEnv.valueFrom.secretKeyRef).toEqual({ name: `${FULLNAME}-redis`, key: 'url' });
    expect(envOf(gateway).TESSERA_USAGE_LOG).toBe('/var/lib/tessera/usage/$(POD_NAME).jsonl');
    const volume = res
      .deployment('gateway')
      .spec.template.spec.volumes.find((v: Loose) => v.name === 'usage-log');
    expect(volume.persistentVolumeClaim).toEqual({ claimName: 'usage' });

    const existing = render({ values: { rateLimit: { redis: { existingSecret: 'r', existingSecretKey: 'u' } } } });
    expect(existing.find('Secret', `${FULLNAME}-redis`)).toBeUndefined();
    const env = container(existing.deployment('gateway')).env;
    expect(env.find((e: Loose) => e.name === 'TESSERA_REDIS_URL').valueFrom.secretKeyRef).toEqual({
      name: 'r',
      key: 'u',
    });
    // Off by default.
    expect(envOf(container(defaults.deployment('gateway'))).TESSERA_USAGE_LOG).toBeUndefined();
    expect(envOf(container(defaults.deployment('gateway'))).TESSERA_REDIS_URL).toBeUndefined();
  });

  it('gives the gateway a key-id secret of its own, random once, or from an existing Secret', () => {
    const secret = defaults.get('Secret', `${FULLNAME}-key-id`);
    expect(Buffer.from(secret.data!.secret, 'base64').toString()).toMatch(/^[A-Za-z0-9]{48}$/);
    const ref = (r: Rendered) =>
      container(r.deployment('gateway')).env.find((e: Loose) => e.name === 'TESSERA_KEY_ID_SECRET')
        .valueFrom.secretKeyRef;
    expect(ref(defaults)).toEqual({ name: `${FULLNAME}-key-id`, key: 'secret' });
    expect(JSON.stringify(defaults.deployment('gateway'))).not.toContain(secret.data!.secret);
    const existing = render({
      values: { auth: { keyIdSecret: { existingSecret: 'ids', existingSecretKey: 's' } } },
    });
    expect(existing.find('Secret', `${FULLNAME}-key-id`)).toBeUndefined();
    expect(ref(existing)).toEqual({ name: 'ids', key: 's' });
  });

  it('generates a key when none is given, so the gateway can start', () => {
    const secret = defaults.get('Secret', `${FULLNAME}-api-keys`);
    expect(Buffer.from(secret.data!['api-keys'], 'base64').toString()).toMatch(
      /^sk-tessera-[A-Za-z0-9]{40}$/,
    );
    // The Secret and the gateway's checksum of it come from the same key.
    const checksum =
      defaults.deployment('gateway').spec.template.metadata.annotations['checksum/api-keys'];
    expect(checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('passes the Hub token to the pull only, from its Secret', () => {
    const res = render({
      values: { huggingface: { existingSecret: 'hf', tokenKey: 't', endpoint: 'https://m.example' } },
    });
    for (const capability of CAPABILITIES) {
      const spec = res.deployment(capability).spec.template.spec;
      const env = envOf(spec.initContainers[0]);
      expect(env.HF_TOKEN).toEqual({ secretKeyRef: { name: 'hf', key: 't' } });
      expect(env.HF_ENDPOINT).toBe('https://m.example');
      expect(envOf(spec.containers[0]).HF_TOKEN).toBeUndefined();
    }
    expect(JSON.stringify(defaults.objects)).not.toContain('HF_TOKEN');
  });
});

describe('tracing', () => {
  it('sets no OTEL_* variable unless otel.enabled', () => {
    expect(defaults.text).not.toContain('OTEL_');
    expect(gpu.text).not.toContain('OTEL_');
  });

  it('exports to the bundled Jaeger when it is enabled and no endpoint is set', () => {
    for (const component of ['gateway', ...CAPABILITIES]) {
      const env = envOf(container(cpu.deployment(component)));
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(`http://${FULLNAME}-jaeger:4318`);
      expect(env.OTEL_SERVICE_NAME).toBe(`tessera-${component}`);
    }
    const service = cpu.get('Service', `${FULLNAME}-jaeger`);
    expect(service.spec.ports.map((p: Loose) => p.port)).toEqual([4317, 4318, 16686]);
    expect(container(cpu.get('Deployment', `${FULLNAME}-jaeger`)).image).toMatch(
      /^docker\.io\/jaegertracing\/jaeger:2\./,
    );
  });

  it('exports to otel.endpoint, and refuses tracing with nowhere to export', () => {
    const res = render({ values: { otel: { enabled: true, endpoint: 'http://c.obs:4318' } } });
    expect(envOf(container(res.deployment('chat'))).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://c.obs:4318',
    );
    expect(res.find('Deployment', `${FULLNAME}-jaeger`)).toBeUndefined();
    expect(() => render({ values: { otel: { enabled: true } } })).toThrow(
      /otel.enabled needs otel.endpoint, or jaeger.enabled/,
    );
  });
});

describe('drain', () => {
  it('lets requests and calls in flight run until 5 s before the grace period ends', () => {
    for (const component of CAPABILITIES) {
      const deployment = cpu.deployment(component);
      const grace = deployment.spec.template.spec.terminationGracePeriodSeconds;
      expect(envOf(container(deployment)).TESSERA_DRAIN_TIMEOUT_MS).toBe(String((grace - 5) * 1000));
    }
    const short = render({ values: { embeddings: { terminationGracePeriodSeconds: 3 } } });
    expect(envOf(container(short.deployment('embeddings'))).TESSERA_DRAIN_TIMEOUT_MS).toBe('0');
  });

  it('keeps the gateway serving for its preStop sleep, then drains in what is left of the grace period', () => {
    const gateway = cpu.deployment('gateway');
    const grace = gateway.spec.template.spec.terminationGracePeriodSeconds;
    expect(container(gateway).lifecycle).toEqual({
      preStop: { exec: { command: ['sleep', '5'] } },
    });
    expect(envOf(container(gateway)).TESSERA_DRAIN_TIMEOUT_MS).toBe(String((grace - 5 - 5) * 1000));
    for (const component of CAPABILITIES) {
      expect(container(cpu.deployment(component)).lifecycle).toBeUndefined();
    }
    const none = render({ values: { gateway: { preStopSleepSeconds: 0 } } });
    expect(container(none.deployment('gateway')).lifecycle).toBeUndefined();
    expect(envOf(container(none.deployment('gateway'))).TESSERA_DRAIN_TIMEOUT_MS).toBe(
      String((grace - 5) * 1000),
    );
  });
});

describe('probes', () => {
  it('probes the services with native gRPC health (startup, readiness) and /healthz (liveness)', () => {
    for (const component of CAPABILITIES) {
      const c = container(cpu.deployment(component));
      expect(c.startupProbe).toMatchObject({ grpc: { port: 50051 }, failureThreshold: 90 });
      expect(c.readinessProbe.grpc).toEqual({ port: 50051 });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http-metrics' });
    }
  });

  it('probes the gateway over HTTP: /healthz, and /readyz for readiness', () => {
    const c = container(cpu.deployment('gateway'));
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const loose = render({ values: { gateway: { readinessOnUpstreams: false } } });
    expect(container(loose.deployment('gateway')).readinessProbe.httpGet.path).toBe('/healthz');
  });
});

describe('security context', () => {
  const shapes: [string, Rendered][] = [
    ['cpu', cpu],
    ['gpu', gpu],
    ['defaults', defaults],
  ];

  it.each(shapes)('hardens every pod and container (%s), init and test pods included', (_, r) => {
    const specs = r.podSpecs();
    expect(specs.filter((s) => s.owner.startsWith('Pod/')).length).toBeGreaterThan(0);
    let containers = 0;
    for (const { owner, spec } of specs) {
      expect({ owner, ...spec.securityContext }).toMatchObject({
        owner,
        runAsNonRoot: true,
        runAsUser: 10001,
        fsGroup: 10001,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.automountServiceAccountToken).toBe(false);
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        containers++;
        expect({ owner, name: c.name, ...c.securityContext }).toEqual({
          owner,
          name: c.name,
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        // A read-only root needs a writable /tmp.
        expect(c.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: '/tmp' }));
      }
    }
    expect(containers).toBeGreaterThan(specs.length);
  });
});

describe('models', () => {
  it('renders each capability models file with capability added; the gateway gets them all', () => {
    const all: Loose[] = [];
    for (const capability of CAPABILITIES) {
      const models = modelsFileOf(defaults, capability).models;
      expect(models.length).toBeGreaterThan(0);
      for (const m of models) expect(m.capability).toBe(capability);
      all.push(...models);
    }
    expect(modelsFileOf(defaults, 'gateway').models).toEqual(all);
    expect(modelsFileOf(embeddingsOnly, 'gateway').models).toEqual(
      modelsFileOf(embeddingsOnly, 'embeddings').models,
    );
  });

  it('serves by default the models of config/models.yaml', () => {
    const config = parse(fs.readFileSync(path.join(ROOT, 'config/models.yaml'), 'utf8'));
    const byId = (ms: Loose[]) => [...ms].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(modelsFileOf(defaults, 'gateway').models)).toEqual(byId(config.models));
  });

  it('mounts the models file and pulls the models into the cache before the service starts', () => {
    for (const capability of CAPABILITIES) {
      const spec = cpu.deployment(capability).spec.template.spec;
      expect(spec.initContainers).toHaveLength(1);
      const [init] = spec.initContainers;
      expect(init.name).toBe('models-pull');
      expect(init.image).toBe(spec.containers[0].image);
      expect(init.args).toEqual(['node', 'dist/tools/models/cli.js', 'pull']);
      for (const c of [init, spec.containers[0]]) {
        expect(envOf(c)).toMatchObject({
          TESSERA_MODELS_FILE: '/etc/tessera/models/models.yaml',
          TESSERA_MODEL_CACHE: '/var/cache/tessera/models',
        });
        expect(c.volumeMounts).toEqual(
          expect.arrayContaining([
            { name: 'models-file', mountPath: '/etc/tessera/models', readOnly: true },
            { name: 'model-cache', mountPath: '/var/cache/tessera/models' },
          ]),
        );
      }
      const files = spec.volumes.find((v: Loose) => v.name === 'models-file');
      expect(files.configMap.name).toBe(`${name(capability)}-models`);
    }
  });

  it('caches models in an emptyDir, a PVC of the chart or an existing claim', () => {
    const volume = (r: Rendered, c: string) =>
      r.deployment(c).spec.template.spec.volumes.find((v: Loose) => v.name === 'model-cache');
    expect(volume(cpu, 'embeddings').emptyDir).toEqual({ sizeLimit: '10Gi' });
    expect(cpu.ofKind('PersistentVolumeClaim')).toEqual([]);

    const res = render({
      values: {
        chat: { modelCache: { type: 'pvc', size: '5Gi' } },
        transcription: {
          modelCache: { type: 'pvc', storageClass: 'fast', accessModes: ['ReadWriteMany'] },
        },
        speech: { modelCache: { type: 'pvc', existingClaim: 'voices' } },
      },
    });
    expect(volume(res, 'chat').persistentVolumeClaim).toEqual({
      claimName: `${name('chat')}-model-cache`,
    });
    const chat = res.get('PersistentVolumeClaim', `${name('chat')}-model-cache`);
    expect(chat.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
    expect(chat.spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '5Gi' } },
    });
    expect(res.get('PersistentVolumeClaim', `${name('transcription')}-model-cache`).spec).toEqual({
      accessModes: ['ReadWriteMany'],
      storageClassName: 'fast',
      resources: { requests: { storage: '10Gi' } },
    });
    expect(volume(res, 'speech').persistentVolumeClaim).toEqual({ claimName: 'voices' });
    expect(res.ofKind('PersistentVolumeClaim')).toHaveLength(2);
  });

  it('rolls only the changed component and the gateway when one component models change', () => {
    const checksums = (r: Rendered) =>
      Object.fromEntries(
        ['gateway', ...CAPABILITIES].map((c) => [
          c,
          r.deployment(c).spec.template.metadata.annotations['checksum/config'],
        ]),
      );
    const before = checksums(render({ files: ['values-cpu.yaml'] }));
    const after = checksums(
      render({
        files: ['values-cpu.yaml'],
        values: {
          embeddings: {
            models: [{ id: 'bge-small', source: 'hf:Xenova/bge-small-en-v1.5', dtype: 'q8' }],
          },
        },
      }),
    );
    for (const c of ['gateway', ...CAPABILITIES]) expect(before[c]).toMatch(/^[0-9a-f]{64}$/);
    expect(after.embeddings).not.toBe(before.embeddings);
    expect(after.gateway).not.toBe(before.gateway);
    for (const c of ['chat', 'moderation', 'speech', 'transcription']) {
      expect(after[c]).toBe(before[c]);
    }
  });
});

describe('helm test hooks', () => {
  it('calls each enabled capability through the gateway with the release key', () => {
    const pods = cpu.ofKind('Pod');
    expect(pods.map((p) => p.metadata.name).sort()).toEqual(
      CAPABILITIES.map((c) => `${FULLNAME}-test-${c}`).sort(),
    );
    for (const pod of pods) {
      expect(pod.metadata.annotations['helm.sh/hook']).toBe('test');
      const [c] = pod.spec.containers;
      expect(c.args.slice(0, 2)).toEqual(['node', '/etc/tessera/test/helm-test.mjs']);
      expect(envOf(c).TESSERA_URL).toBe(`http://${name('gateway')}:80`);
      const keys = pod.spec.volumes.find((v: Loose) => v.name === 'api-keys');
      expect(keys.secret.secretName).toBe(`${FULLNAME}-api-keys`);
    }
    const speech = cpu.get('Pod', `${FULLNAME}-test-speech`);
    expect(speech.spec.containers[0].args.slice(2)).toEqual(['speech', 'piper-en-us', 'alloy']);
    expect(embeddingsOnly.ofKind('Pod')).toHaveLength(1);
    const script = cpu.get('ConfigMap', `${FULLNAME}-test-script`);
    expect(script.metadata.annotations['helm.sh/hook']).toBe('test');
    expect(script.data!['helm-test.mjs']).toBe(
      fs.readFileSync(path.join(ROOT, 'charts/tessera/files/helm-test.mjs'), 'utf8'),
    );
  });
});

describe('ServiceMonitor', () => {
  it('scrapes every component when enabled', () => {
    const monitors = cpu.ofKind('ServiceMonitor');
    expect(monitors).toHaveLength(6);
    // The gateway's through its -metrics Service (its API Service has no such port).
    expect(cpu.get('ServiceMonitor', name('gateway')).spec.endpoints).toEqual([
      { port: 'http-metrics', path: '/metrics', interval: '30s' },
    ]);
    expect(cpu.get('ServiceMonitor', name('chat')).spec.endpoints[0].port).toBe('http-metrics');
    expect(defaults.ofKind('ServiceMonitor')).toEqual([]);
  });
});

describe('pass-through values', () => {
  const res = render({
    values: {
      image: { registry: '', repository: 'mirror/tessera', tag: '9.9.9' },
      imagePullSecrets: [{ name: 'pull' }],
      serviceAccount: { create: false, name: 'runner' },
      jaeger: { enabled: true },
      gateway: {
        requestTimeoutMs: 600000,
        extraEnv: [{ name: 'TESSERA_BODY_LIMIT_BYTES', value: '1048576' }],
        podAnnotations: { team: 'ml' },
      },
      embeddings: {
        nodeSelector: { pool: 'cpu' },
        affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
        extraEnv: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=2048' }],
      },
    },
  });

  it('sets the image, pull secrets and service account of every pod', () => {
    expect(container(res.deployment('chat')).image).toBe('mirror/tessera:9.9.9');
    expect(container(res.deployment('speech')).image).toBe('tessera-ai/tessera-audio:9.9.9');
    for (const { owner, spec } of res.podSpecs()) {
      expect({ owner, secrets: spec.imagePullSecrets }).toEqual({ owner, secrets: [{ name: 'pull' }] });
    }
    for (const deployment of res.ofKind('Deployment')) {
      expect(deployment.spec.template.spec.serviceAccountName).toBe('runner');
    }
    expect(res.ofKind('ServiceAccount')).toEqual([]);
  });

  it('adds the extra env, timeout, annotations and scheduling of a component only', () => {
    const gateway = res.deployment('gateway');
    expect(envOf(container(gateway))).toMatchObject({
      TESSERA_REQUEST_TIMEOUT_MS: '600000',
      TESSERA_BODY_LIMIT_BYTES: '1048576',
    });
    expect(gateway.spec.template.metadata.annotations.team).toBe('ml');
    const embeddings = res.deployment('embeddings').spec.template.spec;
    expect(envOf(embeddings.containers[0]).NODE_OPTIONS).toBe('--max-old-space-size=2048');
    expect(embeddings.nodeSelector).toEqual({ pool: 'cpu' });
    expect(embeddings.affinity).toEqual({
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] },
    });
    const chat = res.deployment('chat').spec.template.spec;
    expect(envOf(chat.containers[0]).NODE_OPTIONS).toBeUndefined();
    expect(chat.nodeSelector).toBeUndefined();
    expect(envOf(container(defaults.deployment('gateway'))).TESSERA_REQUEST_TIMEOUT_MS).toBeUndefined();
  });

  it('renders without the gateway: no test pods, the services alone', () => {
    const headless = render({ values: { gateway: { enabled: false } } });
    expect(headless.find('Deployment', name('gateway'))).toBeUndefined();
    expect(headless.ofKind('Pod')).toEqual([]);
    expect(headless.ofKind('Deployment')).toHaveLength(5);
  });
});
