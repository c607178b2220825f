// Jest global setup of the cluster suite: the real control plane, the fake nodes, the CRDs of the
// chart's optional objects, and the helm
// binary, handed to the test files through the environment (KUBECONFIG, TESSERA_HELM).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { startControlPlane, ControlPlane } from './control-plane';
import { createCrds } from './crds';
import { Kube } from './kube';
import { createFakeNodes } from './nodes';

declare global {
  var tesseraControlPlane: ControlPlane | undefined;
}

export default async function globalSetup(): Promise<void> {
  const goTool = resolve(__dirname, '../../../tools/k8s/go-tool.sh');
  process.env.TESSERA_HELM = execFileSync('bash', [goTool, 'path', 'helm'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();

  const started = Date.now();
  const controlPlane = await startControlPlane();
  globalThis.tesseraControlPlane = controlPlane;
  process.env.KUBECONFIG = controlPlane.kubeconfig;
  const kube = new Kube(controlPlane.kubeconfig);
  try {
    await createFakeNodes(kube);
    await createCrds(kube);
  } finally {
    await kube.close();
  }
  console.log(
    `\ncontrol plane up in ${controlPlane.startedInMs} ms, ` +
      `fake nodes Ready at ${Date.now() - started} ms`,
  );
}
