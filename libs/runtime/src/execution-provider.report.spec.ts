// What a model reports about its sessions' providers: the one each session runs on, each
// dropped provider warned about once for the whole model, and a restarted worker's sessions
// replacing its old ones.
import {
  ExecutionProviderReport,
  currentProviderReport,
  reportingProviders,
} from './execution-provider.report';

const REASON = 'Failed to get a WebGPU adapter: No supported adapters';

describe('ExecutionProviderReport', () => {
  it('warns once per model for a provider dropped in every worker and pool', () => {
    const report = new ExecutionProviderReport("model 'm'");
    const fellBack = {
      session: 'onnx/model.onnx',
      providers: ['cpu'] as const,
      dropped: [{ provider: 'webgpu' as const, reason: REASON }],
    };
    expect(report.record('/models/m', 0, fellBack)).toEqual([
      `execution provider 'webgpu' could not be used for model 'm' (${REASON}); falling back to cpu`,
    ]);
    expect(report.record('/models/m', 1, fellBack)).toEqual([]);
    expect(report.record('/models/m-companion', 0, fellBack)).toEqual([]);
    expect(report.runsOn()).toEqual(['cpu']);
    expect(report.describe()).toBe('onnx/model.onnx [cpu]');
  });

  it('names every provider the sessions run on, and follows a restarted worker', () => {
    const changes: string[][] = [];
    const report = new ExecutionProviderReport("model 'm'", () => changes.push(report.runsOn()));
    report.record('/m', 0, { session: 'decoder.onnx', providers: ['webgpu', 'cpu'], dropped: [] });
    report.record('/m', 0, { session: 'vision.onnx', providers: ['cpu'], dropped: [] });
    expect(report.runsOn()).toEqual(['webgpu', 'cpu']);
    expect(report.describe()).toBe('decoder.onnx [webgpu, cpu], vision.onnx [cpu]');
    // Worker 0 restarted and opened the vision encoder on webgpu this time.
    report.record('/m', 0, { session: 'vision.onnx', providers: ['webgpu', 'cpu'], dropped: [] });
    expect(report.runsOn()).toEqual(['webgpu']);
    expect(changes).toEqual([['webgpu'], ['webgpu', 'cpu'], ['webgpu']]);
  });

  it('is the current report only inside reportingProviders, across awaits', async () => {
    const report = new ExecutionProviderReport("model 'm'");
    expect(currentProviderReport()).toBeUndefined();
    const seen = await reportingProviders(report, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentProviderReport();
    });
    expect(seen).toBe(report);
    expect(currentProviderReport()).toBeUndefined();
  });
});
