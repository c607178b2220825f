// The chart suite: the real helm binary (built by tools/k8s/go-tool.sh) lints and renders
// charts/tessera, kubernetes-validate checks every object against the API's schemas, and the
// specs assert the rendering per feature. `npm run test:chart` ensures both tools first.
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/k8s/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 120000,
};
