// A visitor's own account (docs/decisions/0007-accounts-api.md): sign-in and registration (both carry
// the bot check's `g_token`), password reset, the verification mail, the profile, a license request,
// the license machines (deactivate one, download a machine-bound license file), the user's own data
// (download it, delete the account) and the contact form.
import type { accountRoutes } from '../../../server/features/profile/routes.ts';
import type { ownerMachineRoutes } from '../../../server/features/licensing/machine-routes.ts';
import type { authRoutes } from '../../../server/features/sessions/routes.ts';
import type { contactRoutes } from '../../../server/features/contact/routes.ts';
import type { emailVerificationRoutes } from '../../../server/features/accounts/routes.ts';
import type { passwordResetRoutes } from '../../../server/features/accounts/routes.ts';
import type { registrationRoutes } from '../../../server/features/accounts/routes.ts';
import { api, type RequestOptions } from './request.ts';
import { downloadWithProgress } from './transfer.ts';
import type { Answer } from './route-types.ts';

export interface LoginInput {
  email: string;
  password: string;
  remember_me: boolean;
  g_token: string;
}

export const login = (input: LoginInput) => api.post<Answer<typeof authRoutes, '/login', '$post'>>('/api/auth/login', input);

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
  g_token: string;
}

export const register = (input: RegistrationInput) => api.post<Answer<typeof registrationRoutes, '/create', '$post'>>('/api/auth/create', input);

export const requestPasswordReset = (email: string) =>
  api.post<Answer<typeof passwordResetRoutes, '/reset-password', '$post'>>('/api/auth/reset-password', { email });

export interface NewPasswordInput {
  token: string;
  email: string;
  password: string;
  password_confirmation: string;
}

export const setNewPassword = (input: NewPasswordInput) =>
  api.post<Answer<typeof passwordResetRoutes, '/new-password', '$post'>>('/api/auth/new-password', input);

/**
 * POST /api/auth/email/resend. `sent` is false when the address was verified already and nothing was mailed.
 * Written out because the handler's throttle answer (a plain Response) hides its JSON from the compiler;
 * the server test pins both answers (tests/server/features/accounts/verification.test.ts).
 */
export interface ResendAnswer extends Answer<typeof emailVerificationRoutes, '/email/resend', '$post'> {
  sent: boolean;
}

export const resendVerificationMail = (options?: RequestOptions) => api.post<ResendAnswer>('/api/auth/email/resend', undefined, options);

export const requestLicense = (userId: number) =>
  api.get<Answer<typeof accountRoutes, '/request-license/:userId', '$get'>>(`/api/user/request-license/${userId}`);

/** DELETE /api/user/licenses/{licenseId}/machines/{machineId} (204): frees the seat of one's own machine. */
export async function deactivateMachine(licenseId: number, machineId: number): Promise<void> {
  await api.delete<unknown>(`/api/user/licenses/${licenseId}/machines/${machineId}`);
}

/** GET /api/user/licenses/{licenseId}/events: the owner's license history (issue 24, item 5), newest first. */
export const listOwnLicenseEvents = (licenseId: number) =>
  api.get<Answer<typeof ownerMachineRoutes, '/:licenseId/events', '$get'>>(`/api/user/licenses/${licenseId}/events`, { loading: false });

export interface LicenseFileInput {
  fingerprint: string;
  name?: string;
}

/**
 * POST /api/user/licenses/{licenseId}/license-file: the machine-bound `.lic` file (docs/licensing.md), saved
 * under the server's `<key>.lic`. It activates (or renews) that machine, so it takes a seat.
 */
export const downloadLicenseFile = (licenseId: number, input: LicenseFileInput, fallbackName: string) =>
  downloadWithProgress(`/api/user/licenses/${licenseId}/license-file`, input, fallbackName);

export const updateProfile = (userId: number, profile: Record<string, unknown>) =>
  api.put<Answer<typeof accountRoutes, '/update/:id', '$put'>>(`/api/user/update/${userId}`, profile);

/**
 * GET /api/user/export: the JSON file of the user's own data (docs/product/accounts.md#your-data). A plain link
 * downloads it: the session cookie is all it needs, and the browser saves it under the server's file name.
 */
export const OWN_DATA_EXPORT_URL = '/api/user/export';

export interface DeleteAccountInput {
  password: string;
  /** A current two-factor code, for users with two-factor sign-in on. */
  code?: string;
}

/** DELETE /api/user/account (204): deletes the account; the server ends every session and clears the cookie. */
export async function deleteAccount(input: DeleteAccountInput): Promise<void> {
  await api.delete<unknown>('/api/user/account', input);
}

export interface ContactInput {
  name: string;
  email: string;
  message: string;
  g_token: string;
}

export const sendContactMessage = (input: ContactInput) => api.post<Answer<typeof contactRoutes, '/', '$post'>>('/api/contact', input);
