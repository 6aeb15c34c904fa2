// `==highlight==` → <mark>. No maintained remark plugin does this for micromark 4, and a micromark
// extension is a lot of machinery for one inline mark, so this works on the parsed tree instead.
// Only `text` nodes are searched: code spans, code blocks, math and raw HTML are other node types,
// so `==` inside them is never touched. A pair may span other inline nodes (`==**bold** word==`) as
// long as both markers sit in the same parent.
import type { Mark, Parent, PhrasingContent, Root, Text } from 'mdast';
import { visit } from 'unist-util-visit';

declare module 'mdast' {
  interface Mark extends Parent {
    type: 'mark';
    children: PhrasingContent[];
  }
  interface PhrasingContentMap {
    mark: Mark;
  }
  interface RootContentMap {
    mark: Mark;
  }
}

const isSpace = (char: string | undefined): boolean => char !== undefined && /\s/.test(char);

/** Index of an opening `==` in `value` at or after `from`: not part of `===`, not followed by space. */
function findOpener(value: string, from: number): number {
  for (let i = value.indexOf('==', from); i >= 0; i = value.indexOf('==', i + 1)) {
    if (value[i - 1] === '=' || value[i + 2] === '=') continue;
    if (i + 2 < value.length && isSpace(value[i + 2])) continue;
    return i;
  }
  return -1;
}

/** Index of a closing `==`: not part of `===`, not preceded by space (or by the opener itself). */
function findCloser(value: string, from: number, minStart: number): number {
  for (let i = value.indexOf('==', from); i >= 0; i = value.indexOf('==', i + 1)) {
    if (value[i - 1] === '=' || value[i + 2] === '=') continue;
    if (i <= minStart || isSpace(value[i - 1])) continue;
    return i;
  }
  return -1;
}

const text = (value: string): Text => ({ type: 'text', value });
// hName tells mdast-util-to-hast which element to make of this node type it does not know.
const mark = (children: PhrasingContent[]): Mark => ({ type: 'mark', children, data: { hName: 'mark' } });

function markChildren(children: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  const queue = [...children];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node.type !== 'text') {
      out.push(node);
      continue;
    }
    const open = findOpener(node.value, 0);
    if (open < 0) {
      out.push(node);
      continue;
    }
    const before = node.value.slice(0, open);
    const rest = node.value.slice(open + 2);
    const sameNode = findCloser(rest, 0, 0);
    if (sameNode >= 0) {
      if (before) out.push(text(before));
      out.push(mark([text(rest.slice(0, sameNode))]));
      const after = rest.slice(sameNode + 2);
      if (after) queue.unshift(text(after));
      continue;
    }
    const closerAt = queue.findIndex((sibling) => sibling.type === 'text' && findCloser(sibling.value, 0, -1) >= 0);
    if (closerAt < 0) {
      // No closer anywhere: the `==` is literal. Keep scanning the rest of this text for another opener.
      out.push(text(before + '=='));
      if (rest) queue.unshift(text(rest));
      continue;
    }
    const closing = queue[closerAt] as Text;
    const close = findCloser(closing.value, 0, -1);
    const inner: PhrasingContent[] = [...(rest ? [text(rest)] : []), ...queue.slice(0, closerAt)];
    if (close > 0) inner.push(text(closing.value.slice(0, close)));
    if (before) out.push(text(before));
    out.push(mark(inner));
    const after = closing.value.slice(close + 2);
    queue.splice(0, closerAt + 1, ...(after ? [text(after)] : []));
  }
  return out;
}

export default function remarkMark() {
  return (tree: Root): void => {
    visit(tree, (node) => {
      if (!('children' in node) || node.type === 'mark') return;
      const parent = node as Parent;
      if (!parent.children.some((child) => child.type === 'text' && child.value.includes('=='))) return;
      parent.children = markChildren(parent.children as PhrasingContent[]);
    });
  };
}
