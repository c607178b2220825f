// The cluster suite: the chart installed by the real helm into a real control plane
// (tools/k8s/control-plane: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok
// nodes) and checked through the API. `npm run test:cluster` builds the tools first (cached).
/* global module, require */ // CommonJS, as jest loads it
// eslint-disable-next-line @typescript-eslint/no-require-imports
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/cluster/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/cluster/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/cluster/support/global-teardown.ts',
  // One control plane with one GPU node: the files take turns so that GPU capacity (and the
  // scheduler's view of it) belongs to one release at a time.
  maxWorkers: 1,
  testTimeout: 180000,
};
