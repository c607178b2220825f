// A release of the chart in the test control plane, read back through the API: what helm
// rendered, what the values enabled, and the Deployments and pods per component.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseObjects } from '../../../tools/k8s/manifests';
import { helm, chartDir, ciValues } from './helm';
import { Kube, KubeObject, eventually, selectorQuery } from './kube';

export const COMPONENTS = [
  'gateway',
  'chat',
  'embeddings',
  'moderation',
  'speech',
  'transcription',
] as const;
export type Component = (typeof COMPONENTS)[number];
export const CAPABILITIES = COMPONENTS.filter((c) => c !== 'gateway');

const COMPONENT_LABEL = 'app.kubernetes.io/component';
const CHECKSUM = 'checksum/config';
const HELM_TIMEOUT = '150s';

export interface ComponentValues {
  enabled: boolean;
  replicaCount: number;
  autoscaling?: { enabled: boolean };
  pdb?: { enabled: boolean };
  gpu?: { enabled: boolean; count: number };
  models?: { id: string; aliases?: string[] }[];
}
export type ChartValues = Record<Component, ComponentValues>;

/** One Deployment's state that a change to another component must leave alone. */
export interface Snapshot {
  generation: number;
  checksum: string | undefined;
  podUids: string[];
}

export class Release {
  constructor(
    readonly kube: Kube,
    readonly name: string,
    readonly namespace: string,
  ) {}

  /**
   * `helm install --wait` of a ci/values-<shape>.yaml (plus --set/-f arguments) as release `name`
   * in its own namespace of the same name.
   */
  static async install(
    kube: Kube,
    name: string,
    shape: string,
    ...extra: string[]
  ): Promise<Release> {
    const release = new Release(kube, name, name);
    await helm(
      'install',
      release.name,
      chartDir,
      '--namespace',
      release.namespace,
      '--create-namespace',
      '--values',
      ciValues(shape),
      '--wait',
      '--timeout',
      HELM_TIMEOUT,
      ...extra,
    );
    return release;
  }

  /** `helm upgrade --reuse-values` with more arguments; waits for the rollout unless told not to. */
  async upgrade(wait: boolean, ...extra: string[]): Promise<void> {
    const waitArgs = wait ? ['--wait', '--timeout', HELM_TIMEOUT] : [];
    await helm(
      'upgrade',
      this.name,
      chartDir,
      '--namespace',
      this.namespace,
      '--reuse-values',
      ...waitArgs,
      ...extra,
    );
  }

  /**
   * One more model for `component` (a copy of its first under a new id, without aliases, which
   * must stay unique across the models file): `helm upgrade --wait`, then the rollout settled.
   * Returns the new model's id.
   */
  async addModel(component: Component): Promise<string> {
    const models = (await this.values())[component].models ?? [];
    if (models.length === 0) throw new Error(`${component} serves no model to copy`);
    const added = { ...models[0], id: `${models[0].id}-canary` };
    delete added.aliases;
    const dir = mkdtempSync(join(tmpdir(), 'tessera-cluster-'));
    try {
      const file = join(dir, 'values.json');
      writeFileSync(file, JSON.stringify({ [component]: { models: [...models, added] } }));
      await this.upgrade(true, '--values', file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await this.settled();
    return added.id;
  }

  /** Uninstalls and waits until the namespace's pods are gone (their resources free again). */
  async uninstall(): Promise<void> {
    await helm('uninstall', this.name, '--namespace', this.namespace, '--wait');
    await this.kube.delete(`/api/v1/namespaces/${this.namespace}`);
    await eventually(`pods of ${this.namespace} gone`, async () =>
      (await this.kube.list(`/api/v1/namespaces/${this.namespace}/pods`)).length === 0
        ? true
        : undefined,
    );
  }

  /** The computed values of the release (chart defaults merged with the shape's file). */
  async values(): Promise<ChartValues> {
    const json = await helm(
      'get',
      'values',
      this.name,
      '-n',
      this.namespace,
      '--all',
      '-o',
      'json',
    );
    return JSON.parse(json) as ChartValues;
  }

  /** Every object helm rendered for the release (hooks, e.g. `helm test` pods, not included). */
  async manifest(): Promise<KubeObject[]> {
    const text = await helm('get', 'manifest', this.name, '-n', this.namespace);
    return parseObjects(text) as KubeObject[];
  }

  private get selector(): string {
    return `app.kubernetes.io/instance=${this.name}`;
  }

  async list(resource: string, group = 'api/v1'): Promise<KubeObject[]> {
    return this.kube.list(`/${group}/namespaces/${this.namespace}/${resource}`, this.selector);
  }

  /** The release's Deployments by component label. */
  async deployments(): Promise<Map<string, KubeObject>> {
    const list = await this.list('deployments', 'apis/apps/v1');
    return new Map(list.map((d) => [d.metadata.labels?.[COMPONENT_LABEL] ?? '', d]));
  }

  async deployment(component: Component): Promise<KubeObject> {
    const found = (await this.deployments()).get(component);
    if (!found) throw new Error(`no Deployment for ${component} in ${this.namespace}`);
    return found;
  }

  /** Pods selected by a Deployment's selector that are not being deleted. */
  async pods(deployment: KubeObject): Promise<KubeObject[]> {
    const pods = await this.kube.list(
      `/api/v1/namespaces/${this.namespace}/pods`,
      selectorQuery(deployment.spec.selector),
    );
    return pods.filter((p) => !(p.metadata as { deletionTimestamp?: string }).deletionTimestamp);
  }

  /** Generation, pod-template checksum and pod uids of every Deployment, by component. */
  async snapshot(): Promise<Map<string, Snapshot>> {
    const result = new Map<string, Snapshot>();
    for (const [component, deployment] of await this.deployments()) {
      result.set(component, {
        generation: deployment.metadata.generation ?? 0,
        checksum: deployment.spec.template.metadata?.annotations?.[CHECKSUM],
        podUids: (await this.pods(deployment)).map((p) => p.metadata.uid ?? '').sort(),
      });
    }
    return result;
  }

  /** Waits until every Deployment's rollout is complete (observed, updated, available, no extra). */
  async settled(): Promise<void> {
    await eventually(`rollouts in ${this.namespace} complete`, async () => {
      for (const d of (await this.deployments()).values()) {
        const s = d.status ?? {};
        const want = d.spec.replicas ?? 1;
        const done =
          s.observedGeneration === d.metadata.generation &&
          s.updatedReplicas === want &&
          s.availableReplicas === want &&
          (s.replicas ?? 0) === want &&
          (await this.pods(d)).length === want;
        if (!done) return undefined;
      }
      return true;
    });
  }
}

/**
 * A release of ci/values-<shape>.yaml installed before the describe block's tests and removed
 * after them; the returned function gives it to the tests.
 */
export function useRelease(name: string, shape: string): () => Release {
  let kube: Kube | undefined;
  let release: Release | undefined;
  beforeAll(async () => {
    kube = new Kube(process.env.KUBECONFIG!);
    release = await Release.install(kube, name, shape);
  });
  afterAll(async () => {
    await release?.uninstall();
    await kube?.close();
  });
  return () => {
    if (!release) throw new Error(`the release ${name} is not installed`);
    return release;
  };
}
