// The reliability suite: the launched fixture stack (separate processes, as `npm run
// start:fixtures` runs it) under schema fuzzing, load, faults and an auth matrix; see
// docs/reliability.md. `npm run test:reliability` installs schemathesis when missing, builds,
// then runs this. Each spec file starts its own launched stack: one file at a time.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/reliability/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 300000,
  maxWorkers: 1,
};
