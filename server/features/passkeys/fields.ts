// The fields of the passkey calls, validated at the edge (docs/engineering.md#habits, habit 2): the browser's
// WebAuthn answers as @simplewebauthn/browser sends them (RegistrationResponseJSON, AuthenticationResponseJSON),
// every binary part base64url, each bounded so a hostile body costs nothing to refuse.
import { z } from 'zod';
import { required } from '../../http/fields.ts';

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'The passkey answer is not valid.');

const credentialId = base64url(1400).min(1, 'The passkey answer is not valid.');
const common = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationResponseField = z.object(
  {
    ...common,
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16_384),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  },
  { error: 'The passkey answer is missing.' },
);

export const authenticationResponseField = z.object(
  {
    ...common,
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      // Post-quantum signatures (ML-DSA, which the library offers where Node supports it) run to a few KB.
      signature: base64url(8192),
      userHandle: base64url(128).optional(),
    }),
  },
  { error: 'The passkey answer is missing.' },
);

export type RegistrationResponse = z.infer<typeof registrationResponseField>;
export type AuthenticationResponse = z.infer<typeof authenticationResponseField>;

export const passkeyNameField = z
  .string({ error: required('name') })
  .trim()
  .min(1, required('name'))
  .max(60, 'The name field must not be greater than 60 characters.');

/** Optional: not needed within 5 minutes of a sign-in (docs/product/accounts.md#passkeys). */
export const optionalPasswordField = z.string().max(1024, 'The password field must not be greater than 1024 characters.').optional();
