// Answer shapes of passkeys (docs/product/accounts.md#passkeys): what the list shows, and what the own-data
// export carries. Never the credential id or the public key: they identify the authenticator and are of no
// use to the owner.
import type { Passkey } from '../../db/schema.ts';

export interface PasskeyView {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** 0/1 like every flag in answers: the passkey is synced (backed up by its provider). */
  backed_up: 0 | 1;
  /** 'singleDevice' (bound to one authenticator) or 'multiDevice' (may be synced). */
  device_type: string;
  /** 0/1: refused since its counter went back (docs/decisions/0043-passkeys.md). */
  suspected_clone: 0 | 1;
}

export function presentPasskey(passkey: Passkey): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: passkey.created_at,
    last_used_at: passkey.last_used_at,
    backed_up: passkey.backed_up === 1 ? 1 : 0,
    device_type: passkey.device_type,
    suspected_clone: passkey.suspected_clone_at ? 1 : 0,
  };
}

/** The export's `passkeys`: names and dates, never keys (server/features/own-data/present.ts). */
export function presentPasskeysForExport(list: readonly Passkey[]) {
  return list.map((passkey) => ({
    name: passkey.name,
    device_type: passkey.device_type,
    synced: passkey.backed_up === 1,
    created_at: passkey.created_at,
    last_used_at: passkey.last_used_at,
    suspected_clone_at: passkey.suspected_clone_at,
  }));
}
