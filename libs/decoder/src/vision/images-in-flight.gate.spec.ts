import { QueueFullError } from '@tessera/runtime';
import { ImagesInFlightGate } from './images-in-flight.gate';

describe('ImagesInFlightGate', () => {
  it('admits images up to the limit and refuses the request that would pass it', () => {
    const gate = new ImagesInFlightGate(8);
    const first = gate.enter(5);
    const second = gate.enter(3);
    expect(gate.size).toBe(8);
    expect(() => gate.enter(1)).toThrow(QueueFullError);
    expect(() => gate.enter(1)).toThrow(/8 images are already in progress .* at most 8/);
    first();
    expect(() => gate.enter(6)).toThrow(QueueFullError);
    const third = gate.enter(5);
    expect(gate.size).toBe(8);
    second();
    third();
    expect(gate.size).toBe(0);
  });

  it('lets go of a request once, however often it is released', () => {
    const gate = new ImagesInFlightGate(4);
    const release = gate.enter(2);
    const other = gate.enter(2);
    release();
    release();
    expect(gate.size).toBe(2);
    other();
    expect(gate.size).toBe(0);
  });

  it('admits a request with more images than the limit only alone, holding the whole bound', () => {
    const gate = new ImagesInFlightGate(4);
    const small = gate.enter(1);
    expect(() => gate.enter(10)).toThrow(QueueFullError);
    small();
    const large = gate.enter(10);
    expect(gate.size).toBe(4);
    expect(() => gate.enter(1)).toThrow(QueueFullError);
    large();
    expect(gate.size).toBe(0);
  });
});
