// Searching text columns for what an admin typed (the users list, the inbox): SQLite's LIKE, with `%`, `_` and
// the escape character itself taken literally. LIKE ignores ASCII case, as the lists' other text handling does.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** `%…%` around `text`, its `%`, `_` and `\` escaped for `escape '\'`. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `<column> like '%text%' escape '\'`: true where the column holds `text` as typed. */
export function containsText(column: SQLWrapper, text: string): SQL {
  return sql`${column} like ${likePattern(text)} escape '\\'`;
}
