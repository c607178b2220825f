import { UsageMeter, type UsageOutcome } from './usage.meter';
import type { UsageAmounts } from './usage.record';

function meter() {
  const bills: [UsageAmounts, UsageOutcome][] = [];
  return { bills, meter: new UsageMeter((amounts, outcome) => bills.push([amounts, outcome])) };
}

it('bills what was measured and added, once', () => {
  const { bills, meter: usage } = meter();
  usage.measure({ inputTokens: 7, images: 1 });
  usage.add({ outputTokens: 2 });
  usage.add({ outputTokens: 3 });
  usage.settle('client_closed');
  usage.settle('completed');
  expect(bills).toEqual([
    [
      { inputTokens: 7, outputTokens: 5, audioSeconds: 0, characters: 0, images: 1 },
      'client_closed',
    ],
  ]);
});

it('takes measured totals over the progress added before them', () => {
  const { bills, meter: usage } = meter();
  usage.add({ outputTokens: 4 });
  usage.measure({ outputTokens: 6 });
  usage.settle('completed');
  expect(bills[0][0].outputTokens).toBe(6);
});

it('bills nothing for a route that measured nothing, or a discarded request', () => {
  const unmeasured = meter();
  unmeasured.meter.settle('completed');
  expect(unmeasured.bills).toEqual([]);

  const failed = meter();
  failed.meter.measure({ inputTokens: 3 });
  expect(failed.meter.billable).toBe(true);
  failed.meter.discard();
  failed.meter.settle('completed');
  expect(failed.bills).toEqual([]);
});

it('tells its end listeners once, after the bill or when discarded', () => {
  const { bills, meter: usage } = meter();
  const seen: string[] = [];
  usage.onEnd(() => seen.push(`ended after ${bills.length} bill(s)`));
  usage.measure({ inputTokens: 3 });
  usage.settle('completed');
  usage.discard();
  expect(seen).toEqual(['ended after 1 bill(s)']);

  const failed = meter();
  let ended = 0;
  failed.meter.onEnd(() => ended++);
  failed.meter.discard();
  failed.meter.discard();
  expect(ended).toBe(1);
});
