// Runs schemathesis (tools/reliability/schemathesis.sh, a pinned PyPI install in its own venv)
// against the official OpenAI spec for the operations Tessera serves, with the hooks of
// tools/reliability/hooks.py, and reads back its JSON run report (cases, failures) and its HAR
// (every request it sent, with the status it got).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '@tessera/testing';

export const OPERATIONS = [
  'createChatCompletion',
  'createEmbedding',
  'createModeration',
  'createSpeech',
  'createTranscription',
  'createTranslation',
  'listModels',
  'retrieveModel',
];

/**
 * Responses must not be 5xx, must match the spec's status codes, content types, headers and
 * schemas, and every 4xx must be the OpenAI error body (hooks.py). Not run:
 * positive_data_acceptance (a body valid by the spec may still name a model Tessera does not
 * serve or a feature it refuses, correctly a 4xx) and negative_data_rejection (the hooks repair
 * `model` in generated bodies, which can make an invalid body valid); ignored_auth and
 * missing_required_header (the auth matrix covers authentication route by route).
 */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'openai_error_body',
];

export interface SchemathesisResult {
  exitCode: number;
  /** Test cases schemathesis generated (its JSON report's `test_cases.generated`). */
  cases: number;
  casesWithFailures: number;
  /** Requests sent (HAR entries), by route and status. */
  requests: number;
  statuses: Record<string, Record<string, number>>;
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: unknown[];
  seconds: number;
  /** The tail of its console output, for a failure message. */
  output: string;
}

interface RunReport {
  running_time: number;
  test_cases: { generated: number; with_failures: number };
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: unknown[];
}

interface Har {
  log: { entries: { request: { url: string }; response: { status: number } }[] };
}

/** `/v1/models/tiny-bert` → `/models/{model}`: statuses counted per operation, not per id. */
function routeOf(url: string): string {
  const route = new URL(url).pathname.replace(/^\/v1/, '');
  return route.startsWith('/models/') ? '/models/{model}' : route;
}

export async function runSchemathesis(options: {
  baseURL: string;
  key: string;
  reportDir: string;
  maxExamples: number;
  maxSeconds: number;
  seed: number;
}): Promise<SchemathesisResult> {
  const root = repoRoot();
  fs.rmSync(options.reportDir, { recursive: true, force: true });
  fs.mkdirSync(options.reportDir, { recursive: true });
  const runReport = path.join(options.reportDir, 'run.json');
  const har = path.join(options.reportDir, 'requests.har.json');
  const args = [
    path.join(root, 'tools/reliability/schemathesis.sh'),
    'run',
    path.resolve(root, '../shared/spec/openai-openapi.yaml'),
    '--url',
    options.baseURL,
    '--header',
    `Authorization: Bearer ${options.key}`,
    ...OPERATIONS.flatMap((id) => ['--include-operation-id', id]),
    '--checks',
    CHECKS.join(','),
    '--max-examples',
    String(options.maxExamples),
    '--max-time',
    String(options.maxSeconds),
    '--seed',
    String(options.seed),
    '--workers',
    '2',
    '--request-timeout',
    '190',
    '--report',
    'json,har',
    '--report-json-path',
    runReport,
    '--report-har-path',
    har,
  ];
  let output = '';
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn('bash', args, {
      // Its working directory gets a `.schemathesis/` cache (failures it replays first on the
      // next run): kept out of the clone, so every run starts from the seed alone.
      cwd: options.reportDir,
      env: {
        ...process.env,
        SCHEMATHESIS_HOOKS: 'hooks',
        PYTHONPATH: path.join(root, 'tools/reliability'),
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
  if (!fs.existsSync(runReport) || !fs.existsSync(har)) {
    throw new Error(`schemathesis wrote no report (exit ${exitCode}):\n${output}`);
  }
  const report = JSON.parse(fs.readFileSync(runReport, 'utf8')) as RunReport;
  const entries = (JSON.parse(fs.readFileSync(har, 'utf8')) as Har).log.entries;
  const statuses: Record<string, Record<string, number>> = {};
  for (const entry of entries) {
    const row = (statuses[routeOf(entry.request.url)] ??= {});
    row[entry.response.status] = (row[entry.response.status] ?? 0) + 1;
  }
  return {
    exitCode,
    cases: report.test_cases.generated,
    casesWithFailures: report.test_cases.with_failures,
    requests: entries.length,
    statuses,
    failures: report.failures,
    errors: report.errors,
    seconds: Math.round(report.running_time),
    output,
  };
}
