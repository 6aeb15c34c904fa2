// The live build held in memory (docs/engineering.md#speed-notes: stat-and-stream per request reached 0.08× nginx).
// Every file is read once when a build goes live (a file the next build shares by hard link is not read
// again: docs/decisions/0062-switch-loads-what-changed.md), its gzip and brotli forms are made once, and every
// answer's header list is prepared, so serving a page is a map lookup and one write.
//
// The compressed forms are made once per build, by the primary, and written next to their files
// (`page.html.br`, `page.html.gz`): the other serving processes load the same build without compressing anything, and
// nginx's gzip_static/brotli_static can serve the directory as it is (docs/decisions/0022-one-process-model.md).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BASE_SECURITY_HEADERS, contentSecurityPolicy } from '../http/security-headers.ts';
import { contentTypeOf, isCompressible } from './content-types.ts';
import { inlineScriptHashes } from './inline-scripts.ts';
import { decodeSafePath } from './safe-path.ts';

export type Encoding = 'br' | 'gzip' | 'identity';

/** One representation of a file: its bytes and the complete header list of a 200 and of a 304 answer. */
export interface StaticVariant {
  encoding: Encoding;
  etag: string;
  body: Buffer;
  /** Flat [name, value, name, value, …] list, the cheapest form for res.writeHead. */
  headers: string[];
  notModifiedHeaders: string[];
}

export interface StaticEntry {
  /** Path inside the build directory. */
  file: string;
  sha256: string;
  identity: StaticVariant;
  gzip: StaticVariant | null;
  br: StaticVariant | null;
}

export interface StaticSite {
  dir: string;
  fileCount: number;
  /** Entry for a request path (without query), or undefined: unknown, a directory without index, or unsafe. */
  lookup(requestPath: string): StaticEntry | undefined;
  /** The variant a validator (If-None-Match value) names, for a 304. */
  matchEtag(entry: StaticEntry, ifNoneMatch: string): StaticVariant | undefined;
}

export interface LoadOptions {
  /** The site being replaced: files with the same bytes reuse its compressed forms instead of recompressing. */
  previous?: StaticSite | null;
  /**
   * Make the compressed forms the directory does not hold yet (default true). Web workers pass false:
   * they take only the forms the primary wrote, so brotli runs once per build, not once per process.
   */
  compress?: boolean;
  /** Write the forms made here next to their files, atomically (default false; the primary: true). */
  writeCompressed?: boolean;
  /** Told when a compressed form could not be written; the site still loads (workers then serve identity). */
  onWriteError?: (file: string, error: unknown) => void;
  /**
   * Keep the files' bytes to serve them (default true). False where nginx serves the build from disk
   * (NGINX_SERVES_PAGES): the load still makes and writes the compressed forms, then lets every body go;
   * the site answers no path, and the next load reads the forms it can reuse back from this build's files.
   */
  keepBodies?: boolean;
  /** Origins the pages may show images from besides ours (mediaImageOrigins, server/http/security-headers.ts). */
  imageOrigins?: readonly string[];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const MIN_COMPRESS_BYTES = 256;
/** Compression runs on libuv's thread pool; this many files at a time keeps it busy without flooding it. */
const COMPRESS_CONCURRENCY = 4;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const baseHeaders = Object.entries(BASE_SECURITY_HEADERS).flat();

/**
 * Search runs Pagefind, which compiles WebAssembly in its worker (whose policy comes with its own file)
 * or, failing that, in the page. The search page can replace the <main> of any reading page (home, posts;
 * src/lib/reading-routes.ts) without a new document, so those pages' policies allow it as well.
 */
export const WASM_DIRECTORIES = ['search', 'news', 'documentation', 'tutorials', 'pagefind'] as const;
// deploy/nginx.conf gets the same rule from scripts/nginx-csp.ts, which reads this list.
const WASM_FILES = new RegExp(`^(?:index\\.html$|(?:${WASM_DIRECTORIES.join('|')})/)`);

export function needsWasm(file: string): boolean {
  return WASM_FILES.test(file);
}

// Sites are only ever replaced whole, so the site keeps its compressed buffers on its entries; the
// WeakMap lets a later load find them by content hash without the site exposing them.
const entriesOfSite = new WeakMap<object, StaticEntry[]>();
/**
 * Sites loaded without making their compressed forms (`compress: false`: the other serving processes, and
 * the primary's first build before its forms are made): an entry without forms there says nothing about
 * whether its file is worth compressing, so such a site lends no forms to the next load.
 */
const uncompressedSites = new WeakSet<object>();

/** What a site that keeps no bodies remembers for the next load: where its forms are, and its page policies. */
interface DiskMemory {
  forms: Map<string, () => Promise<Compressed | null>>;
  policies: Map<string, string>;
}
const diskMemoryOfSite = new WeakMap<object, DiskMemory>();

interface Compressed {
  gzip: Buffer | null;
  br: Buffer | null;
}

/**
 * The file an entry was read from, as the file system names it. A build is never written into once it is
 * made: an incremental publish links the previous build's files into the next one and replaces what changed
 * by rename (docs/decisions/0044-incremental-publish.md), so a file of the next build with the same device,
 * inode, size and modification time is the very file the entry holds, byte for byte.
 */
interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/**
 * Entries a later load may take over as they are when their file is unchanged: those whose compressed forms
 * are all they will ever have (made here, or both read back, or not worth compressing). An entry read without
 * its forms (a first build before they are written) is read again, so it gets them.
 */
const fileOfEntry = new WeakMap<StaticEntry, FileIdentity>();

const sameFile = (a: FileIdentity, b: FileIdentity) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;

export async function loadStaticSite(buildDir: string, options: LoadOptions = {}): Promise<StaticSite> {
  const dir = path.resolve(buildDir);
  const { files, stored } = splitPrecompressed(await listFiles(dir));
  const previousEntries = new Map((options.previous ? (entriesOfSite.get(options.previous) ?? []) : []).map((entry) => [entry.file, entry]));
  const load: EntryLoad = {
    dir,
    previousEntries,
    reuse: options.previous ? compressedByHash(options.previous) : new Map<string, () => Promise<Compressed | null>>(),
    stored,
    compress: options.compress ?? true,
    write: options.writeCompressed ?? false,
    onWriteError: options.onWriteError,
    previousPolicies: options.previous ? pagePoliciesByHash(options.previous) : new Map<string, string>(),
    imageOrigins: options.imageOrigins ?? [],
    defaultCsp: contentSecurityPolicy([], { imageOrigins: options.imageOrigins }),
    wasmCsp: contentSecurityPolicy([], { wasm: true, imageOrigins: options.imageOrigins }),
  };
  const entries = await mapLimited(files, COMPRESS_CONCURRENCY, (file) => loadEntry(load, file));
  const site = options.keepBodies === false ? diskOnlySite(dir, entries) : servedSite(dir, entries, options.previous ?? null);
  if (!load.compress) uncompressedSites.add(site);
  return site;
}

function servedSite(dir: string, entries: StaticEntry[], previous: StaticSite | null): StaticSite {
  const routes = routeTable(entries);
  const carried = previous ? carriedAssets(routes, entriesOfSite.get(previous) ?? []) : new Map<string, StaticEntry>();
  // The replaced build's bodies are let go with the map. The timer holds it only weakly: a site replaced again
  // within CARRY_MS is collected with what it carried, so a burst of publishes keeps one generation, not each.
  if (carried.size > 0) {
    const held = new WeakRef(carried);
    setTimeout(() => held.deref()?.clear(), CARRY_MS).unref();
  }
  const find = (urlPath: string) => routes.get(urlPath) ?? carried.get(urlPath);
  const site: StaticSite = {
    dir,
    fileCount: entries.length,
    lookup(requestPath) {
      // Plain ASCII paths hit directly; only encoded ones pay for decoding and the traversal check.
      const direct = find(requestPath);
      if (direct || !requestPath.includes('%')) return direct;
      const decoded = decodeSafePath(requestPath);
      return decoded === null ? undefined : find(decoded);
    },
    matchEtag,
  };
  entriesOfSite.set(site, entries);
  return site;
}

/**
 * Files named by their content that a page of the replaced build may still ask for: its lazily loaded
 * scripts (/_astro/), and the search index it started reading (Pagefind reads pagefind-entry.json from one
 * build and its index chunks later; a chunk it cannot fetch it skips without a word, and the search then
 * finds nothing until the page is loaded again).
 */
const CARRIED_PREFIXES = ['_astro/', 'pagefind/'] as const;

/**
 * How long they stay answered: long enough for a page open when the site changed to finish what it started,
 * short enough that an index of pages taken down (its excerpts) does not linger until the next publish.
 */
export const CARRY_MS = 10 * 60_000;

/**
 * The replaced build's files under CARRIED_PREFIXES that the new build lacks, one build back only (the
 * replaced site's own entries, not what it carried itself). Their names are their contents' hashes; the
 * files that keep their names (pagefind.js, the entry) the new build has itself.
 */
function carriedAssets(routes: Map<string, StaticEntry>, replaced: readonly StaticEntry[]): Map<string, StaticEntry> {
  const carried = new Map<string, StaticEntry>();
  for (const entry of replaced) {
    const urlPath = `/${entry.file}`;
    if (!routes.has(urlPath) && CARRIED_PREFIXES.some((prefix) => entry.file.startsWith(prefix))) carried.set(urlPath, entry);
  }
  return carried;
}

/**
 * A site nginx serves: it answers no path here (a request that reaches Node is for something the build does
 * not have), and keeps of its entries only what the next load reuses: where each compressed form was
 * written, and each page's policy. Its readiness is the same as a served site's.
 */
function diskOnlySite(dir: string, entries: StaticEntry[]): StaticSite {
  const forms = new Map<string, () => Promise<Compressed | null>>();
  for (const entry of entries) {
    const source = path.join(dir, entry.file);
    const hasGzip = entry.gzip !== null;
    const hasBr = entry.br !== null;
    // A form that could not be read back (its write failed) is made again.
    forms.set(entry.sha256, async () => {
      try {
        const [gzipBytes, brBytes] = await Promise.all([
          hasGzip ? fs.readFile(source + GZIP_SUFFIX) : null,
          hasBr ? fs.readFile(source + BROTLI_SUFFIX) : null,
        ]);
        return { gzip: gzipBytes, br: brBytes };
      } catch {
        return null;
      }
    });
  }
  const site: StaticSite = { dir, fileCount: entries.length, lookup: () => undefined, matchEtag: () => undefined };
  diskMemoryOfSite.set(site, { forms, policies: policiesOf(entries) });
  return site;
}

/**
 * The live build as a process that neither serves it nor compresses it sees it (a web worker behind nginx,
 * NGINX_SERVES_PAGES): its directory only, nothing read.
 */
export function siteServedFromDisk(buildDir: string): StaticSite {
  return diskOnlySite(path.resolve(buildDir), []);
}

function compressedByHash(site: StaticSite): Map<string, () => Promise<Compressed | null>> {
  const map = new Map<string, () => Promise<Compressed | null>>();
  if (uncompressedSites.has(site)) return map;
  const onDisk = diskMemoryOfSite.get(site);
  if (onDisk) return onDisk.forms;
  for (const entry of entriesOfSite.get(site) ?? []) {
    const forms = { gzip: entry.gzip?.body ?? null, br: entry.br?.body ?? null };
    map.set(entry.sha256, () => Promise.resolve(forms));
  }
  return map;
}

/**
 * Each page's Content-Security-Policy by its bytes and whether its path allows WebAssembly (pagePolicyKey):
 * finding a page's inline scripts means decoding and scanning all of it, and most pages of a publish are
 * the previous build's, byte for byte.
 */
function pagePoliciesByHash(site: StaticSite): Map<string, string> {
  return diskMemoryOfSite.get(site)?.policies ?? policiesOf(entriesOfSite.get(site) ?? []);
}

function policiesOf(entries: readonly StaticEntry[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const { file, sha256, identity } of entries) {
    if (!file.endsWith('.html')) continue;
    const at = identity.headers.indexOf('Content-Security-Policy');
    if (at !== -1) map.set(pagePolicyKey(sha256, needsWasm(file)), identity.headers[at + 1] ?? '');
  }
  return map;
}

const pagePolicyKey = (sha256: string, wasm: boolean) => `${sha256}|${wasm ? 'wasm' : ''}`;

interface EntryLoad {
  dir: string;
  /** The replaced site's entries by file (a served site's; a site nginx serves keeps none). */
  previousEntries: Map<string, StaticEntry>;
  reuse: Map<string, () => Promise<Compressed | null>>;
  /** Files of the build that have compressed forms stored next to them. */
  stored: Map<string, StoredForms>;
  compress: boolean;
  write: boolean;
  onWriteError: LoadOptions['onWriteError'];
  /** The previous site's page policies (pagePoliciesByHash). */
  previousPolicies: Map<string, string>;
  imageOrigins: readonly string[];
  defaultCsp: string;
  wasmCsp: string;
}

async function loadEntry(load: EntryLoad, file: string): Promise<StaticEntry> {
  const source = path.join(load.dir, file);
  const stat = await fs.stat(source);
  const identity: FileIdentity = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
  // A file the publish did not touch: taken over as it is, so a switch costs what changed (not a read, a
  // hash and the stored forms of every file: 1.9 s of a 5,000-post site's 3.7 s save → live on a slow machine).
  const before = load.previousEntries.get(file);
  const beforeFile = before && fileOfEntry.get(before);
  if (before && beforeFile && sameFile(beforeFile, identity)) {
    // Its forms, where this build's directory lacks them (written into the previous build after it was linked).
    const stored = load.stored.get(file);
    await writeMissingForms(
      load,
      file,
      { gzip: before.gzip?.body ?? null, br: before.br?.body ?? null },
      { gzip: Boolean(stored?.gzip), br: Boolean(stored?.br) },
    );
    return before;
  }
  const body = await fs.readFile(source);
  const sha256 = crypto.createHash('sha256').update(body).digest('base64url');
  const urlPath = `/${file}`;
  const contentType = contentTypeOf(file);
  const worthCompressing = isCompressible(file) && body.length >= MIN_COMPRESS_BYTES;
  const compressed = worthCompressing ? await compressedForms(load, file, body, sha256, stat.mtimeMs) : { gzip: null, br: null };
  const varies = compressed.gzip !== null || compressed.br !== null;
  const wasm = needsWasm(file);
  const csp = file.endsWith('.html') ? pagePolicy(load, body, sha256, wasm) : wasm ? load.wasmCsp : load.defaultCsp;
  const common = [
    'Cache-Control',
    urlPath.startsWith('/_astro/') ? IMMUTABLE : REVALIDATE,
    ...(varies ? ['Vary', 'Accept-Encoding'] : []),
    ...baseHeaders,
    'Content-Security-Policy',
    csp,
  ];
  const variant = (encoding: Encoding, bytes: Buffer, etag: string): StaticVariant => ({
    encoding,
    etag,
    body: bytes,
    headers: [
      'Content-Type',
      contentType,
      'Content-Length',
      String(bytes.length),
      'ETag',
      etag,
      ...(encoding === 'identity' ? [] : ['Content-Encoding', encoding]),
      ...common,
    ],
    notModifiedHeaders: ['ETag', etag, ...common],
  });
  // Strong ETags must differ per encoding: each encoding is a different byte sequence.
  const entry: StaticEntry = {
    file,
    sha256,
    identity: variant('identity', body, `"${sha256}"`),
    gzip: compressed.gzip ? variant('gzip', compressed.gzip, `"${sha256}-gz"`) : null,
    br: compressed.br ? variant('br', compressed.br, `"${sha256}-br"`) : null,
  };
  // Without `compress`, the forms are only those read back: final when both were there.
  const formsFinal = !worthCompressing || load.compress || (compressed.gzip !== null && compressed.br !== null);
  if (formsFinal && stat.size === body.length) fileOfEntry.set(entry, identity);
  return entry;
}

/** A page's Content-Security-Policy (its inline scripts' hashes), taken from the previous site when its bytes are the same. */
function pagePolicy(load: EntryLoad, body: Buffer, sha256: string, wasm: boolean): string {
  return (
    load.previousPolicies.get(pagePolicyKey(sha256, wasm)) ??
    contentSecurityPolicy(inlineScriptHashes(body.toString('utf8')), { wasm, imageOrigins: load.imageOrigins })
  );
}

/** The forms stored next to the file when they are newer than it; otherwise reused or made (and written). */
async function compressedForms(load: EntryLoad, file: string, body: Buffer, sha256: string, sourceMtimeMs: number): Promise<Compressed> {
  const source = path.join(load.dir, file);
  const onDisk = await readStoredForms(source, sourceMtimeMs, load.stored.get(file));
  if ((onDisk.gzip && onDisk.br) || !load.compress) return onDisk;
  const made = (await load.reuse.get(sha256)?.()) ?? (await compress(body, `/${file}`));
  await writeMissingForms(load, file, made, { gzip: onDisk.gzip !== null, br: onDisk.br !== null });
  return made;
}

/** Writes next to the file (the primary only) each form made or taken over that the directory lacks. */
async function writeMissingForms(load: EntryLoad, file: string, forms: Compressed, present: { gzip: boolean; br: boolean }): Promise<void> {
  if (!load.write) return;
  const source = path.join(load.dir, file);
  for (const [encoding, suffix] of [
    ['gzip', GZIP_SUFFIX],
    ['br', BROTLI_SUFFIX],
  ] as const) {
    const bytes = forms[encoding];
    if (bytes && !present[encoding]) await writeAtomically(source + suffix, bytes).catch((error: unknown) => load.onWriteError?.(file + suffix, error));
  }
}

const GZIP_SUFFIX = '.gz';
const BROTLI_SUFFIX = '.br';

interface StoredForms {
  gzip?: string;
  br?: string;
}

/** Separates `x.gz`/`x.br` files that are compressed forms of a compressible `x` from the build's own files. */
function splitPrecompressed(all: string[]): { files: string[]; stored: Map<string, StoredForms> } {
  const present = new Set(all);
  const files: string[] = [];
  const stored = new Map<string, StoredForms>();
  for (const file of all) {
    const encoding = file.endsWith(GZIP_SUFFIX) ? 'gzip' : file.endsWith(BROTLI_SUFFIX) ? 'br' : null;
    // Both suffixes are three characters long.
    const original = encoding ? file.slice(0, -3) : '';
    if (encoding && present.has(original) && isCompressible(original)) {
      stored.set(original, { ...stored.get(original), [encoding]: file });
    } else {
      files.push(file);
    }
  }
  return { files, stored };
}

/** Stored forms count only when written after their file (a form left from older bytes would be wrong). */
async function readStoredForms(source: string, sourceTime: number, forms: StoredForms | undefined): Promise<Compressed> {
  if (!forms) return { gzip: null, br: null };
  const read = async (suffix: string, name: string | undefined) => {
    if (!name) return null;
    const file = source + suffix;
    const stat = await fs.stat(file);
    return stat.mtimeMs >= sourceTime && stat.size > 0 ? fs.readFile(file) : null;
  };
  const [gzip, br] = await Promise.all([read(GZIP_SUFFIX, forms.gzip), read(BROTLI_SUFFIX, forms.br)]);
  return { gzip, br };
}

/** nginx (gzip_static) may serve the directory while we write: a form appears whole or not at all. */
async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  // A dot name: listFiles skips it, so a leftover from a crash is never served.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, bytes);
    // Public like the build it sits in (server/publish/build-dirs.ts, makeBuildPublic), whatever the umask.
    await fs.chmod(temp, 0o644);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

async function compress(body: Buffer, urlPath: string): Promise<Compressed> {
  // Hashed assets are the same across builds and cached for a year: worth brotli's slowest, best level.
  // Pages change with content, so they get level 9: about 10x faster for a few percent more bytes.
  const quality = urlPath.startsWith('/_astro/') ? 11 : 9;
  const [gz, br] = await Promise.all([
    gzip(body, { level: 9 }),
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  // Keep a compressed form only when it saves something worth a Vary header.
  const worth = (candidate: Buffer) => (candidate.length < body.length * 0.95 ? candidate : null);
  return { gzip: worth(gz), br: worth(br) };
}

/** URL path → entry, in Astro's directory format: `news/index.html` answers `/news/`, `/news` and itself. */
function routeTable(entries: StaticEntry[]): Map<string, StaticEntry> {
  const routes = new Map<string, StaticEntry>();
  for (const entry of entries) routes.set(`/${entry.file}`, entry);
  for (const entry of entries) {
    if (entry.file !== 'index.html' && !entry.file.endsWith('/index.html')) continue;
    const directory = `/${entry.file.slice(0, -'index.html'.length)}`;
    if (!routes.has(directory)) routes.set(directory, entry);
    const bare = directory.slice(0, -1);
    if (bare !== '' && !routes.has(bare)) routes.set(bare, entry);
  }
  return routes;
}

function matchEtag(entry: StaticEntry, ifNoneMatch: string): StaticVariant | undefined {
  const variants = [entry.br, entry.gzip, entry.identity];
  for (const token of ifNoneMatch.split(',')) {
    const tag = token.trim();
    if (tag === '*') return entry.identity;
    // If-None-Match compares weakly (RFC 9110 13.1.2): a W/ prefix does not prevent a match.
    const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
    const variant = variants.find((candidate) => candidate?.etag === opaque);
    if (variant) return variant;
  }
  return undefined;
}

/**
 * Every regular file under the build, as `/`-separated relative paths. Symlinks are not followed (a
 * build never needs them, and one could point outside). Dot-entries are skipped except `.well-known`.
 */
async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string) => {
    for (const entry of await fs.readdir(path.join(root, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
      if (/[\\%\0]/.test(entry.name)) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
