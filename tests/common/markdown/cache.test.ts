import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../common/markdown/index.ts';
import { prerenderMarkdown, renderMarkdownCached } from '../../../common/markdown/cache.ts';
import { isMarkdownCached, markdownCacheFile } from '../../../common/markdown/cache-file.ts';
import { markdownPipelineFingerprint } from '../../../server/publish/build-runner.ts';
import { createProjectFiles, onePatch } from '../../helpers/project-files.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-cache-'));
  dirs.push(dir);
  return dir;
};

describe('renderMarkdownCached', () => {
  it('renders exactly what the pipeline renders, then answers from the cache', () => {
    const dir = tempDir();
    const body = 'Inline $x^2$ and ==marked== text :smile:';
    const first = renderMarkdownCached(body, dir);
    expect(first).toBe(renderMarkdown(body));
    const [entry] = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.html'));
    expect(entry).toBeDefined();
    // Prove the second call reads the cache: change the stored entry and see it come back.
    fs.writeFileSync(path.join(dir, entry!), '<p>from cache</p>');
    expect(renderMarkdownCached(body, dir)).toBe('<p>from cache</p>');
    expect(renderMarkdownCached(`${body} changed`, dir)).toBe(renderMarkdown(`${body} changed`));
  });

  it('is filled ahead by prerenderMarkdown with the same entry the build reads, and only once', () => {
    const dir = tempDir();
    const body = '# Title\n\n$$\\frac{a}{b}$$';
    expect(isMarkdownCached(body, dir)).toBe(false);
    expect(prerenderMarkdown(body, dir)).toBe('rendered');
    expect(fs.readFileSync(markdownCacheFile(dir, body), 'utf8')).toBe(renderMarkdown(body));
    expect(prerenderMarkdown(body, dir)).toBe('cached');
    fs.writeFileSync(markdownCacheFile(dir, body), '<p>from cache</p>');
    expect(renderMarkdownCached(body, dir)).toBe('<p>from cache</p>');
    // No temp file stays beside the entry.
    expect(fs.readdirSync(path.dirname(markdownCacheFile(dir, body)))).toEqual([path.basename(markdownCacheFile(dir, body))]);
  });

  // Deep enough to overflow whatever V8 has compiled by then (3,000 levels did not, late in a full test run).
  it('leaves a body that needed the stack-overflow fallback to the build, whose stack decides', () => {
    const dir = tempDir();
    const body = `${'<div>'.repeat(20_000)}html${'</div>'.repeat(20_000)}`;
    expect(prerenderMarkdown(body, dir)).toBe('left to the build');
    expect(isMarkdownCached(body, dir)).toBe(false);
    expect(renderMarkdownCached(body, dir)).toBe(renderMarkdown(body));
  });

  it('renders directly when no cache directory is given', () => {
    expect(renderMarkdownCached('**bold**', undefined)).toBe(renderMarkdown('**bold**'));
  });

  it('names the cache after the pipeline code, stable between calls', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    expect(markdownPipelineFingerprint(root)).toMatch(/^[0-9a-f]{16}$/);
    expect(markdownPipelineFingerprint(root)).toBe(markdownPipelineFingerprint(root));
  });

  it('names a different cache when the patches applied to the packages differ', () => {
    const projects = createProjectFiles();
    try {
      const fingerprint = (patch: Record<string, string> = {}) =>
        markdownPipelineFingerprint(projects.project({ 'common/markdown/render.ts': 'export {};\n', 'package-lock.json': '{}\n', ...patch }));
      const unpatched = fingerprint();
      expect(fingerprint()).toBe(unpatched);
      const patched = fingerprint(onePatch('-old\n+new\n'));
      expect(patched).not.toBe(unpatched);
      expect(fingerprint(onePatch('-old\n+newer\n'))).not.toBe(patched);
    } finally {
      projects.cleanup();
    }
  });
});
