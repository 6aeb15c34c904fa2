// Release versions (issue 25; docs/updates.md): `MAJOR.MINOR.PATCH[-pre]` as semver.org 2.0 writes them,
// without build metadata, and their order: numbers compare as numbers, a pre-release sorts below its
// release (1.2.0-beta.2 < 1.2.0), pre-release identifiers compare one by one, numeric ones below
// alphanumeric ones. Shared: the server orders the feeds with it, the browser may show the same order.
import { createBoundedCache } from './bounded-cache.ts';

const NUMBER = '(0|[1-9]\\d*)';
const IDENTIFIER = '(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
export const SEMVER_PATTERN = new RegExp(`^${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?$`);
/** Long enough for any real version, short enough to keep counts per reported version bounded in size. */
export const MAX_VERSION_LENGTH = 64;

export interface Semver {
  major: number;
  minor: number;
  patch: number;
  /** Empty for a release. */
  prerelease: string[];
}

/** The parts of a version, or null for text that is not one (or has numbers beyond exact integers). */
export function parseSemver(text: string): Semver | null {
  if (text.length > MAX_VERSION_LENGTH) return null;
  const match = SEMVER_PATTERN.exec(text);
  if (!match) return null;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (![major, minor, patch].every(Number.isSafeInteger)) return null;
  return { major, minor, patch, prerelease: match[4] ? match[4].split('.') : [] };
}

export function isSemver(text: string): boolean {
  return parseSemver(text) !== null;
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) return Math.sign(Number(a) - Number(b));
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Versions already parsed, for compareSemver: sorting a feed compares each release's version with several
 * others on every update check, and parsing it again each time was most of the sort. Bounded, as the
 * versions clients report are theirs to choose; cleared when full.
 */
const parsedVersions = createBoundedCache<string, Semver | null>(1000);

function parsedVersion(text: string): Semver | null {
  return parsedVersions.get(text, parseSemver);
}

/** Negative, 0 or positive as `a` is older than, equal to or newer than `b`; throws for text that is not a version. */
export function compareSemver(a: string, b: string): number {
  const left = parsedVersion(a);
  const right = parsedVersion(b);
  if (!left || !right) throw new Error(`not a version: ${JSON.stringify(left ? b : a)}`);
  for (const key of ['major', 'minor', 'patch'] as const) if (left[key] !== right[key]) return Math.sign(left[key] - right[key]);
  if (left.prerelease.length === 0 || right.prerelease.length === 0)
    return right.prerelease.length - left.prerelease.length === 0 ? 0 : left.prerelease.length === 0 ? 1 : -1;
  const length = Math.max(left.prerelease.length, right.prerelease.length);
  for (let i = 0; i < length; i++) {
    const [x, y] = [left.prerelease[i], right.prerelease[i]];
    // A shorter list of identifiers sorts first when every shared one is equal (1.0.0-alpha < 1.0.0-alpha.1).
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order = compareIdentifiers(x, y);
    if (order !== 0) return order;
  }
  return 0;
}
