// The real helm binary (built by tools/k8s/go-tool.sh) against the test control plane.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const chartDir = resolve(__dirname, '../../../charts/tessera');
export const ciValues = (shape: string) => resolve(chartDir, `ci/values-${shape}.yaml`);

/** Runs helm with the control plane's kubeconfig (set by the global setup); returns stdout. */
export async function helm(...args: string[]): Promise<string> {
  const binary = process.env.TESSERA_HELM;
  if (!binary || !process.env.KUBECONFIG) {
    throw new Error('TESSERA_HELM/KUBECONFIG unset: run through npm run test:cluster');
  }
  try {
    const { stdout } = await run(binary, args, { maxBuffer: 64 << 20, timeout: 240_000 });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed: ${stderr ?? error}`, { cause: error });
  }
}
