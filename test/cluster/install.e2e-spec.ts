// `helm install --wait` of each ci/values-*.yaml into the real control plane, then, through the
// API: every rendered object was accepted and reads back, each enabled component runs (scheduled
// by the real scheduler onto a kwok node, Running by kwok's stages), GPU capabilities only on the
// GPU node, and the HPAs and PDBs resolve to the right Deployment in the real controllers' view.
import { Kube, KubeObject, eventually, selectorQuery } from './support/kube';
import { CPU_NODES, GPU_NODE, GPU_RESOURCE } from './support/nodes';
import { COMPONENTS, ChartValues, Release } from './support/release';

const COMPONENT_LABEL = 'app.kubernetes.io/component';

describe.each(['cpu', 'gpu', 'embeddings-only'])('helm install ci/values-%s.yaml', (shape) => {
  let kube: Kube;
  let release: Release;
  let values: ChartValues;
  let deployments: Map<string, KubeObject>;

  beforeAll(async () => {
    kube = new Kube(process.env.KUBECONFIG!);
    release = await Release.install(kube, `install-${shape}`, shape);
    values = await release.values();
    deployments = await release.deployments();
  });

  afterAll(async () => {
    await release?.uninstall();
    await kube?.close();
  });

  const enabled = () => COMPONENTS.filter((c) => values[c].enabled);

  it('has every rendered object accepted by the API server', async () => {
    const objects = await release.manifest();
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const stored = await kube.get(await kube.pathOf(object, release.namespace));
      expect(stored.kind).toBe(object.kind);
      expect(stored.metadata.uid).toBeTruthy();
    }
  });

  it('runs one Deployment per enabled component, and none for the disabled', () => {
    expect([...deployments.keys()].filter((c) => COMPONENTS.includes(c as never)).sort()).toEqual(
      enabled().sort(),
    );
  });

  it('has every enabled component scheduled onto a node and Running', async () => {
    for (const component of enabled()) {
      const deployment = deployments.get(component)!;
      const pods = await release.pods(deployment);
      expect(pods.length).toBe(deployment.spec.replicas);
      for (const pod of pods) {
        const scheduled = pod.status.conditions.find(
          (c: { type: string }) => c.type === 'PodScheduled',
        );
        expect({ component, scheduled: scheduled?.status, phase: pod.status.phase }).toEqual({
          component,
          scheduled: 'True',
          phase: 'Running',
        });
        expect([...CPU_NODES, GPU_NODE]).toContain(pod.spec.nodeName);
      }
    }
  });

  it('puts GPU capabilities on the GPU node with a GPU each, the rest on CPU nodes', async () => {
    const gpuComponents = enabled().filter((c) => values[c].gpu?.enabled);
    if (shape === 'gpu') expect(gpuComponents.sort()).toEqual(['chat', 'transcription']);
    else expect(gpuComponents).toEqual([]);

    for (const component of enabled()) {
      const gpu = values[component].gpu?.enabled === true;
      for (const pod of await release.pods(deployments.get(component)!)) {
        expect({ component, node: pod.spec.nodeName }).toEqual({
          component,
          node: gpu ? GPU_NODE : expect.stringMatching(/^cpu-/),
        });
        const limits = pod.spec.containers
          .map((c: { resources?: { limits?: Record<string, string> } }) => {
            return c.resources?.limits?.[GPU_RESOURCE];
          })
          .filter(Boolean);
        expect({ component, limits }).toEqual({
          component,
          limits: gpu ? [String(values[component].gpu!.count)] : [],
        });
      }
    }
  });

  it('points every HPA at its own Deployment, which the HPA controller can scale', async () => {
    const hpas = await release.list('horizontalpodautoscalers', 'apis/autoscaling/v2');
    const autoscaled = enabled().filter((c) => values[c].autoscaling?.enabled);
    expect(hpas.map((h) => h.metadata.labels?.[COMPONENT_LABEL]).sort()).toEqual(autoscaled.sort());
    const manifest = await release.manifest();
    for (const hpa of hpas) {
      const component = hpa.metadata.labels![COMPONENT_LABEL];
      const target = deployments.get(component)!;
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: target.metadata.name,
      });
      // The HPA owns the replica count: the chart must not render one to fight it.
      const rendered = manifest.find(
        (o) => o.kind === 'Deployment' && o.metadata.name === target.metadata.name,
      );
      expect(rendered?.spec.replicas).toBeUndefined();
      await eventually(`HPA ${hpa.metadata.name} AbleToScale`, async () => {
        const { status } = await kube.get(
          `/apis/autoscaling/v2/namespaces/${release.namespace}/horizontalpodautoscalers/${hpa.metadata.name}`,
        );
        const able = (status?.conditions ?? []).find(
          (c: { type: string }) => c.type === 'AbleToScale',
        );
        return able?.status === 'True' ? able : undefined;
      });
    }
  });

  it("selects with every PDB exactly its Deployment's pods, as the disruption controller sees", async () => {
    const pdbs = await release.list('poddisruptionbudgets', 'apis/policy/v1');
    const guarded = enabled().filter((c) => values[c].pdb?.enabled);
    expect(pdbs.map((p) => p.metadata.labels?.[COMPONENT_LABEL]).sort()).toEqual(guarded.sort());
    for (const pdb of pdbs) {
      const component = pdb.metadata.labels![COMPONENT_LABEL];
      const deployment = deployments.get(component)!;
      const uids = (objects: KubeObject[]) => objects.map((o) => o.metadata.uid).sort();
      const selected = await kube.list(
        `/api/v1/namespaces/${release.namespace}/pods`,
        selectorQuery(pdb.spec.selector),
      );
      expect({ component, pods: uids(selected) }).toEqual({
        component,
        pods: uids(await release.pods(deployment)),
      });
      const status = await eventually(`PDB ${pdb.metadata.name} observed`, async () => {
        const { status } = await kube.get(
          `/apis/policy/v1/namespaces/${release.namespace}/poddisruptionbudgets/${pdb.metadata.name}`,
        );
        return status?.observedGeneration === pdb.metadata.generation &&
          status.expectedPods === deployment.spec.replicas
          ? status
          : undefined;
      });
      expect(status.currentHealthy).toBe(deployment.spec.replicas);
    }
  });
});
