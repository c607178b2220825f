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
});
