// Small helpers shared by the admin routers (ids and flags: server/http/fields.ts).

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
