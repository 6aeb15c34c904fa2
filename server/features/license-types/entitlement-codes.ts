// Entitlement codes (issue 24, item 1; docs/licensing.md#entitlements-and-maintenance): the names of the
// features an edition switches on, as the company's software asks for them ("PRO_EXPORT"). Stored as JSON
// arrays on license types and licenses; every answer and every file lists them sorted and once each.
import { z } from 'zod';

/** A capital, then 1–31 capitals, digits or underscores. */
export const ENTITLEMENT_CODE = /^[A-Z][A-Z0-9_]{1,31}$/;
/** More than any edition needs; keeps a license file small. */
export const MAX_ENTITLEMENTS = 100;

/** The codes of a stored JSON array; anything damaged reads as none rather than stopping every answer. */
export function parseEntitlements(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((code): code is string => typeof code === 'string' && ENTITLEMENT_CODE.test(code)) : [];
  } catch {
    return [];
  }
}

/** Sorted and without duplicates, so equal sets compare equal. */
export function normaliseEntitlements(codes: Iterable<string>): string[] {
  return [...new Set(codes)].sort();
}

export function storedEntitlements(codes: Iterable<string>): string {
  return JSON.stringify(normaliseEntitlements(codes));
}

const codeMessage = (label: string) => `Each ${label} code must be a capital letter followed by 1 to 31 capitals, digits or underscores.`;

/**
 * A list of codes as a form or the software sends it: an array of strings, each trimmed and matching
 * ENTITLEMENT_CODE; at most MAX_ENTITLEMENTS. Case is kept: "pro" is refused rather than guessed.
 */
export function entitlementsField(label = 'entitlements') {
  return z
    .array(
      z
        .string({ error: codeMessage(label) })
        .trim()
        .regex(ENTITLEMENT_CODE, codeMessage(label)),
      {
        error: `The ${label} field must be a list of codes.`,
      },
    )
    .max(MAX_ENTITLEMENTS, `The ${label} field may list at most ${MAX_ENTITLEMENTS} codes.`)
    .transform(normaliseEntitlements);
}
