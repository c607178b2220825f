// The reliability suite: the launched fixture stack (separate processes, as `npm run
// start:fixtures` runs it) under schema fuzzing, load, faults and an auth matrix; see
// docs/reliability.md. `npm run test:reliability` installs schemathesis when missing, builds,
// then runs this. One spec file, one stack: starting the stack is most of a minute.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/reliability/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 300000,
};
