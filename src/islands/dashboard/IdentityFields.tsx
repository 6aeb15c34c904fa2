// The fields of the forms where the owner confirms it is them (turning two-factor off, new recovery codes,
// deleting the account, adding or removing a passkey; server/features/two-factor/confirm-identity.ts): the
// account's password, and a code from the authenticator app or one of the recovery codes. Recovery codes
// have letters, so no numeric keyboard: whoever lost the phone must be able to type one on another phone.
import { Field } from '../ui/Field.tsx';

interface IdentityFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** The account's password, asked again; the password manager offers the saved one. */
export function IdentityPasswordField({ value, onChange, error, autoFocusOnOpen = false }: IdentityFieldProps & { autoFocusOnOpen?: boolean }) {
  return (
    <Field
      label="Password"
      name="password"
      type="password"
      value={value}
      onChange={onChange}
      error={error}
      autoComplete="current-password"
      autoFocusOnOpen={autoFocusOnOpen}
    />
  );
}

export function IdentityCodeField({ value, onChange, error }: IdentityFieldProps) {
  return (
    <Field
      label="Code from the app"
      name="code"
      value={value}
      onChange={onChange}
      error={error}
      autoComplete="one-time-code"
      hint="Or one of your recovery codes."
    />
  );
}
