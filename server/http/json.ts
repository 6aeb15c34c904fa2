/** Parses a JSON column that should hold an object; a damaged value becomes {} rather than a 500. */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A JSON array column as an array; anything else (or text that is not JSON) as an empty one. */
export function parseJsonArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The strings of a JSON array column (scopes, events); anything else in it is left out. */
export function parseJsonStrings(text: string): string[] {
  return parseJsonArray(text).filter((item): item is string => typeof item === 'string');
}
