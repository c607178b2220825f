// Unit specs live beside the code (apps/, libs/, tools/, bench/); end-to-end specs in test/
// boot the real gateway and services on port 0. Everything here runs offline on the committed
// fixtures.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/apps/**/*.spec.ts',
    '<rootDir>/libs/**/*.spec.ts',
    '<rootDir>/tools/**/*.spec.ts',
    '<rootDir>/bench/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/support/**/*.spec.ts',
  ],
  // test/k8s, test/cluster and test/tracing need Go-built tools: npm run test:chart, test:cluster,
  // test:tracing. test/reliability runs minutes of load and faults: npm run test:reliability.
  // test/webgpu and *.webgpu.spec.ts need a Vulkan driver (Mesa's lavapipe will do): npm run
  // test:webgpu.
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    '/test/extended/',
    '/test/k8s/',
    '/test/cluster/',
    '/test/tracing/',
    '/test/reliability/',
    '/test/webgpu/',
    '\\.webgpu\\.spec\\.ts$',
  ],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true }] },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  testTimeout: 60000,
  maxWorkers: 2,
};
