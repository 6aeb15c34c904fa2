// A software authenticator for API tests (issue 27): makes real WebAuthn answers in Node, without a browser, so
// the server's @simplewebauthn checks run for real. A P-256 key per credential (node:crypto), authenticatorData
// built by hand (rpIdHash, flags, signCount, attested credential data with the COSE key), clientDataJSON with
// the challenge and origin, the 'none' attestation in CBOR (the few shapes needed, encoded below), and
// ES256 signatures over authenticatorData ‖ SHA-256(clientDataJSON). Every field can be bent per call, for
// the wrong origin, wrong rp id, counter and user-verification cases.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  throw new Error('CBOR value too long for this encoder');
}

/** Minimal CBOR (RFC 8949): small integers, byte and text strings, maps. */
export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicJwk: { x: string; y: string };
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  /** User verification flag (default true). */
  userVerified?: boolean;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** A challenge other than the options' (replay tests). */
  challenge?: string;
  type?: string;
}

export interface RegistrationOptionsLike {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  readonly defaults: { origin: string; rpId: string; backedUp?: boolean };
  constructor(defaults: { origin: string; rpId: string; backedUp?: boolean }) {
    this.defaults = defaults;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private flags(overrides: CeremonyOverrides, extra: number): number {
    const backup = this.defaults.backedUp ? FLAG.BE | FLAG.BS : 0;
    return FLAG.UP | (overrides.userVerified === false ? 0 : FLAG.UV) | backup | extra;
  }

  /** navigator.credentials.create(): a new credential, answered as RegistrationResponseJSON. */
  register(options: RegistrationOptionsLike, overrides: CeremonyOverrides = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const credential: Credential = { id: randomBytes(32), privateKey, publicJwk: jwk, userHandle: options.user.id, counter: overrides.counter ?? 0 };
    this.credentials.push(credential);
    const cose = encodeCbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? this.defaults.rpId),
      Buffer.from([this.flags(overrides, FLAG.AT)]),
      counter,
      Buffer.alloc(16), // aaguid: none
      idLength,
      credential.id,
      cose,
    ]);
    const attestationObject = encodeCbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.defaults.origin,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get() with credential `index` (default the last one made). */
  assert(options: { challenge: string }, overrides: CeremonyOverrides = {}, index = this.credentials.length - 1) {
    const credential = this.credentials[index];
    if (!credential) throw new Error('no credential: register one first');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(overrides.rpId ?? this.defaults.rpId), Buffer.from([this.flags(overrides, 0)]), counter]);
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.defaults.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}

/** The authenticator for a test context's SITE_URL (http://localhost:4321 → rp id localhost). */
export function authenticatorFor(siteUrl: string, options: { backedUp?: boolean } = {}): SoftwareAuthenticator {
  const url = new URL(siteUrl);
  return new SoftwareAuthenticator({ origin: url.origin, rpId: url.hostname, ...options });
}
