import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CAPABILITIES,
  CAPABILITY_SERVICES,
  implementedCapabilities,
  upstreamAddressVariable,
} from './capability';
import { protoRoot } from './grpc.options';

const repo = path.resolve(__dirname, '..', '..', '..');

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
  compilerOptions?: { tsConfigPath?: string };
}

const nestCli = JSON.parse(fs.readFileSync(path.join(repo, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, NestProject>;
};

describe('the capability registry', () => {
  it('names a proto file that exists for every capability', () => {
    for (const capability of CAPABILITIES) {
      expect(fs.existsSync(path.join(protoRoot(), CAPABILITY_SERVICES[capability].protoFile))).toBe(
        true,
      );
    }
  });

  it('derives the gateway variable and the service entry', () => {
    expect(upstreamAddressVariable('embeddings')).toBe('TESSERA_EMBEDDINGS_ADDR');
    expect(implementedCapabilities()).toContainEqual({
      capability: 'embeddings',
      project: 'embeddings',
      entry: 'apps/embeddings/src/main.js',
    });
  });

  it('names only Nest applications whose entry is where the build puts it', () => {
    for (const { project, entry } of implementedCapabilities()) {
      const nest = nestCli.projects[project];
      expect(nest).toMatchObject({ type: 'application', sourceRoot: `apps/${project}/src` });
      expect(`${nest.sourceRoot}/${nest.entryFile}.js`).toBe(entry);
    }
  });
});

describe('nest-cli.json', () => {
  it('lists projects that exist, each app with its own tsconfig.app.json', () => {
    for (const [name, project] of Object.entries(nestCli.projects)) {
      const entry = path.join(repo, project.sourceRoot, `${project.entryFile}.ts`);
      expect({ name, exists: fs.existsSync(entry) }).toEqual({ name, exists: true });
      if (project.type === 'application') {
        expect(project.compilerOptions?.tsConfigPath).toBe(`${project.root}/tsconfig.app.json`);
        expect(fs.existsSync(path.join(repo, project.root, 'tsconfig.app.json'))).toBe(true);
      }
    }
  });
});
