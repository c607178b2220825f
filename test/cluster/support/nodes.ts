// The simulated nodes the charts are installed onto: kwok manages every node annotated
// kwok.x-k8s.io/node=fake (marks it Ready, keeps its lease, runs its pods' status), while the
// real scheduler places pods on them by their capacity, labels and taints.
import { Kube, KubeObject, eventually } from './kube';

export const CPU_NODES = ['cpu-0', 'cpu-1'];
export const GPU_NODE = 'gpu-0';
/**
 * GPUs on the GPU node: room for the GPU capabilities of values-gpu.yaml (chat and
 * transcription, one each) and no more, so a further GPU replica has to stay Pending.
 */
export const GPU_COUNT = 2;
export const GPU_RESOURCE = 'nvidia.com/gpu';
export const GPU_TAINT = { key: GPU_RESOURCE, value: 'present', effect: 'NoSchedule' };
export const GPU_LABEL = 'nvidia.com/gpu.present';

function fakeNode(name: string, gpus: number): KubeObject {
  const resources: Record<string, string> = { cpu: '32', memory: '128Gi', pods: '110' };
  if (gpus > 0) resources[GPU_RESOURCE] = String(gpus);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
        ...(gpus > 0 ? { [GPU_LABEL]: 'true' } : {}),
      },
    },
    spec: gpus > 0 ? { taints: [GPU_TAINT] } : {},
    status: { capacity: resources, allocatable: resources },
  };
}

/** Creates the nodes and waits until kwok has made each Ready. */
export async function createFakeNodes(kube: Kube): Promise<void> {
  const nodes = [...CPU_NODES.map((n) => fakeNode(n, 0)), fakeNode(GPU_NODE, GPU_COUNT)];
  for (const node of nodes) await kube.create('/api/v1/nodes', node);
  for (const { metadata } of nodes) {
    await eventually(`node ${metadata.name} Ready`, async () => {
      const node = await kube.get(`/api/v1/nodes/${metadata.name}`);
      const ready = (node.status?.conditions ?? []).find(
        (c: { type: string }) => c.type === 'Ready',
      );
      return ready?.status === 'True' ? true : undefined;
    });
  }
}
