// Each capability changes on its own: scaling one leaves every other Deployment (generation,
// pods) alone, and a changed models list rolls only that component and the gateway (whose models
// file lists every model): their pod templates' checksum/config changes, nobody else's does.
import { Snapshot, useRelease } from './support/release';

describe('helm upgrade of one component (ci/values-cpu.yaml)', () => {
  const release = useRelease('rollout', 'cpu');

  /** Every component other than `changed` is exactly as it was. */
  function expectUntouched(
    before: Map<string, Snapshot>,
    after: Map<string, Snapshot>,
    changed: string[],
  ) {
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [component, state] of before) {
      if (changed.includes(component)) continue;
      expect({ component, ...after.get(component) }).toEqual({ component, ...state });
    }
  }

  it('scales chat to 2 replicas without touching any other component', async () => {
    const before = await release().snapshot();
    await release().upgrade(true, '--set', 'chat.autoscaling.enabled=false,chat.replicaCount=2');
    await release().settled();
    const after = await release().snapshot();

    const chat = after.get('chat')!;
    expect(chat.podUids).toHaveLength(2);
    expect(chat.podUids).toEqual(expect.arrayContaining(before.get('chat')!.podUids));
    // A replica count is not configuration: the pod template is the same.
    expect(chat.checksum).toBe(before.get('chat')!.checksum);
    expectUntouched(before, after, ['chat']);
  });

  it('rolls only embeddings and the gateway when the embeddings models change', async () => {
    const before = await release().snapshot();
    const added = await release().addModel('embeddings');
    const after = await release().snapshot();

    for (const component of ['embeddings', 'gateway']) {
      const [was, is] = [before.get(component)!, after.get(component)!];
      expect(is.checksum).toBeDefined();
      expect({ component, checksumChanged: is.checksum !== was.checksum }).toEqual({
        component,
        checksumChanged: true,
      });
      expect(is.generation).toBe(was.generation + 1);
      // Rolled: none of the old pods is left.
      expect(is.podUids.filter((uid) => was.podUids.includes(uid))).toEqual([]);
    }
    expectUntouched(before, after, ['embeddings', 'gateway']);

    // The new model is in the embeddings and gateway models files, and nowhere else.
    const configMaps = await release().list('configmaps');
    const serving = configMaps
      .filter((cm) => Object.values(cm.data ?? {}).some((v) => String(v).includes(added)))
      .map((cm) => cm.metadata.labels?.['app.kubernetes.io/component'])
      .sort();
    expect(serving).toEqual(['embeddings', 'gateway']);
  });
});
