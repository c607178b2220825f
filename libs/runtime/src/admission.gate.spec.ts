import { AdmissionGate } from './admission.gate';
import { QueueFullError } from './work.errors';

describe('AdmissionGate', () => {
  it('admits up to its limit, refuses the next with QueueFullError, and admits again once one leaves', () => {
    const gate = new AdmissionGate(2, 'transcriptions');
    const first = gate.enter();
    gate.enter();
    expect(() => gate.enter()).toThrow(QueueFullError);
    expect(() => gate.enter()).toThrow(
      '2 transcriptions are already in progress for this model (at most 2)',
    );
    first();
    expect(gate.size).toBe(1);
    expect(() => gate.enter()).not.toThrow();
  });

  it('counts a request that leaves twice once', () => {
    const gate = new AdmissionGate(1);
    const leave = gate.enter();
    leave();
    leave();
    expect(gate.size).toBe(0);
    gate.enter();
    expect(() => gate.enter()).toThrow(QueueFullError);
  });

  it('weighs a request by its units: admits up to the limit, refuses what would pass it', () => {
    const gate = new AdmissionGate(8, 'images');
    const first = gate.enter(5);
    const second = gate.enter(3);
    expect(gate.size).toBe(8);
    expect(() => gate.enter(1)).toThrow(QueueFullError);
    expect(() => gate.enter(1)).toThrow(
      '8 images are already in progress for this model (at most 8)',
    );
    first();
    expect(() => gate.enter(6)).toThrow(QueueFullError);
    const third = gate.enter(5);
    expect(gate.size).toBe(8);
    second();
    third();
    expect(gate.size).toBe(0);
  });

  it('lets go of a weighed request once, however often it is released', () => {
    const gate = new AdmissionGate(4, 'images');
    const release = gate.enter(2);
    const other = gate.enter(2);
    release();
    release();
    expect(gate.size).toBe(2);
    other();
    expect(gate.size).toBe(0);
  });

  it('admits a request heavier than the limit only alone, holding the whole bound', () => {
    const gate = new AdmissionGate(4, 'images');
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
