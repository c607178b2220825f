import * as path from 'node:path';
import { CliUsageError, parseCliArguments } from './cli.arguments';

describe('parseCliArguments', () => {
  it('pulls every model of the default models file', () => {
    expect(parseCliArguments(['pull'], {})).toEqual({
      kind: 'pull',
      modelsFile: path.resolve('config/models.yaml'),
      models: [],
    });
  });

  it('takes the models file from TESSERA_MODELS_FILE, and --models over it', () => {
    expect(
      parseCliArguments(['list'], { TESSERA_MODELS_FILE: '/etc/tessera/models.yaml' }),
    ).toEqual({
      kind: 'list',
      modelsFile: '/etc/tessera/models.yaml',
    });
    expect(
      parseCliArguments(['list', '--models', 'x.yaml'], { TESSERA_MODELS_FILE: '/etc/m.yaml' }),
    ).toMatchObject({
      modelsFile: path.resolve('x.yaml'),
    });
  });

  it('collects repeated --model', () => {
    expect(parseCliArguments(['pull', '--model', 'a', '--model=b'], {})).toMatchObject({
      models: ['a', 'b'],
    });
  });

  it.each([[['--help']], [['-h']], [['help']], [['pull', '--help']]])(
    'shows help for %p',
    (argv) => {
      expect(parseCliArguments(argv, {})).toEqual({ kind: 'help' });
    },
  );

  it.each([
    [[], 'no command given (pull or list)'],
    [['fetch'], 'unknown command "fetch" (pull or list)'],
    [['pull', 'extra'], 'unexpected argument "extra"'],
    [['list', '--model', 'a'], '--model only applies to pull'],
    [['pull', '--force'], "Unknown option '--force'"],
    [['pull', '--models'], "Option '--models <value>' argument missing"],
  ])('rejects %p', (argv, message) => {
    expect(() => parseCliArguments(argv, {})).toThrow(CliUsageError);
    expect(() => parseCliArguments(argv, {})).toThrow(message);
  });
});
