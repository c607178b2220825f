// The turns at the process's WebGPU device: one call at a time in a thread, one thread at a
// time in the process, a failed call gives its turn back, and so does the pool for a worker
// that ended holding it. (The pool spec runs two workers on
// webgpu at once through it.)
import { WebGpuTurns, freeWebGpuTurnOf } from './webgpu.turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WebGpuTurns', () => {
  it("runs one thread's calls one after the other, and goes on after a failure", async () => {
    const turns = new WebGpuTurns(new SharedArrayBuffer(4), 7);
    const events: string[] = [];
    const call = (name: string, fail = false) =>
      turns.take(async () => {
        events.push(`${name} start`);
        await tick();
        events.push(`${name} end`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([call('a'), call('b', true), call('c')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      'a',
      'Error: b failed',
      'c',
    ]);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('waits while another thread holds the turn, and takes it once that one ended', async () => {
    const turn = new SharedArrayBuffer(4);
    const cell = new Int32Array(turn);
    Atomics.store(cell, 0, 3); // worker 3's turn
    let ran = false;
    let held = 0;
    const waiting = new WebGpuTurns(turn, 7).take(async () => {
      held = Atomics.load(cell, 0);
      ran = true;
    });
    await tick();
    freeWebGpuTurnOf(5, turn); // not the holder: nothing changes
    await tick();
    expect(ran).toBe(false);
    freeWebGpuTurnOf(3, turn); // worker 3 ended holding it
    await waiting;
    expect([ran, held, Atomics.load(cell, 0)]).toEqual([true, 7, 0]);
  });
});
