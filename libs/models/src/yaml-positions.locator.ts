// Maps a path inside the parsed data back to a line of the YAML text, so that every problem in a
// models file can say where it is.
import { isMap, isNode, isScalar, type Document, type LineCounter } from 'yaml';

export class YamlPositions {
  constructor(
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /** Line of the value at `path`, or of its closest existing parent (for a missing field). */
  lineOf(path: readonly PropertyKey[]): number | undefined {
    for (let length = path.length; length >= 0; length--) {
      const line = this.lineOfNode(this.document.getIn(keysOf(path.slice(0, length)), true));
      if (line !== undefined) return line;
    }
    return undefined;
  }

  /** Line of the key `key` in the mapping at `path` (for a field that should not be there). */
  lineOfKey(path: readonly PropertyKey[], key: string): number | undefined {
    const mapping = this.document.getIn(keysOf(path), true);
    if (isMap(mapping)) {
      const pair = mapping.items.find((item) => isScalar(item.key) && item.key.value === key);
      const line = pair === undefined ? undefined : this.lineOfNode(pair.key);
      if (line !== undefined) return line;
    }
    return this.lineOf(path);
  }

  private lineOfNode(node: unknown): number | undefined {
    if (!isNode(node) || node.range === undefined || node.range === null) return undefined;
    return this.lineCounter.linePos(node.range[0]).line;
  }
}

function keysOf(path: readonly PropertyKey[]): unknown[] {
  return path.filter((key) => typeof key !== 'symbol');
}
