// Shared by playwright.config.ts and the browser tests: where the product under test runs.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password-1' };
