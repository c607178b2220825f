// The turns at the process's WebGPU device: one call at a time in a thread, one thread at a
// time in the process, and a failed call gives its turn back. (The pool spec runs two workers on
// webgpu at once through it.)
import { WebGpuTurns } from './webgpu.turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WebGpuTurns', () => {
  it("runs one thread's calls one after the other, and goes on after a failure", async () => {
    const turns = new WebGpuTurns(new SharedArrayBuffer(4));
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

  it('waits while another thread holds the turn, and takes it once given back', async () => {
    const turn = new SharedArrayBuffer(4);
    const cell = new Int32Array(turn);
    Atomics.store(cell, 0, 1); // another thread's
    let ran = false;
    const waiting = new WebGpuTurns(turn).take(async () => (ran = true));
    await tick();
    expect(ran).toBe(false);
    Atomics.store(cell, 0, 0);
    Atomics.notify(cell, 0, 1);
    await waiting;
    expect(ran).toBe(true);
    expect(Atomics.load(cell, 0)).toBe(0);
  });
});
