// The one way flags and ids are read (issue 16): exactly what each field accepts and refuses, and the 422
// a router answers with it. Every router and form uses these fields, so this table is the whole contract.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flagField, flagFieldOr, idField, idListField, nullableIdField, optionalFlagField, optionalIdField, parseId, pathId } from '../../../server/http/fields.ts';
import { json, setupContentTest, type ContentTest } from '../content/helpers.ts';

/** The parsed value, or the field's first message. */
function parse(schema: z.ZodType, value: unknown): { ok: unknown } | { error: string } {
  const result = z.object({ field: schema }).safeParse(value === undefined ? {} : { field: value });
  return result.success ? { ok: (result.data as { field: unknown }).field } : { error: result.error.issues[0]?.message ?? '' };
}

describe('flags', () => {
  const refused = { error: 'The x field must be true or false.' };
  const table: [unknown, unknown][] = [
    [true, { ok: 1 }],
    [false, { ok: 0 }],
    [1, { ok: 1 }],
    [0, { ok: 0 }],
    ['1', { ok: 1 }],
    ['0', { ok: 0 }],
    ['true', { ok: 1 }],
    ['false', { ok: 0 }],
    ['on', { ok: 1 }],
    ['off', { ok: 0 }],
    ['yes', { ok: 1 }],
    ['no', { ok: 0 }],
    [' TRUE ', { ok: 1 }],
    ['Yes', { ok: 1 }],
    ['2', refused],
    [2, refused],
    [-1, refused],
    ['maybe', refused],
    ['y', refused],
    ['t', refused],
    [[1], refused],
    [{}, refused],
  ];
  it.each(table)('flagField(%j) → %j', (value, expected) => {
    expect(parse(flagField('x'), value)).toEqual(expected);
  });

  it('reads nothing, "" and null as not sent: required, undefined or the fallback', () => {
    for (const blank of [undefined, '', null]) {
      expect(parse(flagField('x'), blank)).toEqual({ error: 'The x field is required.' });
      expect(parse(optionalFlagField('x'), blank)).toEqual({ ok: undefined });
      expect(parse(flagFieldOr('x', 0), blank)).toEqual({ ok: 0 });
      expect(parse(flagFieldOr('x', 1), blank)).toEqual({ ok: 1 });
    }
    expect(parse(optionalFlagField('x'), 'maybe')).toEqual(refused);
    expect(parse(flagFieldOr('x', 0), 'on')).toEqual({ ok: 1 });
  });
});

describe('ids', () => {
  const invalid = { error: 'The selected x is invalid.' };
  const table: [unknown, unknown][] = [
    [1, { ok: 1 }],
    [42, { ok: 42 }],
    ['42', { ok: 42 }],
    [' 42 ', { ok: 42 }],
    ['007', { ok: 7 }],
    [Number.MAX_SAFE_INTEGER, { ok: Number.MAX_SAFE_INTEGER }],
    [0, invalid],
    ['0', invalid],
    [-1, invalid],
    ['-1', invalid],
    [1.5, invalid],
    ['1.5', invalid],
    ['1e3', invalid],
    ['0x10', invalid],
    ['12abc', invalid],
    ['abc', invalid],
    [Number.MAX_SAFE_INTEGER + 1, invalid],
    ['99999999999999999', invalid],
    [Number.NaN, invalid],
    [Infinity, invalid],
    [true, invalid],
    [[1], invalid],
    [{ id: 1 }, invalid],
  ];
  it.each(table)('idField(%j) → %j', (value, expected) => {
    expect(parse(idField('x'), value)).toEqual(expected);
  });

  it('reads nothing, "" and null as not sent', () => {
    for (const blank of [undefined, '', null]) {
      expect(parse(idField('x'), blank)).toEqual({ error: 'The x field is required.' });
      expect(parse(optionalIdField('x'), blank)).toEqual({ ok: undefined });
      expect(parse(nullableIdField('x'), blank)).toEqual({ ok: null });
    }
    expect(parse(optionalIdField('x'), 'abc')).toEqual(invalid);
  });

  it('lets a nullable id say "none" with 0 and "null" too (a select\'s "No file" option)', () => {
    for (const none of [0, '0', 'null']) expect(parse(nullableIdField('x'), none)).toEqual({ ok: null });
    expect(parse(nullableIdField('x'), '7')).toEqual({ ok: 7 });
    expect(parse(nullableIdField('x'), -3)).toEqual(invalid);
  });

  it('reads lists of ids, plain or as selected items, without repeats', () => {
    const list = idListField('ids', 'Nothing selected!', 4);
    expect(parse(list, [1, '2', { id: 3 }, 2])).toEqual({ ok: [1, 2, 3] });
    expect(parse(list, '5')).toEqual({ ok: [5] });
    for (const empty of [undefined, '', null, []]) expect(parse(list, empty)).toEqual({ error: 'Nothing selected!' });
    expect(parse(list, [1, 'x'])).toEqual({ error: 'The ids must be ids.' });
    expect(parse(list, [1, 0])).toEqual({ error: 'The ids must be ids.' });
    expect(parse(list, [1, 2, 3, 4, 5])).toEqual({ error: 'At most 4 ids at once.' });
  });

  it('reads path ids as digits only (anything else is a 404)', () => {
    expect(parseId('12')).toBe(12);
    for (const text of [undefined, '', '0', '-1', ' 1', '1.0', '1e3', 'abc', '99999999999999999']) expect(parseId(text), String(text)).toBeNull();
    // For a lookup: 0, which no row has, so a malformed id answers 404 like an unknown one.
    expect(pathId('12')).toBe(12);
    expect(pathId('99999999999999999')).toBe(0);
  });
});

describe('through a router', () => {
  let t: ContentTest;
  beforeEach(async () => {
    t = await setupContentTest();
  });
  afterEach(() => t.ctx.cleanup());

  it('answers 422 { message, errors: { field: [..] } } for a bad flag or id, JSON or form alike', async () => {
    const admin = await t.admin();
    const bad = { title: 'A post', body: 'Text', section_id: 'abc', published: 'maybe' };
    const errors = { section_id: ['The selected section id is invalid.'], published: ['The published field must be true or false.'] };
    const asJson = await admin.request('POST', '/api/news/store', bad);
    expect(asJson.status).toBe(422);
    expect(await json(asJson)).toEqual({ message: 'The selected section id is invalid.', errors });
    const form = new FormData();
    for (const [key, value] of Object.entries(bad)) form.append(key, value);
    const asForm = await admin.request('POST', '/api/news/store', form);
    expect(asForm.status).toBe(422);
    expect(await json(asForm)).toEqual({ message: 'The selected section id is invalid.', errors });
  });

  it('takes a checkbox\'s words in a content form and an admin form alike', async () => {
    const admin = await t.admin();
    const section = await json<{ section: { id: number } }>(await admin.request('POST', '/api/news/section/store', { title: 'S', order: 0 }));
    const form = new FormData();
    for (const [key, value] of Object.entries({ title: 'A post', body: 'Text', section_id: String(section.section.id), published: 'on' })) form.append(key, value);
    const stored = await admin.request('POST', '/api/news/store', form);
    expect(stored.status).toBe(201);
    expect(await json(stored)).toMatchObject({ post: { published: 1 } });
    // The admin console took only true/false and 1/0 before: now the same words as every form.
    const user = await t.user();
    const banned = await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: 'on' });
    expect(banned.status).toBe(200);
    expect(await json(banned)).toMatchObject({ user: { is_banned: 1 } });
    const unbanned = await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: 'no', id: String(user.user.id) });
    expect(await json(unbanned)).toMatchObject({ user: { is_banned: 0 } });
    const refused = await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: 'maybe' });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toEqual({ message: 'The is banned field must be true or false.', errors: { is_banned: ['The is banned field must be true or false.'] } });
  });
});
