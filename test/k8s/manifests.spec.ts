// k8s/ holds the chart's deployment as plain manifests (tools/k8s/manifests.ts): each overlay,
// built by a real kustomize, must be exactly what the real helm renders for its values, and the
// committed files exactly what `npm run k8s:manifests` writes now.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';
import { parse } from 'yaml';
import {
  OVERLAYS,
  PATCH_OVERLAYS,
  buildOverlay,
  manifestFiles,
  objectKey,
  renderChart,
} from '../../tools/k8s/manifests';
import { goTool } from './support/chart';

const repo = repoRoot();
const helm = goTool('helm');
const kustomize = goTool('kustomize');

describe.each(OVERLAYS)('k8s/overlays/%s', (overlay) => {
  it("kustomize build equals the chart's rendering", () => {
    const built = buildOverlay(repo, kustomize, overlay);
    const rendered = renderChart(repo, helm, overlay);
    expect(built.map(objectKey)).toEqual(rendered.map(objectKey));
    expect(built).toEqual(rendered);
  });
});

it('the committed manifests are what the chart renders today (npm run k8s:manifests)', () => {
  const overlays = new Map(PATCH_OVERLAYS.map((overlay) => [overlay, renderChart(repo, helm, overlay)]));
  const files = manifestFiles(renderChart(repo, helm, 'cpu'), overlays);
  for (const [file, content] of files)
    expect({ file, content: fs.readFileSync(path.join(repo, 'k8s', file), 'utf8') }).toEqual({
      file,
      content,
    });
});

it.each(PATCH_OVERLAYS)('the %s overlay asks for GPUs for chat and transcription only', (overlay) => {
  const gpu = buildOverlay(repo, kustomize, overlay).filter((object) => object.kind === 'Deployment');
  const withGpu = gpu
    .filter((object) => JSON.stringify(object.spec).includes('nvidia.com/gpu'))
    .map((object) => object.metadata.labels?.['app.kubernetes.io/component'])
    .sort();
  expect(withGpu).toEqual(['chat', 'transcription']);
  const cpu = buildOverlay(repo, kustomize, 'cpu');
  expect(JSON.stringify(cpu)).not.toContain('nvidia.com/gpu');
});

it.each([
  ['gpu', 'webgpu', /:0\.1\.0$/],
  ['gpu-cuda', 'cuda', /:0\.1\.0-cuda$/],
] as const)('the %s overlay runs %s on its image', (overlay, provider, image) => {
  const objects = buildOverlay(repo, kustomize, overlay);
  for (const component of ['chat', 'transcription']) {
    const deployment = objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.name === `tessera-${component}`,
    ) as unknown as { spec: { template: { spec: { containers: { image: string }[] } } } };
    expect(deployment.spec.template.spec.containers[0].image).toMatch(image);
    const configMap = objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === `tessera-${component}-models`,
    ) as unknown as { data: { 'models.yaml': string } };
    for (const model of parse(configMap.data['models.yaml']).models)
      expect(model.options.execution_providers).toEqual([provider, 'cpu']);
  }
});
