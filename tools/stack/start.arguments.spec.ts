import * as path from 'node:path';
import { CliUsageError } from '../models/cli.arguments';
import { parseStartArguments } from './start.arguments';

describe('parseStartArguments', () => {
  it('takes --models, else TESSERA_MODELS_FILE, else config/models.yaml with its starter file', () => {
    expect(parseStartArguments(['--models', 'a.yaml'], { TESSERA_MODELS_FILE: 'b.yaml' })).toEqual({
      kind: 'start',
      modelsFile: path.resolve('a.yaml'),
    });
    expect(parseStartArguments([], { TESSERA_MODELS_FILE: 'b.yaml' })).toEqual({
      kind: 'start',
      modelsFile: path.resolve('b.yaml'),
    });
    expect(parseStartArguments(['--models=c.yaml'], {})).toEqual({
      kind: 'start',
      modelsFile: path.resolve('c.yaml'),
    });
    expect(parseStartArguments([], {})).toEqual({
      kind: 'start',
      modelsFile: path.resolve('config/models.yaml'),
      starterFile: path.resolve('config/models.starter.yaml'),
    });
  });

  it('answers --help and -h', () => {
    expect(parseStartArguments(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseStartArguments(['-h', '--models', 'x'], {})).toEqual({ kind: 'help' });
  });

  it('refuses unknown flags, stray arguments and a --models without a file', () => {
    expect(() => parseStartArguments(['--model', 'x'], {})).toThrow(CliUsageError);
    expect(() => parseStartArguments(['--model', 'x'], {})).toThrow(/Unknown option '--model'/);
    expect(() => parseStartArguments(['models.yaml'], {})).toThrow(/Unexpected argument/);
    expect(() => parseStartArguments(['--models'], {})).toThrow(/argument missing/);
  });
});
