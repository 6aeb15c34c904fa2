// Astro's client types (`?url` imports, `astro:config/*`, import.meta.env) for `tsc`, which runs before
// `astro check` in `npm test`: on a fresh clone the generated .astro/types.d.ts does not exist yet.
/// <reference types="astro/client" />
