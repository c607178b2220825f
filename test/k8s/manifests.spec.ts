// k8s/ holds the chart's deployment as plain manifests (tools/k8s/manifests.ts): each overlay,
// built by a real kustomize, must be exactly what the real helm renders for its values, and the
// committed files exactly what `npm run k8s:manifests` writes now.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';
import {
  OVERLAYS,
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
  const files = manifestFiles(renderChart(repo, helm, 'cpu'), renderChart(repo, helm, 'gpu'));
  for (const [file, content] of files)
    expect({ file, content: fs.readFileSync(path.join(repo, 'k8s', file), 'utf8') }).toEqual({
      file,
      content,
    });
});

it('the gpu overlay asks for GPUs for chat and transcription only', () => {
  const gpu = buildOverlay(repo, kustomize, 'gpu').filter((object) => object.kind === 'Deployment');
  const withGpu = gpu
    .filter((object) => JSON.stringify(object.spec).includes('nvidia.com/gpu'))
    .map((object) => object.metadata.labels?.['app.kubernetes.io/component'])
    .sort();
  expect(withGpu).toEqual(['chat', 'transcription']);
  const cpu = buildOverlay(repo, kustomize, 'cpu');
  expect(JSON.stringify(cpu)).not.toContain('nvidia.com/gpu');
});
