import { endOfLifeWarning, warnIfEndOfLife } from './node-release.schedule';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('endOfLifeWarning', () => {
  it('names a line past its end of life and the day it ended', () => {
    const warning = endOfLifeWarning('v20.20.2', day('2026-11-28'));
    expect(warning).toMatch(/^Node\.js v20\.20\.2 reached its end of life on 2026-04-30/);
    expect(warning).toMatch(/Node\.js 24/);
  });

  it('says nothing up to and on the last day of a line', () => {
    expect(endOfLifeWarning('v20.20.2', day('2026-04-29'))).toBeUndefined();
    expect(endOfLifeWarning('v20.20.2', day('2026-04-30'))).toBeUndefined();
    expect(endOfLifeWarning('v20.20.2', day('2026-05-01'))).toBeDefined();
  });

  it('says nothing for the supported LTS lines', () => {
    expect(endOfLifeWarning('v24.22.3', day('2026-11-28'))).toBeUndefined();
    expect(endOfLifeWarning('v26.12.1', day('2026-11-28'))).toBeUndefined();
    expect(endOfLifeWarning('v24.22.3', day('2028-05-01'))).toMatch(/on 2028-04-30/);
  });

  it('counts an odd (non-LTS) line ended on its own date', () => {
    expect(endOfLifeWarning('v25.9.0', day('2026-11-28'))).toMatch(/on 2026-06-01/);
    expect(endOfLifeWarning('v25.9.0', day('2026-05-31'))).toBeUndefined();
  });

  it('takes a line older than the table as ended and one newer as supported', () => {
    expect(endOfLifeWarning('v18.20.8', day('2026-11-28'))).toMatch(
      /^Node\.js v18\.20\.8 reached its end of life and/,
    );
    expect(endOfLifeWarning('v27.0.0', day('2026-11-28'))).toBeUndefined();
  });

  it('ignores a version it cannot read', () => {
    expect(endOfLifeWarning('nightly', day('2026-11-28'))).toBeUndefined();
  });
});

describe('warnIfEndOfLife', () => {
  it('stays quiet inside jest, whatever the Node', () => {
    const emit = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      warnIfEndOfLife();
      expect(emit).not.toHaveBeenCalled();
    } finally {
      emit.mockRestore();
    }
  });
});
