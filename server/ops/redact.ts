// What never reaches a log line (docs/decisions/0031-observability.md): passwords, tokens, cookies, reset
// and verification links, license keys, TOTP secrets. Two nets, both applied by the logger (server/log.ts)
// to every message, error and detail: values under a secret-sounding key are replaced whatever they hold,
// and secrets recognisable in free text (a link's query, a license key, a bearer token, an otpauth URI,
// a session cookie) are cut out of strings. tests/server/ops/log-redaction.test.ts runs the real flows
// and looks for the actual secret values in every line.
import { LICENSE_KEY_PATTERN } from '../auth/license-keys.ts';

export const REDACTED = '[redacted]';

/** Keys whose values are secret, compared without case, `-` and `_` (so `g_token`, `X-XSRF-TOKEN`, `totpSecret` all match). */
const SECRET_KEYS = new Set(
  [
    'password',
    'passwordconfirmation',
    'currentpassword',
    'newpassword',
    'token',
    'gtoken',
    'xsrftoken',
    'xxsrftoken',
    'secret',
    'totpsecret',
    'twofactorsecret',
    'code',
    'recoverycode',
    'key',
    'licensekey',
    'privatekey',
    'cookie',
    'setcookie',
    'authorization',
    'signature',
    'session',
    'sessiontoken',
    // The bucket's key (S3_SECRET_ACCESS_KEY, the SDK's secretAccessKey) and a presigned link's signature.
    'secretaccesskey',
    's3secretaccesskey',
    'xamzsignature',
  ].map((key) => key.toLowerCase()),
);

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.replace(/[-_]/g, '').toLowerCase());
}

const licenseKeys = new RegExp(LICENSE_KEY_PATTERN.source.replace(/^\^/, '').replace(/\$$/, ''), 'gi');

interface TextRule {
  pattern: RegExp;
  replace: string;
}

const ALWAYS: TextRule[] = [
  { pattern: licenseKeys, replace: REDACTED },
  { pattern: /otpauth:\/\/[^\s"'<>]+/gi, replace: `otpauth://${REDACTED}` },
  { pattern: /\b(Bearer|Basic)\s+[^\s"',]+/gi, replace: `$1 ${REDACTED}` },
  // A cookie or form pair of a secret name, wherever it is written (a header echoed in an error…).
  { pattern: /\b(session|XSRF-TOKEN|token|signature|password|secret|pending_login|[a-z_]*session[a-z_]*)=[^;&\s"',]+/gi, replace: `$1=${REDACTED}` },
];

/** Links carry their secret in the query (reset token, signed verification and download links). */
const LINK_QUERIES: TextRule = { pattern: /((?:https?:\/\/|\/)[^\s?#"'<>]*)\?[^\s"'<>#]+/gi, replace: `$1?${REDACTED}` };

export interface RedactOptions {
  /**
   * Development only: links stay whole, so a developer can follow the verification or reset link the
   * outbox mailer logs (server/mail/transport.ts). Everything else is still redacted.
   */
  keepLinks?: boolean;
}

export function redactText(text: string, options: RedactOptions = {}): string {
  let result = text;
  for (const rule of ALWAYS) result = result.replace(rule.pattern, rule.replace);
  if (!options.keepLinks) result = result.replace(LINK_QUERIES.pattern, LINK_QUERIES.replace);
  return result;
}

/** A copy of `value` fit for a log line: secret keys' values replaced, strings redacted, depth and cycles bounded. */
export function redactValue(value: unknown, options: RedactOptions = {}, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value, options);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6 || seen.has(value)) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, options, depth + 1, seen));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = isSecretKey(key) ? REDACTED : redactValue(item, options, depth + 1, seen);
  return copy;
}

/** An error as a log field: type, message and stack (causes too), redacted like any text. */
export function serializeError(error: Error, options: RedactOptions = {}, depth = 0): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: error.name, message: redactText(error.message, options) };
  if (error.stack) fields.stack = redactText(error.stack, options);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) fields.code = code;
  if (error.cause instanceof Error && depth < 3) fields.cause = serializeError(error.cause, options, depth + 1);
  return fields;
}
