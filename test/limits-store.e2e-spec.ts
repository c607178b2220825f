// The two rate-limit stores answer alike: the same takes give the same admissions and levels in
// the process's buckets and in a real redis-server (whose Lua script repeats the bucket
// arithmetic of token-bucket.ts, so this is where the two would drift apart).
import type { Admission, BucketCheck, LimitStore } from '../apps/gateway/src/limits/limit.store';
import { MemoryLimitStore } from '../apps/gateway/src/limits/memory-limit.store';
import { RedisLimitStore } from '../apps/gateway/src/limits/redis-limit.store';
import { startRedis, type TestRedis } from './support/redis-server';

const requests = (limit: number): BucketCheck => ({
  dimension: 'requests',
  limit,
  cost: 1,
  gates: true,
});
const tokens = (limit: number, gates = true): BucketCheck => ({
  dimension: 'tokens',
  limit,
  cost: 0,
  gates,
});
const billed = (amount: number, limit: number): BucketCheck => ({
  dimension: 'tokens',
  limit,
  cost: amount,
  gates: false,
});

const reserved = (amount: number, limit: number): BucketCheck => ({
  dimension: 'tokens',
  limit,
  cost: amount,
  gates: true,
});

let redis: TestRedis;
let redisStore: RedisLimitStore;
beforeAll(async () => {
  redis = await startRedis();
  redisStore = new RedisLimitStore(redis.url);
  await redisStore.connect();
});
afterAll(async () => {
  await redisStore?.close();
  await redis?.stop();
});

/** The levels, give or take what refills while the test runs (0.1 s at most: 1/6 of 100/min). */
function expectLevels(admission: { levels: { level: number }[] }, expected: number[]): void {
  expect(admission.levels).toHaveLength(expected.length);
  admission.levels.forEach(({ level }, index) => expect(level).toBeCloseTo(expected[index], 0));
}

describe.each([
  ['in the process', () => new MemoryLimitStore()],
  ['in Redis', () => redisStore],
])('the buckets %s', (_where, makeStore: () => LimitStore) => {
  // Each test its own key (the Redis store is shared by the tests) and store.
  let key = '';
  let current: LimitStore;
  const store = () => current;
  beforeEach(() => {
    key = `key-${Math.random().toString(36).slice(2)}`;
    current = makeStore();
  });

  it('admit a burst of the limit, then refuse', async () => {
    const admissions: Admission[] = [];
    for (let i = 0; i < 4; i++) admissions.push(await store().take(key, [requests(3)]));
    expect(admissions.map((admission) => admission.admitted)).toEqual([true, true, true, false]);
    [2, 1, 0, 0].forEach((level, index) => expectLevels(admissions[index], [level]));
  });

  it('keep keys apart', async () => {
    expect((await store().take(key, [requests(1)])).admitted).toBe(true);
    expect((await store().take(`${key}-other`, [requests(1)])).admitted).toBe(true);
    expect((await store().take(key, [requests(1)])).admitted).toBe(false);
  });

  it('let a billed amount take a budget below 0, which then refuses what it gates', async () => {
    const bill = await store().take(key, [billed(150, 100)]);
    expect(bill.admitted).toBe(true);
    expectLevels(bill, [-50]);
    const refused = await store().take(key, [requests(5), tokens(100)]);
    expect(refused.admitted).toBe(false);
    // Nothing taken from the requests either.
    expectLevels(refused, [5, -50]);
    const reported = await store().take(key, [requests(5), tokens(100, false)]);
    expect(reported.admitted).toBe(true);
    expectLevels(reported, [4, -50]);
  });

  it('refuse below 0 and admit once refilled above 0', async () => {
    await store().take(key, [billed(110, 100)]);
    expect((await store().take(key, [tokens(100)])).admitted).toBe(false);
    // 6000 a minute refill 0.1 a millisecond: -1 is above 0 again after 10 ms.
    await store().take(`${key}-fast`, [billed(6001, 6000)]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await store().take(`${key}-fast`, [tokens(6000)])).admitted).toBe(true);
  });

  it('reserve only what a budget covers, and give a reservation back without filling past the limit', async () => {
    const admissions = [];
    for (let i = 0; i < 3; i++) admissions.push(await store().take(key, [reserved(40, 100)]));
    expect(admissions.map((admission) => admission.admitted)).toEqual([true, true, false]);
    // The refused one took nothing.
    expectLevels(admissions[2], [20]);
    // Billed 25 of a 40 reservation: the usage taken, the reservation given back.
    await store().take(key, [billed(25, 100)]);
    const returned = await store().take(key, [billed(-40, 100)]);
    expectLevels(returned, [35]);
    // A refund onto a budget already whole leaves it at the limit.
    const whole = await store().take(`${key}-whole`, [billed(-40, 100)]);
    expectLevels(whole, [100]);
  });
});
