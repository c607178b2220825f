// The plain manifests of k8s/ are the chart's own rendering, laid out as a kustomize base (the
// all-CPU deployment) and `cpu`, `gpu` and `gpu-cuda` overlays, so that users without Helm get
// exactly what `helm install` would create. The base is `helm template` of k8s/values/base.yaml;
// each GPU overlay is the difference to `helm template` of k8s/values/<overlay>.yaml, written as
// JSON 6902 patches (fast-json-patch computes them). `npm run k8s:manifests` rewrites k8s/ from the chart;
// test/k8s/manifests.spec.ts checks that `kustomize build` of each overlay equals the
// chart's rendering, so the two can never drift apart.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compare, type Operation } from 'fast-json-patch';
import { parseAllDocuments, stringify } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
} & Record<string, unknown>;

/** The release name the manifests are rendered for. */
export const RELEASE = 'tessera';

/** The Kubernetes version rendered for (the chart's kubeVersion allows 1.27 and later). */
export const KUBE_VERSION = '1.36.3';

/** The overlays written as patches over the base, each from k8s/values/<overlay>.yaml. */
export const PATCH_OVERLAYS = ['gpu', 'gpu-cuda'] as const;
export type PatchOverlay = (typeof PATCH_OVERLAYS)[number];

/** The overlays of k8s/overlays: `cpu` is the base as it is. */
export const OVERLAYS = ['cpu', ...PATCH_OVERLAYS] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** Labels only Helm's rendering carries: a plain manifest is not managed by Helm. */
const HELM_ONLY_LABELS = ['helm.sh/chart', 'app.kubernetes.io/managed-by'];

/** The objects of a multi-document YAML stream (empty documents skipped; a syntax error throws). */
export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null && typeof object === 'object');
}

/**
 * What `helm template` renders for the overlay, without the test hooks (kustomize has no
 * hooks; `helm test` is for real clusters) and without Helm's own labels.
 */
export function renderChart(repo: string, helm: string, overlay: Overlay): K8sObject[] {
  const values = path.join(repo, 'k8s', 'values');
  const args = ['template', RELEASE, path.join(repo, 'charts', 'tessera')];
  args.push('--kube-version', KUBE_VERSION);
  args.push('-f', path.join(values, 'base.yaml'));
  if (overlay !== 'cpu') args.push('-f', path.join(values, `${overlay}.yaml`));
  const text = execFileSync(helm, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return sortObjects(
    parseObjects(text)
      .filter((object) => !object.metadata.annotations?.['helm.sh/hook'])
      .map(withoutHelmLabels),
  );
}

/** `kustomize build` of an overlay. */
export function buildOverlay(repo: string, kustomize: string, overlay: Overlay): K8sObject[] {
  const dir = path.join(repo, 'k8s', 'overlays', overlay);
  const text = execFileSync(kustomize, ['build', dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return sortObjects(parseObjects(text));
}

export function objectKey(object: K8sObject): string {
  return `${object.kind}/${object.metadata.name}`;
}

export function sortObjects(objects: K8sObject[]): K8sObject[] {
  return [...objects].sort((a, b) => objectKey(a).localeCompare(objectKey(b)));
}

function withoutHelmLabels(object: K8sObject): K8sObject {
  const copy = structuredClone(object);
  const strip = (labels?: Record<string, string>) =>
    HELM_ONLY_LABELS.forEach((label) => labels && delete labels[label]);
  strip(copy.metadata.labels);
  const template = (copy.spec as { template?: { metadata?: { labels?: Record<string, string> } } })
    ?.template;
  strip(template?.metadata?.labels);
  return copy;
}

/** The files of k8s/ (path relative to k8s/ → content), from the base and overlay renderings. */
export function manifestFiles(
  base: readonly K8sObject[],
  overlays: ReadonlyMap<PatchOverlay, readonly K8sObject[]>,
): Map<string, string> {
  const files = new Map<string, string>();
  const byComponent = new Map<string, K8sObject[]>();
  for (const object of base) {
    const component = object.metadata.labels?.['app.kubernetes.io/component'] ?? 'common';
    byComponent.set(component, [...(byComponent.get(component) ?? []), object]);
  }
  const baseFiles = [...byComponent.keys()].sort().map((component) => `${component}.yaml`);
  for (const [component, objects] of byComponent)
    files.set(`base/${component}.yaml`, header('base') + documents(objects));
  files.set(`base/kustomization.yaml`, header('base') + stringify(kustomization(baseFiles)));
  files.set(
    'overlays/cpu/kustomization.yaml',
    header('cpu') + stringify(kustomization(['../../base'])),
  );
  for (const [overlay, rendered] of overlays) {
    for (const [file, content] of patchOverlayFiles(overlay, base, rendered))
      files.set(`overlays/${overlay}/${file}`, content);
  }
  return files;
}

/** One overlay's files (path relative to its folder → content): patches, new objects, kustomization. */
function patchOverlayFiles(
  overlay: PatchOverlay,
  base: readonly K8sObject[],
  rendered: readonly K8sObject[],
): Map<string, string> {
  const files = new Map<string, string>();
  const { patches, added } = overlayOf(base, rendered);
  const resources = ['../../base', ...(added.length > 0 ? ['added.yaml'] : [])];
  if (added.length > 0) files.set('added.yaml', header(overlay) + documents(added));
  const patchEntries = patches.map(({ object, operations }) => {
    const file = `patches/${object.kind.toLowerCase()}-${object.metadata.name}.yaml`;
    files.set(file, header(overlay) + stringify(operations));
    return { path: file, target: targetOf(object) };
  });
  files.set(
    'kustomization.yaml',
    header(overlay) + stringify({ ...kustomization(resources), patches: patchEntries }),
  );
  return files;
}

/** An overlay's rendering as changes to the base: patches per changed object, and new objects. */
function overlayOf(
  base: readonly K8sObject[],
  target: readonly K8sObject[],
): { patches: { object: K8sObject; operations: Operation[] }[]; added: K8sObject[] } {
  const byKey = new Map(base.map((object) => [objectKey(object), object]));
  const targetKeys = new Set(target.map(objectKey));
  const removed = base.filter((object) => !targetKeys.has(objectKey(object)));
  if (removed.length > 0)
    // Not needed by any overlay so far; a `$patch: delete` would say it when one is.
    throw new Error(`an overlay removes ${removed.map(objectKey).join(', ')}`);
  const patches: { object: K8sObject; operations: Operation[] }[] = [];
  const added: K8sObject[] = [];
  for (const object of target) {
    const original = byKey.get(objectKey(object));
    if (!original) added.push(object);
    else {
      const operations = compare(original, object);
      if (operations.length > 0) patches.push({ object, operations });
    }
  }
  return { patches, added };
}

function targetOf(object: K8sObject): Record<string, string> {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  return { ...(group && { group }), version, kind: object.kind, name: object.metadata.name };
}

function kustomization(resources: string[]): Record<string, unknown> {
  return { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
}

function documents(objects: readonly K8sObject[]): string {
  return objects.map((object) => stringify(object)).join('---\n');
}

function header(part: string): string {
  return (
    `# Generated from charts/tessera by \`npm run k8s:manifests\` (${part}): edit the chart and ` +
    'k8s/values/, not this file.\n'
  );
}

/** Rewrites k8s/base and k8s/overlays (k8s/values and k8s/README.md are kept). */
export function writeManifests(repo: string, files: Map<string, string>): void {
  for (const dir of ['base', 'overlays'])
    fs.rmSync(path.join(repo, 'k8s', dir), { recursive: true, force: true });
  for (const [file, content] of files) {
    const target = path.join(repo, 'k8s', file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
}
