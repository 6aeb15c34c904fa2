// Which paths are "reading pages": static pages made of the same layout and nothing but static markup
// in <main> (home, the posts screens, search). Between them the browser swaps <main> instead of loading
// a whole page (src/scripts/reading-navigation.ts). Everything else (downloads, contact, the account and
// admin islands, feeds, files) is loaded normally.
import { NAMESPACE_LIST } from '../../common/snapshot-types.ts';

const POSTS_PATH = new RegExp(`^/(?:${NAMESPACE_LIST.join('|')})(?:/[^/.]+)?/?$`);

export function isReadingPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/search' || pathname === '/search/' || POSTS_PATH.test(pathname);
}
