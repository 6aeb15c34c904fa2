// The face of the sessions feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { PENDING_LOGIN, completeLogin } from './complete-login.ts';
export { describeUserAgent, presentSessions } from './present.ts';
export { deletePendingLogin, getPendingLogin } from './queries.ts';
export { BANNED_MESSAGE, PUBLIC_SESSION_ID, SESSION_MESSAGES, sessionsFeature } from './routes.ts';
export { createLoginLimits, type LoginLimits } from './login-limits.ts';
export { startTwoFactorLogin } from './complete-login.ts';
