// A jest environment for specs that run onnxruntime-node in the test's own thread: the native
// binding returns typed arrays of the outer realm, and onnxruntime-common checks them with
// `instanceof` against the sandbox's constructors. Sharing the outer constructors makes both
// sides agree. (Specs that only drive workers need none of this.)
import { TestEnvironment } from 'jest-environment-node';

const SHARED = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

export default class OrtEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    for (const name of SHARED) this.global[name] = globalThis[name] as never;
  }
}
