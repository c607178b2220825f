// Arrays are refused on their length before any item is read.
import { z } from 'zod';
import { countingItemReads } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { arrayWithin, boundedArray } from './bounded-array.schema';
import { parseBody, parseValue } from './parse-body';

function errorOf(run: () => unknown): OpenAIError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAIError);
    return error as OpenAIError;
  }
  throw new Error('expected a 400');
}

describe('boundedArray', () => {
  const Tags = z.strictObject({ tags: boundedArray(z.string().min(1), { min: 1, max: 3 }) });

  it('refuses a long array without reading one item', () => {
    const { array, reads } = countingItemReads(200_000);
    const error = errorOf(() => parseBody(Tags, { tags: array }));
    expect({ status: error.status, param: error.param, message: error.message }).toEqual({
      status: 400,
      param: 'tags',
      message:
        "Invalid 'tags': array too long. Expected an array with maximum length 3, but got an " +
        'array with length 200000 instead.',
    });
    expect(reads()).toBe(0);
  });

  it('checks the items of an array within its bounds, with their paths', () => {
    expect(parseBody(Tags, { tags: ['a', 'b'] })).toEqual({ tags: ['a', 'b'] });
    expect(errorOf(() => parseBody(Tags, { tags: ['a', ''] })).param).toBe('tags[1]');
  });

  it.each([
    [[], "Invalid 'tags': must not be an empty array."],
    ['a', "Invalid 'tags': expected an array, but got a string instead."],
  ])('refuses %j as any array schema would', (tags, message) => {
    expect(errorOf(() => parseBody(Tags, { tags })).message).toBe(message);
  });
});

describe('arrayWithin', () => {
  it('passes the same array on, its items unread', () => {
    const { array, reads } = countingItemReads(5);
    expect(parseValue(arrayWithin({ max: 5 }), array, ['input'])).toBe(array);
    expect(reads()).toBe(0);
  });

  it('is one schema per bounds (and per item for boundedArray): limits may be settings', () => {
    expect(arrayWithin({ min: 1, max: 9 })).toBe(arrayWithin({ min: 1, max: 9 }));
    const Item = z.string();
    expect(boundedArray(Item, { max: 9 })).toBe(boundedArray(Item, { max: 9 }));
    expect(boundedArray(Item, { max: 9 })).not.toBe(boundedArray(Item, { max: 8 }));
  });
});
