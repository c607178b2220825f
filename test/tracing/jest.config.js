// The tracing suite: a real Jaeger v2 (built by tools/k8s/go-tool.sh) receives the OTLP spans of
// the stack's separate processes, and the tests read the traces back through Jaeger's query API.
// `npm run test:tracing` builds Jaeger when missing, then the project, then runs this.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/tracing/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 120000,
};
