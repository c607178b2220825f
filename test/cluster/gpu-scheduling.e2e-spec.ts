// GPU capacity as the real scheduler accounts it: with values-gpu.yaml the GPU node's GPUs are
// all taken (chat and transcription), so a configuration change must still roll out (no surge
// pod waiting for a GPU that never frees), and a further chat replica must stay Pending, and say
// why.
import { KubeObject, eventually } from './support/kube';
import { GPU_COUNT, GPU_NODE, GPU_RESOURCE } from './support/nodes';
import { useRelease } from './support/release';

describe('GPU capabilities when no GPU is free', () => {
  const release = useRelease('gpu-full', 'gpu');

  it('takes every GPU of the GPU node with chat and transcription', async () => {
    const values = await release().values();
    let used = 0;
    for (const component of ['chat', 'transcription'] as const) {
      const deployment = await release().deployment(component);
      for (const pod of await release().pods(deployment)) {
        expect(pod.spec.nodeName).toBe(GPU_NODE);
        used += values[component].gpu!.count;
      }
    }
    expect(used).toBe(GPU_COUNT);
  });

  it('rolls a models change of a GPU capability out while every GPU is taken', async () => {
    const before = (await release().snapshot()).get('transcription')!;
    await release().addModel('transcription');
    const after = (await release().snapshot()).get('transcription')!;
    expect(after.checksum).not.toBe(before.checksum);
    expect(after.podUids).toHaveLength(before.podUids.length);
    expect(after.podUids.filter((uid) => before.podUids.includes(uid))).toEqual([]);
    for (const pod of await release().pods(await release().deployment('transcription'))) {
      expect(pod.spec.nodeName).toBe(GPU_NODE);
    }
  });

  it('leaves a second chat replica Pending with FailedScheduling naming nvidia.com/gpu', async () => {
    const before = await release().snapshot();
    await release().upgrade(false, '--set', 'chat.autoscaling.enabled=false,chat.replicaCount=2');
    const chat = await release().deployment('chat');
    expect(chat.spec.replicas).toBe(2);

    const pending = await eventually('a Pending chat pod', async () => {
      const pods = await release().pods(chat);
      return pods.find((p) => p.status?.phase === 'Pending' && !p.spec.nodeName);
    });
    const scheduled = await eventually('its PodScheduled condition', async () => {
      const pod = await release().kube.get(
        `/api/v1/namespaces/${release().namespace}/pods/${pending.metadata.name}`,
      );
      return (pod.status?.conditions ?? []).find(
        (c: { type: string; status: string }) => c.type === 'PodScheduled' && c.status === 'False',
      );
    });
    expect(scheduled.reason).toBe('Unschedulable');
    expect(scheduled.message).toContain(`Insufficient ${GPU_RESOURCE}`);

    const event = await eventually('a FailedScheduling event', async () => {
      const events = await release().kube.list<KubeObject & { reason: string; message: string }>(
        `/api/v1/namespaces/${release().namespace}/events?fieldSelector=${encodeURIComponent(
          `involvedObject.name=${pending.metadata.name}`,
        )}`,
      );
      return events.find((e) => e.reason === 'FailedScheduling');
    });
    expect(event.message).toContain(GPU_RESOURCE);

    // The first chat pod and the other components are untouched by the scale-up.
    const after = await release().snapshot();
    for (const [component, state] of before) {
      if (component === 'chat') {
        expect(after.get('chat')!.podUids).toEqual(expect.arrayContaining(state.podUids));
      } else {
        expect({ component, ...after.get(component) }).toEqual({ component, ...state });
      }
    }
  });
});
