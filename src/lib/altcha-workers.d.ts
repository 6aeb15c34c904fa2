// Vite's `?worker` import of altcha's prebuilt worker script (see ./botcheck-solver.ts). Declared here so
// tsc knows the shape without pulling all of vite/client's ambient types into the project.
declare module 'altcha/workers/pbkdf2?worker' {
  const AltchaPbkdf2Worker: new (options?: { name?: string }) => Worker;
  export default AltchaPbkdf2Worker;
}
