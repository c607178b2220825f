import { formatByteSize } from '@tessera/models/store';
import { renderTextTable } from './text-table.renderer';

describe('renderTextTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      renderTextTable(
        ['ID', 'CACHED', 'ALIASES'],
        [
          ['all-minilm-l6-v2', 'yes', 'text-embedding-3-small'],
          ['m', 'local (missing)', ''],
        ],
      ),
    ).toBe(
      [
        'ID                CACHED           ALIASES',
        'all-minilm-l6-v2  yes              text-embedding-3-small',
        'm                 local (missing)',
      ].join('\n'),
    );
  });
});

describe('formatByteSize', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1536, '1.5 kB'],
    [90_405_214, '90.4 MB'],
    [2_500_000_000, '2.5 GB'],
  ])('formats %d as %s', (bytes, text) => {
    expect(formatByteSize(bytes)).toBe(text);
  });
});
