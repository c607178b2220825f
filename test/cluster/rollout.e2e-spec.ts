// Each capability changes on its own: scaling one leaves every other Deployment (generation,
// pods) alone, and a changed models list rolls only that component and the gateway (whose models
// file lists every model): their pod templates' checksum/config changes, nobody else's does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kube } from './support/kube';
import { Release, Snapshot } from './support/release';

describe('helm upgrade of one component (ci/values-cpu.yaml)', () => {
  let kube: Kube;
  let release: Release;
  let scratch: string;

  beforeAll(async () => {
    kube = new Kube(process.env.KUBECONFIG!);
    scratch = mkdtempSync(join(tmpdir(), 'tessera-cluster-'));
    release = await Release.install(kube, 'rollout', 'cpu');
  });

  afterAll(async () => {
    await release?.uninstall();
    await kube?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

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
    const before = await release.snapshot();
    await release.upgrade(true, '--set', 'chat.autoscaling.enabled=false,chat.replicaCount=2');
    await release.settled();
    const after = await release.snapshot();

    const chat = after.get('chat')!;
    expect(chat.podUids).toHaveLength(2);
    expect(chat.podUids).toEqual(expect.arrayContaining(before.get('chat')!.podUids));
    // A replica count is not configuration: the pod template is the same.
    expect(chat.checksum).toBe(before.get('chat')!.checksum);
    expectUntouched(before, after, ['chat']);
  });

  it('rolls only embeddings and the gateway when the embeddings models change', async () => {
    const values = await release.values();
    const models = values.embeddings.models ?? [];
    expect(models.length).toBeGreaterThan(0);
    // One more model served by embeddings: a copy of the first under a new id (no aliases,
    // which must stay unique across the models file).
    const added = { ...models[0], id: `${models[0].id}-canary` };
    delete added.aliases;
    const file = join(scratch, 'embeddings-models.json');
    writeFileSync(file, JSON.stringify({ embeddings: { models: [...models, added] } }));

    const before = await release.snapshot();
    await release.upgrade(true, '--values', file);
    await release.settled();
    const after = await release.snapshot();

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
    const configMaps = await release.list('configmaps');
    const serving = configMaps
      .filter((cm) => Object.values(cm.data ?? {}).some((v) => String(v).includes(added.id)))
      .map((cm) => cm.metadata.labels?.['app.kubernetes.io/component'])
      .sort();
    expect(serving).toEqual(['embeddings', 'gateway']);
  });
});
