// `npm run k8s:manifests`: rewrites k8s/base and k8s/overlays from the chart (see manifests.ts).
// Usage: node dist/tools/k8s/render-manifests.js <helm binary>
import * as path from 'node:path';
import { PATCH_OVERLAYS, manifestFiles, renderChart, writeManifests } from './manifests';

const helm = process.argv[2];
if (!helm) {
  console.error('usage: render-manifests <helm binary>');
  process.exit(2);
}
const repo = path.resolve(__dirname, '..', '..', '..');
const overlays = new Map(PATCH_OVERLAYS.map((overlay) => [overlay, renderChart(repo, helm, overlay)]));
const files = manifestFiles(renderChart(repo, helm, 'cpu'), overlays);
writeManifests(repo, files);
console.log(`k8s/: ${files.size} files written`);
