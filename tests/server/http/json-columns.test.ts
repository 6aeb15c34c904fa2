// JSON columns read back (server/http/json.ts): a damaged or unexpected value gives an empty result, never a 500.
import { describe, expect, it } from 'vitest';
import { parseJsonArray, parseJsonObject, parseJsonStrings } from '../../../server/http/json.ts';

describe('JSON columns', () => {
  it('reads an object, and anything else as {}', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    for (const text of ['[1]', 'null', '"x"', 'not json']) expect(parseJsonObject(text)).toEqual({});
  });

  it('reads an array, and anything else as []', () => {
    expect(parseJsonArray('[1,"a",null]')).toEqual([1, 'a', null]);
    for (const text of ['{"a":1}', '3', '', 'not json']) expect(parseJsonArray(text)).toEqual([]);
  });

  it('keeps only the strings of an array column, in order', () => {
    expect(parseJsonStrings('["licenses:read",3,null,"users:read",{"a":1}]')).toEqual(['licenses:read', 'users:read']);
    expect(parseJsonStrings('"licenses:read"')).toEqual([]);
  });
});
