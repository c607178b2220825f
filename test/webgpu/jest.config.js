// The webgpu suite: every capability served twice from the same fixture model, on ONNX Runtime's
// CPU provider and on its WebGPU provider, through the whole stack (the built services and
// gateway as separate processes, real gRPC, the official openai SDK), and their answers compared.
// It needs a Vulkan driver: a GPU's, or Mesa ≥ 25's software one (lavapipe) on a CPU-only machine
// (docs/gpu.md). `npm run test:webgpu` builds first, then runs this.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/webgpu/**/*.e2e-spec.ts', '<rootDir>/libs/**/*.webgpu.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 120000,
  // One file at a time: a software Vulkan driver takes every core it is given.
  maxWorkers: 1,
};
