// A stand-in for tools/fixtures in specs: the same entry point (`bash run.sh <command> <outdir>`)
// and the files a build's stamp is made of, with commands that finish in milliseconds instead
// of a real export's minutes. Each run appends its command to runs.log.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const RUN_SH = `#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
echo "$1" >>"$here/runs.log"
out="$2"
case "$1" in
  write|real-*)
    mkdir -p "$out/onnx"
    echo "[fake] converting into $out"
    printf 'graph' >"$out/onnx/model.onnx"
    printf '{}' >"$out/config.json"
    echo "[fake] done"
    ;;
  hang)
    mkdir -p "$out/onnx"
    printf 'half' >"$out/onnx/model.onnx"
    echo "[fake] started"
    exec sleep 60
    ;;
  no-python)
    echo "run.sh: Python 3.11 not found: install it (Debian/Ubuntu: sudo apt-get install python3.11 python3.11-venv)" >&2
    exit 3
    ;;
  fail)
    mkdir -p "$out"
    echo "Traceback: boom" >&2
    exit 1
    ;;
  nothing)
    mkdir -p "$out"
    ;;
esac
`;

export class FakeFixtureTool {
  constructor(readonly directory: string) {
    mkdirSync(path.join(directory, 'tessera_fixtures'), { recursive: true });
    writeFileSync(path.join(directory, 'run.sh'), RUN_SH);
    writeFileSync(path.join(directory, 'requirements.txt'), 'fake==1.0\n');
    this.editSource('# version 1\n');
  }

  /** Changes a converter source, as a new version of the tool would. */
  editSource(text: string): void {
    writeFileSync(path.join(this.directory, 'tessera_fixtures', 'convert.py'), text);
  }

  /** The commands run so far. */
  runs(): string[] {
    try {
      return readFileSync(path.join(this.directory, 'runs.log'), 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  }
}
