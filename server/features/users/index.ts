// The face of the users feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { LAST_ADMIN_SELF_DELETE_MESSAGE, assertNotLastAdmin } from './admin-protection.ts';
export { deleteUserWithOwnedData } from './delete-user.ts';
export { editUserAsAdmin, usersFeature } from './routes.ts';
