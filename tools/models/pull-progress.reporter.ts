// Shows a pull's progress: a byte-counting bar per file on a terminal, and one line per finished
// file elsewhere (CI logs, init containers), where redrawn bars would only be noise. A registry
// build has no bytes to count: a line per stage (`[2/3] converting …`) and the converter's own
// lines, indented, on both.
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { formatByteSize, type PullProgressEvent } from '@tessera/models/store';

export interface ProgressStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
}

export interface PullProgressReporter {
  readonly onProgress: (event: PullProgressEvent) => void;
  stop(): void;
}

export function createPullProgressReporter(stream: ProgressStream): PullProgressReporter {
  return stream.isTTY === true ? new BarsReporter(stream) : new LinesReporter(stream);
}

class BarsReporter implements PullProgressReporter {
  private readonly bars = new Map<string, SingleBar>();
  private readonly multibar: MultiBar;

  constructor(private readonly stream: ProgressStream) {
    this.multibar = new MultiBar(
      {
        stream,
        format: '  {bar} {percentage}% | {value}/{total} | {file}',
        formatValue: (value, _options, type) =>
          type === 'value' || type === 'total' ? formatByteSize(value) : String(value),
        hideCursor: true,
        autopadding: false,
      },
      Presets.shades_classic,
    );
  }

  readonly onProgress = (event: PullProgressEvent): void => {
    switch (event.type) {
      case 'file-start':
        this.bars.set(event.file, this.multibar.create(event.totalBytes, 0, { file: event.file }));
        break;
      case 'file-progress':
        this.bars.get(event.file)?.update(event.receivedBytes);
        break;
      case 'file-done': {
        // Files kept from an earlier pull get no bar; the summary line counts them.
        const bar = this.bars.get(event.file);
        bar?.setTotal(event.bytes);
        bar?.update(event.bytes);
        break;
      }
      default:
        this.stream.write(buildLine(event));
    }
  };

  stop(): void {
    this.multibar.stop();
  }
}

class LinesReporter implements PullProgressReporter {
  constructor(private readonly stream: ProgressStream) {}

  readonly onProgress = (event: PullProgressEvent): void => {
    if (event.type === 'stage' || event.type === 'output') {
      this.stream.write(buildLine(event));
      return;
    }
    if (event.type !== 'file-done') return;
    const what = event.alreadyCached ? 'already cached' : formatByteSize(event.bytes);
    this.stream.write(`  ${event.file} (${what})\n`);
  };

  stop(): void {}
}

type BuildEvent = Extract<PullProgressEvent, { type: 'stage' | 'output' }>;

function buildLine(event: BuildEvent): string {
  return event.type === 'stage'
    ? `  [${event.step}/${event.steps}] ${event.text}\n`
    : `      ${event.line}\n`;
}
