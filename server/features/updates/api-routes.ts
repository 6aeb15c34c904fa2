// The update API the company's software polls (issue 25 item 4; docs/updates.md), mounted at /api/updates/v1.
// Not a browser's API: no cookies, exempt from the Origin and XSRF checks like /api/licensing/v1/
// (server/auth/csrf.ts), guarded by the one machine-API guard (server/auth/machine-api.ts): counted per
// address, then the license key (`Authorization: License <key>`, or `key` in the query for updaters that
// cannot set headers) is read, then counted per key. No key is fine: then only ungated stable releases.
// File links are signed (server/auth/signed-urls.ts, `expires` and `sig`), good for 15 minutes, and name the
// license they were made for, so the download is decided again (decideReleaseAccess) and counted once.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { machineApiGuard, machineError, type CredentialCheck } from '../../auth/machine-api.ts';
import { licenseKeyBucket } from '../../auth/license-keys.ts';
import { signUrl, verifySignedUrl } from '../../auth/signed-urls.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { fieldErrorsFromZod } from '../../http/errors.ts';
import { compareSemver, isSemver, MAX_VERSION_LENGTH } from '../../../common/semver.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { decideReleaseAccess, getReleaseFileById, getReleaseWithFiles, listVersionedReleases, sendReleaseFile, type Downloader } from '../downloads/index.ts';
import { grantOfKey, grantOfLicenseId, type LicenseGrant } from '../licensing/index.ts';
import { createCheckCounter, type CheckCounter } from './check-counter.ts';
import { chooseFromFeed, feedEntries, type FeedQuery } from './feeds.ts';
import { presentAppcast, presentLatest, presentUpdateYaml } from './present.ts';
import { loadMarkdown, loadYaml } from '../../lazy-libraries.ts';

export const UPDATES_PREFIX = '/api/updates/v1';
export const SIGNED_LINK_MINUTES = 15;

export const UPDATE_MESSAGES = {
  NOT_FOUND: 'No license has this key.',
  INVALID_AUTHORIZATION: 'Send the license key as "Authorization: License <key>", or as the key query parameter.',
  INVALID_SIGNATURE: 'This download link is not valid.',
  LINK_EXPIRED: 'This download link has expired. Ask for the update again.',
  NO_RELEASE: 'No release of this channel and platform is available to this license.',
  UNAVAILABLE: 'This file is not available for download.',
} as const;

const channelField = z.enum(['stable', 'beta'], { error: 'The channel field must be stable or beta.' });
const platformField = z.enum(['windows', 'macos', 'linux'], { error: 'The platform field must be windows, macos or linux.' });
export const latestQuerySchema = z.object({
  channel: z.preprocess((value) => (value === '' ? undefined : value), channelField.default('stable')),
  platform: platformField,
  arch: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['x64', 'arm64', 'universal'], { error: 'The arch field must be x64, arm64 or universal.' }).optional(),
  ),
  current: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().max(MAX_VERSION_LENGTH).refine(isSemver, 'The current field must be a version like 1.2.3 or 1.3.0-beta.1.').optional(),
  ),
  key: z.string().optional(),
});
export const appcastQuerySchema = z.object({
  platform: z.literal('macos', { error: 'The appcast is for platform=macos.' }).default('macos'),
  key: z.string().optional(),
});

/** What the guard found: the grants the caller holds (none without a key) and the license, for signed links. */
interface UpdateCaller {
  grants: LicenseGrant[];
  licenseId: number | null;
}

/**
 * The update info file each electron-updater asks for, by platform and arch: Windows and macOS updaters ask
 * one file whatever their arch (x64 files first: an arm64 machine runs them, an older updater takes the
 * first file, and a macOS one picks an arm64 build by the `arch=arm64` its link carries); a Linux arm64 one
 * asks `latest-linux-arm64.yml` (electron-updater's channel file name for that arch).
 */
const YML_FEEDS = {
  'latest.yml': { platform: 'windows', arch: 'x64' },
  'latest-mac.yml': { platform: 'macos', arch: 'x64' },
  'latest-linux.yml': { platform: 'linux', arch: 'x64' },
  'latest-linux-arm64.yml': { platform: 'linux', arch: 'arm64' },
} as const;

/** Per process, so the graceful stop can flush what this process counted (flushUpdateChecks). */
const counters = new WeakMap<object, CheckCounter>();

export function flushUpdateChecks(ctx: Pick<AppContext, 'db'>): void {
  counters.get(ctx.db)?.flush();
}

export function updatesApiRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  const counter = counters.get(db) ?? createCheckCounter(db, ctx.log);
  counters.set(db, counter);
  const callers = new WeakMap<Request, UpdateCaller>();
  const links = new WeakMap<Request, Downloader>();
  const limits = { perAddressPerMinute: config.licensingRequestsPerMinute, perCredentialPerMinute: config.licensingKeyRequestsPerMinute };

  const byKey = machineApiGuard<UpdateCaller>(ctx, {
    name: 'updates',
    ...limits,
    authenticate: (c): CredentialCheck<UpdateCaller> => {
      const header = c.req.header('authorization');
      let key = c.req.query('key');
      if (header !== undefined) {
        const match = /^License\s+(\S.*)$/i.exec(header.trim());
        if (!match) return { ok: false, status: 401, code: 'INVALID_AUTHORIZATION', message: UPDATE_MESSAGES.INVALID_AUTHORIZATION };
        key = match[1];
      }
      if (key === undefined || key.trim() === '') {
        return { ok: true, credential: { grants: [], licenseId: null }, bucket: `anonymous:${rateLimitAddress(clientIp(c, config))}` };
      }
      const grant = key.length <= 200 ? grantOfKey(db, key, ctx.now()) : undefined;
      if (!grant) return { ok: false, status: 404, code: 'NOT_FOUND', message: UPDATE_MESSAGES.NOT_FOUND };
      return { ok: true, credential: { grants: [grant], licenseId: grant.license_id }, bucket: licenseKeyBucket(key) };
    },
    store: (c, caller) => callers.set(c.req.raw, caller),
  });

  const bySignature = machineApiGuard<Downloader | null>(ctx, {
    name: 'updates-links',
    ...limits,
    authenticate: (c): CredentialCheck<Downloader | null> => {
      const check = verifySignedUrl(ctx, c.req.url, 'sig');
      if (check === 'invalid') return { ok: false, status: 403, code: 'INVALID_SIGNATURE', message: UPDATE_MESSAGES.INVALID_SIGNATURE };
      if (check === 'expired') return { ok: false, status: 403, code: 'LINK_EXPIRED', message: UPDATE_MESSAGES.LINK_EXPIRED };
      const license = Number(c.req.query('license'));
      const nonce = c.req.query('n') ?? '';
      const downloader: Downloader = Number.isSafeInteger(license) && license > 0 ? { kind: 'license', licenseId: license } : { kind: 'link', nonce };
      return { ok: true, credential: downloader, bucket: downloader.kind === 'license' ? `license:${license}` : `link:${nonce}` };
    },
    store: (c, downloader) => {
      if (downloader) links.set(c.req.raw, downloader);
    },
  });

  const callerOf = (c: Context<AppEnv>): UpdateCaller => callers.get(c.req.raw) ?? { grants: [], licenseId: null };

  /**
   * A signed, absolute link to a file, for the caller's license (or a fresh nonce without one). It names the
   * file's arch: electron-updater's macOS updater tells an arm64 build by "arm64" in its URL (docs/updates.md).
   */
  const signedFileUrl = (file: ReleaseFile, caller: UpdateCaller): string => {
    const holder: Record<string, string> = caller.licenseId !== null ? { license: String(caller.licenseId) } : { n: randomBytes(9).toString('base64url') };
    const params = { ...holder, arch: file.arch };
    const path = signUrl(ctx, `${UPDATES_PREFIX}/files/${file.id}`, { expiresAt: ctx.now() + SIGNED_LINK_MINUTES * 60_000, params, signatureParam: 'sig' });
    return `${config.siteUrl}${path}`;
  };

  const countCheck = (query: Pick<FeedQuery, 'channel' | 'platform'>, version: string | undefined) =>
    counter.count({ day: new Date(ctx.now()).toISOString().slice(0, 10), channel: query.channel, platform: query.platform, version: version ?? '' });

  const invalid = (c: Context, error: z.ZodError) => {
    const errors = fieldErrorsFromZod(error);
    return machineError(c, 422, 'INVALID_REQUEST', Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', { errors });
  };

  const choose = (c: Context<AppEnv>, query: FeedQuery) => chooseFromFeed(feedEntries(listVersionedReleases(db), query), callerOf(c).grants);

  /** electron-updater's generic provider asks `<feed>/latest.yml` (Windows), `latest-mac.yml`, `latest-linux.yml`, `latest-linux-arm64.yml`. */
  const updateYaml = async (c: Context<AppEnv>, file: keyof typeof YML_FEEDS) => {
    const channel = c.req.param('channel') as 'stable' | 'beta';
    const { platform, arch } = YML_FEEDS[file];
    countCheck({ channel, platform }, undefined);
    const { latest } = choose(c, { channel, platform, arch });
    if (!latest) return machineError(c, 404, 'NO_RELEASE', UPDATE_MESSAGES.NO_RELEASE);
    const caller = callerOf(c);
    return c.body(
      presentUpdateYaml(latest, (each) => signedFileUrl(each, caller), (await loadYaml()).stringify),
      200,
      { 'Content-Type': 'text/yaml; charset=utf-8' },
    );
  };

  return new Hono<AppEnv>()
    .get('/keys', (c) => {
      // Public keys only: Sparkle's SUPublicEDKey is the `x` of the current one, in standard base64.
      c.header('Cache-Control', 'public, max-age=300');
      return c.json({ keys: ctx.updateKeyring().published });
    })

    .get('/latest', byKey, async (c) => {
      const parsed = latestQuerySchema.safeParse(c.req.query());
      if (!parsed.success) return invalid(c, parsed.error);
      const { channel, platform, arch, current } = parsed.data;
      countCheck({ channel, platform }, current);
      const choice = choose(c, { channel, platform, arch });
      const latest = choice.latest
        ? presentLatest(choice.latest, signedFileUrl(choice.latest.files[0]!, callerOf(c)), (await loadMarkdown()).renderMarkdown)
        : null;
      return c.json({
        update: latest !== null && (current === undefined || compareSemver(latest.version, current) > 0),
        latest,
        blocked: choice.blocked ? { version: choice.blocked.entry.release.version, code: choice.blocked.code } : null,
      });
    })

    .get('/:channel{stable|beta}/latest.yml', byKey, (c) => updateYaml(c, 'latest.yml'))
    .get('/:channel{stable|beta}/latest-mac.yml', byKey, (c) => updateYaml(c, 'latest-mac.yml'))
    .get('/:channel{stable|beta}/latest-linux.yml', byKey, (c) => updateYaml(c, 'latest-linux.yml'))
    .get('/:channel{stable|beta}/latest-linux-arm64.yml', byKey, (c) => updateYaml(c, 'latest-linux-arm64.yml'))

    .get('/:channel{stable|beta}/appcast.xml', byKey, async (c) => {
      const parsed = appcastQuerySchema.safeParse(c.req.query());
      if (!parsed.success) return invalid(c, parsed.error);
      const channel = c.req.param('channel') as 'stable' | 'beta';
      countCheck({ channel, platform: 'macos' }, undefined);
      const { allowed } = chooseFromFeed(feedEntries(listVersionedReleases(db), { channel, platform: 'macos', signedOnly: true }), callerOf(c).grants);
      const caller = callerOf(c);
      const xml = presentAppcast({
        title: `${config.siteName} (${channel})`,
        link: config.siteUrl,
        entries: allowed,
        urlOf: (file) => signedFileUrl(file, caller),
        render: (await loadMarkdown()).renderMarkdown,
      });
      return c.body(xml, 200, { 'Content-Type': 'application/rss+xml; charset=utf-8' });
    })

    .get('/files/:fileId{[0-9]+}', bySignature, async (c) => {
      const downloader = links.get(c.req.raw);
      const file = getReleaseFileById(db, Number(c.req.param('fileId')));
      const release = file ? getReleaseWithFiles(db, file.download_item_id) : undefined;
      // Decided again now: the license may have been suspended since the link was made.
      const grant = downloader?.kind === 'license' ? grantOfLicenseId(db, downloader.licenseId, ctx.now()) : undefined;
      const access = decideReleaseAccess({ kind: 'licensed', grants: grant ? [grant] : [] }, release, file?.id);
      if (!access.ok || !downloader)
        return machineError(c, 403, access.ok ? 'UNAVAILABLE' : (access.code ?? 'UNAVAILABLE'), access.ok ? UPDATE_MESSAGES.UNAVAILABLE : access.message);
      return sendReleaseFile(c, ctx, access.file, downloader);
    });
}
