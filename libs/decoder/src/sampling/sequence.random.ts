// The random stream of one sequence: xoroshiro128+ (pure-rand) seeded from (seed, choice).
// Each sequence owns its stream, so what it draws never depends on which other sequences share
// its batch or in which order the scheduler visits them: same seed + same request → same tokens.
// Choice c starts c + 1 jumps (2^64 draws each) into the seed's stream, so the n choices of one
// request never overlap, and even choice 0 is jumped once: xoroshiro's first outputs from
// neighbouring seeds (1, 2, …) are nearly equal, and a jump mixes the whole state.
import { randomInt } from 'node:crypto';
import { xoroshiro128plus, type RandomGenerator } from 'pure-rand';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A seed for a request that sets none (any integer is a valid seed). */
export function randomSeed(): number {
  return randomInt(0, 2 ** 48 - 1);
}

/**
 * The seed's 64 bits, two's complement for negative ones. A seed is an int64 (OpenAI's type and
 * the proto's); past 2^53 it arrives as the nearest double, which is still an integer and still
 * one distinct seed. gRPC saturates a value beyond int64 and int64's largest, 2^63 − 1, decodes
 * to the double 2^63, so the clamp gives that one its own bits rather than wrapping it onto −2^63.
 */
function seedBits(seed: number): bigint {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const value = BigInt(seed);
  const int64 = value < INT64_MIN ? INT64_MIN : value > INT64_MAX ? INT64_MAX : value;
  return BigInt.asUintN(64, int64);
}

export class SequenceRandom {
  private readonly rng: RandomGenerator;

  constructor(seed: number, choice: number) {
    // All 64 bits of the seed go into the state; for a 32-bit seed this is exactly pure-rand's
    // xoroshiro128plus(seed).
    const bits = seedBits(seed);
    const low = Number(bits & 0xffffffffn) | 0;
    const high = Number(bits >> 32n) | 0;
    this.rng = xoroshiro128plus.fromState([~high, ~low, low, high]);
    for (let i = 0; i <= choice; i++) this.rng.unsafeJump!();
  }

  /** Uniform in [0, 1), a multiple of 2^−53 (the usual 26 + 27 bit construction). */
  nextDouble(): number {
    const high = this.rng.unsafeNext() >>> 6;
    const low = this.rng.unsafeNext() >>> 5;
    return (high * 134217728 + low) / 9007199254740992;
  }
}
