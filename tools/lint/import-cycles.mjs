// Fails `npm run lint` on an import cycle — between files (inside a lib or across libs, type-only
// imports included), between libs as units —, on a lib, a benchmark or a tool importing an app,
// and on libs/contracts (what both sides of a gRPC call share) importing any other lib of ours.
//
// Hand-written on the TypeScript compiler API because no maintained tool fits what is installed:
// eslint-plugin-import does not support ESLint 10, and eslint-plugin-import-x, madge and dpdm are
// not dependencies. The compiler already knows the tsconfig `paths` aliases (`@tessera/*`), so
// imports resolve exactly as `tsc` resolves them, and it runs without a build step.
//
// Usage: node tools/lint/import-cycles.mjs [root]   (root defaults to the working directory and
// must hold a tsconfig.json whose `include` covers the code to check).
import console from 'node:console';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? process.cwd());
const configPath = path.join(root, 'tsconfig.json');
const config = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
);
if (config === undefined) throw new Error(`cannot read ${configPath}`);

const relative = (file) => path.relative(root, file).split(path.sep).join('/');
const files = new Set(config.fileNames.map((file) => path.resolve(file)));

/** @type {Map<string, Set<string>>} file → files it imports (only files of this tree). */
const graph = new Map();
for (const file of files) {
  const imports = new Set();
  // preProcessFile sees every import form: `import`, `import type`, `export … from`, `require()`
  // and `import()`; a type-only edge still orders how the code has to be understood.
  const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
  for (const { fileName } of importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys).resolvedModule;
    if (resolved === undefined || resolved.isExternalLibraryImport) continue;
    const target = path.resolve(resolved.resolvedFileName);
    if (files.has(target) && target !== file) imports.add(target);
  }
  graph.set(file, imports);
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(nodes, edgesOf) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edgesOf(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component);
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete loop through a component, shortest from its first node, for the message. */
function loopThrough(component, edgesOf) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of edgesOf(node)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [node];
        for (let at = cameFrom.get(node); at !== undefined; at = cameFrom.get(at)) loop.unshift(at);
        return [...loop, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

const problems = [];
const fileEdges = (file) => graph.get(file) ?? [];
for (const component of cycles(graph.keys(), fileEdges)) {
  const loop = loopThrough(component, fileEdges).map(relative);
  problems.push(`import cycle through ${component.length} files:\n    ${loop.join('\n -> ')}`);
}

// Libs as units: lib A importing lib B while B (any file of it) imports A is a cycle even when no
// single chain of files closes; the example edge names the file that makes each arrow.
const libOf = (file) => /^libs\/([^/]+)\//.exec(relative(file))?.[1];
const libEdges = new Map();
for (const [file, imports] of graph) {
  const from = libOf(file);
  if (from === undefined) continue;
  for (const target of imports) {
    const to = libOf(target);
    if (to === undefined || to === from) continue;
    const edges = libEdges.get(from) ?? new Map();
    if (!edges.has(to)) edges.set(to, `${relative(file)} -> ${relative(target)}`);
    libEdges.set(from, edges);
  }
}
const libTargets = (lib) => libEdges.get(lib)?.keys() ?? [];
for (const component of cycles(libEdges.keys(), libTargets)) {
  const loop = loopThrough(component, libTargets);
  const arrows = loop
    .slice(1)
    .map((to, at) => `${loop[at]} -> ${to}  (${libEdges.get(loop[at]).get(to)})`);
  const names = [...component].sort().join(', ');
  problems.push(
    `lib cycle through ${component.length} libs (${names}):\n    ${arrows.join('\n    ')}`,
  );
}

// Apps import libs, and the benchmarks and tools drive apps from outside (built entry points,
// HTTP): none of them reaches into an app's files. Only apps and end-to-end tests may.
const IMPORTERS_OF_NO_APP = { libs: 'lib', bench: 'benchmark', tools: 'tool' };
for (const [file, imports] of graph) {
  const kind = IMPORTERS_OF_NO_APP[relative(file).split('/')[0]];
  if (kind === undefined) continue;
  for (const target of imports) {
    if (relative(target).startsWith('apps/')) {
      problems.push(`${kind} imports an app: ${relative(file)} -> ${relative(target)}`);
    }
  }
}

// The contracts are loaded by the gateway and by every service: an arrow out of them would make
// each process load that lib too (the gateway, the runtime's worker pool).
const LIBS_IMPORTING_NO_LIB = ['contracts'];
for (const lib of LIBS_IMPORTING_NO_LIB) {
  for (const [to, example] of libEdges.get(lib) ?? []) {
    problems.push(`libs/${lib} imports another lib (${to}): ${example}`);
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`import-cycles: ${problems.length} problem(s) in ${graph.size} files`);
  process.exit(1);
}
console.log(
  `import-cycles: ${graph.size} files, no import cycle, no app imported from outside apps and ` +
    `tests, no lib imported by ${LIBS_IMPORTING_NO_LIB.join(', ')}`,
);
