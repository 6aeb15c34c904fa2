// The element walk the sanitiser's passes share (common/markdown/walk-elements.ts): the order and the
// answers unist-util-visit gave them (go on, skip, go on at an index after a replacement or a removal), so
// that every rendering stays byte for byte what it was (docs/decisions/0054-element-walk.md).
import type { Element, ElementContent, Root } from 'hast';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { walkElements, type ElementVisitor } from '../../../common/markdown/walk-elements.ts';

function h(tagName: string, properties: { id: string }, children: (ElementContent | string)[] = []): Element {
  return {
    type: 'element',
    tagName,
    properties,
    children: children.map((child) => (typeof child === 'string' ? { type: 'text', value: child } : child)),
  };
}

function sample(): Root {
  return {
    type: 'root',
    children: [
      h('p', { id: 'a' }, ['text', h('em', { id: 'b' }, [h('strong', { id: 'c' })])]),
      { type: 'comment', value: 'not an element' },
      h('div', { id: 'd' }, [h('span', { id: 'e' }), h('span', { id: 'f' }, [h('i', { id: 'g' })])]),
      h('section', { id: 'h' }),
    ],
  };
}

const ids = (elements: Element[]) => elements.map((element) => String(element.properties.id));

describe('walkElements', () => {
  it('meets every element once, parents before children, in document order, as visit does', () => {
    const walked: Element[] = [];
    walkElements(sample(), (element) => {
      walked.push(element);
    });
    const visited: Element[] = [];
    visit(sample(), 'element', (element) => {
      visited.push(element);
    });
    expect(ids(walked)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(ids(walked)).toEqual(ids(visited));
  });

  it("passes over an element's children on 'skip'", () => {
    const walked: Element[] = [];
    walkElements(sample(), (element) => {
      walked.push(element);
      return element.properties.id === 'd' ? 'skip' : undefined;
    });
    expect(ids(walked)).toEqual(['a', 'b', 'c', 'd', 'h']);
  });

  it('goes on at the index it is given: a replaced element is not entered, the one moved into a removed slot is met', () => {
    const tree = sample();
    const walked: Element[] = [];
    walkElements(tree, (element, index, parent) => {
      walked.push(element);
      if (element.properties.id === 'b') {
        // Replaced by text: its child c is no longer in the tree.
        parent.children[index] = { type: 'text', value: 'was b' } as ElementContent;
        return index + 1;
      }
      if (element.properties.id === 'e') {
        // Removed: f moves into its slot and is met next.
        parent.children.splice(index, 1);
        return index;
      }
      return undefined;
    });
    expect(ids(walked)).toEqual(['a', 'b', 'd', 'e', 'f', 'g', 'h']);
    const left: Element[] = [];
    walkElements(tree, (element) => {
      left.push(element);
    });
    expect(ids(left)).toEqual(['a', 'd', 'f', 'g', 'h']);
  });

  it('gives each element its index in its parent and the parent itself', () => {
    const tree = sample();
    const seen: [string, number, string][] = [];
    const visitor: ElementVisitor = (element, index, parent) => {
      expect(parent.children[index]).toBe(element);
      seen.push([String(element.properties.id), index, parent.type === 'root' ? 'root' : String(parent.properties.id)]);
    };
    walkElements(tree, visitor);
    expect(seen).toEqual([
      ['a', 0, 'root'],
      ['b', 1, 'a'],
      ['c', 0, 'b'],
      ['d', 2, 'root'],
      ['e', 0, 'd'],
      ['f', 1, 'd'],
      ['g', 0, 'f'],
      ['h', 3, 'root'],
    ]);
  });
});
