// Runs the real helm binary (tools/k8s/go-tool.sh) on charts/tessera and parses what it renders.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

export const ROOT = path.resolve(__dirname, '../../..');
export const CHART = path.join(ROOT, 'charts/tessera');
export const CI_VALUES = ['values-cpu.yaml', 'values-gpu.yaml', 'values-embeddings-only.yaml'];
export const CAPABILITIES = ['chat', 'embeddings', 'moderation', 'speech', 'transcription'];
export const RELEASE = 'rel';
export const NAMESPACE = 'tessera-test';
/**
 * The API version rendered for (and validated against: tools/k8s/chart-validate.sh): CI's control
 * plane. Explicit, since a `go install`ed helm defaults to v1.20, below the chart's kubeVersion.
 */
export const KUBE_VERSION = '1.36.0';
/** The release name lacks "tessera": objects are <release>-tessera-<component>. */
export const FULLNAME = `${RELEASE}-tessera`;

/** Rendered YAML, loosely typed: the specs read the fields they assert. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Loose;
  spec?: Loose;
  data?: Record<string, string>;
}

let helmPath: string | undefined;

/** The helm binary, built (once) by go-tool.sh; `npm run test:chart` ensures it first. */
export function helm(): string {
  if (!helmPath) {
    const res = spawnSync('bash', [path.join(ROOT, 'tools/k8s/go-tool.sh'), 'path', 'helm'], {
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`go-tool.sh path helm failed: ${res.stderr}`);
    helmPath = res.stdout.trim();
  }
  return helmPath;
}

export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runHelm(args: string[]): HelmRun {
  const res = spawnSync(helm(), args, { encoding: 'utf8', cwd: ROOT, maxBuffer: 64 << 20 });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Values files (ci/ names or absolute paths) and inline values (written to a temp file). */
export interface ValuesInput {
  files?: string[];
  values?: Record<string, unknown>;
}

function valuesArgs({ files = [], values }: ValuesInput): string[] {
  const args = files.flatMap((f) => ['-f', path.isAbsolute(f) ? f : path.join(CHART, 'ci', f)]);
  if (values) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-chart-'));
    const file = path.join(dir, 'values.yaml');
    fs.writeFileSync(file, stringify(values));
    args.push('-f', file);
  }
  return args;
}

export function helmTemplate(input: ValuesInput = {}): HelmRun {
  return runHelm([
    'template',
    RELEASE,
    CHART,
    '--namespace',
    NAMESPACE,
    '--kube-version',
    KUBE_VERSION,
    ...valuesArgs(input),
  ]);
}

export function helmLint(input: ValuesInput = {}): HelmRun {
  return runHelm(['lint', '--strict', '--kube-version', KUBE_VERSION, CHART, ...valuesArgs(input)]);
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** Renders and parses; fails the test with helm's message when rendering fails. */
export function render(input: ValuesInput = {}): Rendered {
  const res = helmTemplate(input);
  if (res.status !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return new Rendered(res.stdout, parseObjects(res.stdout));
}

export class Rendered {
  constructor(
    readonly text: string,
    readonly objects: K8sObject[],
  ) {}

  ofKind(kind: string): K8sObject[] {
    return this.objects.filter((o) => o.kind === kind);
  }

  find(kind: string, name: string): K8sObject | undefined {
    return this.objects.find((o) => o.kind === kind && o.metadata.name === name);
  }

  get(kind: string, name: string): K8sObject {
    const found = this.find(kind, name);
    if (!found) {
      const names = this.ofKind(kind).map((o) => o.metadata.name);
      throw new Error(`no ${kind} ${name} (have: ${names.join(', ')})`);
    }
    return found;
  }

  /** The Deployment of a component (gateway or a capability). */
  deployment(component: string): K8sObject {
    return this.get('Deployment', `${FULLNAME}-${component}`);
  }

  /** Every container of every pod template and pod: init, main, test pods. */
  podSpecs(): { owner: string; spec: Loose }[] {
    return this.objects.flatMap((o) => {
      if (o.kind === 'Pod') return [{ owner: `Pod/${o.metadata.name}`, spec: o.spec }];
      if (o.spec?.template?.spec) {
        return [{ owner: `${o.kind}/${o.metadata.name}`, spec: o.spec.template.spec }];
      }
      return [];
    });
  }
}

export function container(deployment: K8sObject, name?: string): Loose {
  const containers: Loose[] = deployment.spec.template.spec.containers;
  return name ? containers.find((c) => c.name === name) : containers[0];
}

/** A container's env as name → value (or the valueFrom). */
export function envOf(c: Loose): Record<string, Loose> {
  return Object.fromEntries((c.env ?? []).map((e: Loose) => [e.name, e.value ?? e.valueFrom]));
}
