// The floor plan of server/ (docs/architecture.md#layers): shared layers import no feature, features use each
// other only through their index.ts and never in a loop, and nothing in server/ runs code from src/. ESLint's
// import rules (eslint.config.js) keep the first two from coming back file by file; this test reads the whole
// import graph, which a per-file lint rule cannot, to find loops between features and between files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'server');
const featuresDir = path.join(serverDir, 'features');
const SHARED_LAYERS = ['auth', 'db', 'http', 'ops', 'mail', 'signing', 'storage', 'static', 'publish'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'warm-up-site' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files a file imports at run time (with `withTypes`, by `import type` too), as absolute paths. */
function importedFiles(file: string, withTypes = false): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /^(?:import|export)\s+(type\s+)?[\s\S]*?\s+from\s+'(\.{1,2}\/[^']+)';|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1] && !withTypes) continue;
    const spec = match[2] ?? match[3];
    if (spec) found.push(path.resolve(path.dirname(file), spec));
  }
  return found;
}

const featureOf = (file: string): string | null => {
  const relative = path.relative(featuresDir, file);
  return relative.startsWith('..') ? null : (relative.split(path.sep)[0] ?? null);
};

const files = sourceFiles(serverDir);

describe('server layers', () => {
  it('gives every feature folder an index.ts', () => {
    const folders = fs.readdirSync(featuresDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !fs.existsSync(path.join(featuresDir, folder.name, 'index.ts'))).map((folder) => folder.name)).toEqual([]);
  });

  it('keeps the shared layers free of feature imports', () => {
    const offending = files
      .filter((file) => SHARED_LAYERS.includes(path.relative(serverDir, file).split(path.sep)[0] ?? ''))
      .flatMap((file) =>
        importedFiles(file)
          .filter((target) => featureOf(target) !== null)
          .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`),
      );
    expect(offending).toEqual([]);
  });

  it('keeps the context every layer receives free of features, types included', () => {
    // server/context.ts is read by every layer and feature; a feature's type there tied all of them to that
    // feature in one loop (the signing keyrings now live in server/signing/ for that reason).
    const context = path.join(serverDir, 'context.ts');
    const offending = importedFiles(context, true).filter((target) => featureOf(target) !== null);
    expect(offending.map((target) => path.relative(root, target))).toEqual([]);
  });

  it('has no import loop between files of server/ or src/, types included', () => {
    // A loop ties every file on it to every other (server/context.ts once tied 22 files to licensing through
    // one type), and a runtime loop evaluates a module half-loaded. `export *` counts: a schema part that
    // imported server/db/schema.ts, which exports it, was one.
    const all = [...files, ...sourceFiles(path.join(root, 'src'))];
    const known = new Set(all);
    const edges = new Map(all.map((file) => [file, importedFiles(file, true).filter((target) => known.has(target))]));
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') loops.push([...trail.slice(trail.indexOf(next)), next].map((each) => path.relative(root, each)).join(' -> '));
        else if (!state.has(next)) visit(next, [...trail, next]);
      }
      state.set(file, 'done');
    };
    for (const file of all) if (!state.has(file)) visit(file, [file]);
    expect(loops).toEqual([]);
  });

  it('runs nothing from src/ in server/', () => {
    const srcDir = path.join(root, 'src');
    const offending = files.flatMap((file) =>
      importedFiles(file)
        .filter((target) => target.startsWith(srcDir + path.sep))
        .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('lets features reach each other only through index.ts', () => {
    const offending = files.flatMap((file) => {
      const own = featureOf(file);
      return importedFiles(file)
        .filter((target) => {
          const other = featureOf(target);
          return other !== null && other !== own && path.basename(target) !== 'index.ts';
        })
        .map((target) => `${path.relative(root, file)} -> ${path.relative(root, target)}`);
    });
    expect(offending).toEqual([]);
  });

  it('has no loop between features', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of files) {
      const own = featureOf(file);
      if (!own) continue;
      for (const target of importedFiles(file)) {
        const other = featureOf(target);
        if (other && other !== own) edges.set(own, (edges.get(own) ?? new Set()).add(other));
      }
    }
    const loops: string[] = [];
    const visit = (feature: string, trail: string[]) => {
      for (const next of edges.get(feature) ?? []) {
        const at = trail.indexOf(next);
        if (at >= 0) loops.push([...trail.slice(at), next].join(' -> '));
        else visit(next, [...trail, next]);
      }
    };
    for (const feature of edges.keys()) visit(feature, [feature]);
    expect([...new Set(loops)]).toEqual([]);
  });
});
