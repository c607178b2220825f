// The one validation-error formatter: full paths in `param`, wording per issue code.
import { z } from 'zod';
import { OpenAIError } from '../errors/openai-error';
import { parseBody, parseValue } from './parse-body';

const Schema = z.strictObject({
  name: z.string().min(1),
  size: z.int().min(1).max(10).nullish(),
  kind: z.enum(['a', 'b', 'c']).optional(),
  tags: z.array(z.string().min(1)).max(2).optional(),
  grid: z.array(z.array(z.int())).optional(),
  nested: z.object({ flag: z.boolean() }).optional(),
});

function errorOf(run: () => unknown): { message: string; param: string | null } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAIError);
    const { message, param, status } = error as OpenAIError;
    expect(status).toBe(400);
    return { message, param };
  }
  throw new Error('expected a 400');
}

describe('parseBody', () => {
  it.each([
    [{}, 'name', "Missing required parameter: 'name'."],
    [{ name: 3 }, 'name', "Invalid 'name': expected a string, but got 3 instead."],
    [{ name: '' }, 'name', "Invalid 'name': must not be an empty string."],
    [{ name: 'x', size: 0 }, 'size', "Invalid 'size': must be at least 1, but got 0."],
    [{ name: 'x', size: 11 }, 'size', "Invalid 'size': must be at most 10, but got 11."],
    [{ name: 'x', size: 2.5 }, 'size', "Invalid 'size': expected an integer, but got 2.5 instead."],
    [
      { name: 'x', size: '2' },
      'size',
      "Invalid 'size': expected an integer, but got a string instead.",
    ],
    [
      { name: 'x', kind: 'd' },
      'kind',
      "Invalid 'kind': must be one of 'a', 'b' or 'c', but got 'd'.",
    ],
    [{ name: 'x', tags: ['a', ''] }, 'tags[1]', "Invalid 'tags[1]': must not be an empty string."],
    [
      { name: 'x', tags: ['a', 'b', 'c'] },
      'tags',
      "Invalid 'tags': array too long. Expected an array with maximum length 2, but got an " +
        'array with length 3 instead.',
    ],
    [
      { name: 'x', grid: [[1], [2, null]] },
      'grid[1][1]',
      "Invalid 'grid[1][1]': expected an integer, but got null instead.",
    ],
    [
      { name: 'x', nested: { flag: 'yes' } },
      'nested.flag',
      "Invalid 'nested.flag': expected a boolean, but got a string instead.",
    ],
    [{ name: 'x', extra: 1 }, 'extra', 'Unrecognized request argument supplied: extra'],
  ])('%j → param %s', (body, param, message) => {
    expect(errorOf(() => parseBody(Schema, body))).toEqual({ param, message });
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [[], null, 'text', 3]) {
      expect(errorOf(() => parseBody(Schema, body))).toEqual({
        param: null,
        message: 'The request body must be a JSON object.',
      });
    }
  });

  it('keeps a message a schema states for itself', () => {
    const Even = z.int().refine((n) => n % 2 === 0, { error: 'must be even' });
    expect(errorOf(() => parseValue(Even, 3, ['input', 2]))).toEqual({
      param: 'input[2]',
      message: "Invalid 'input[2]': must be even.",
    });
  });

  it('returns the parsed body when it is valid', () => {
    expect(parseBody(Schema, { name: 'x', size: null })).toEqual({ name: 'x', size: null });
  });
});
