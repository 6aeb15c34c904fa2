// Answer types read from the server's own routers, so a change to what a route answers breaks the client
// at compile time instead of in a browser. Types only: nothing of the server reaches a browser bundle.
// Why not Hono's `hc` client: docs/decisions/0021-typed-api-client.md.
import type { Hono } from 'hono';
import type { SuccessStatusCode } from 'hono/utils/http-status';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any router's env and base path
type AnyRouter = Hono<any, any, any>;
type RouterFactory = (...args: never[]) => AnyRouter;

/** The route table of the router a feature's factory (`imagesRoutes`, …) builds. */
export type RoutesOf<Factory extends RouterFactory> = ReturnType<Factory> extends Hono<infer _Env, infer Schema, infer _Base> ? Schema : never;

/** The JSON outputs of an endpoint's answers whose status may be a success (a plain `c.json` may be any). */
type JsonOutputs<Endpoint> = Endpoint extends { status: infer Status; outputFormat: 'json'; output: infer Output }
  ? [Extract<Status, SuccessStatusCode>] extends [never]
    ? never
    : Output
  : never;

/**
 * Drops the one error shape (`{ message, errors? }`, docs/content-api.md 'Common rules'): a shared error
 * helper answers it with a status typed as "any status", so it would otherwise join every success.
 */
type WithoutErrorShape<Output> = Output extends object ? ([Exclude<keyof Output, 'message' | 'errors'>] extends [never] ? never : Output) : Output;

/**
 * What `method` on `path` of the feature's router answers when it succeeds. A route whose success the
 * compiler cannot see (a handler typed as a plain Response) reads as the one field every answer has.
 */
export type Answer<Factory extends RouterFactory, Path extends keyof RoutesOf<Factory>, Method extends keyof RoutesOf<Factory>[Path]> = [
  WithoutErrorShape<JsonOutputs<RoutesOf<Factory>[Path][Method]>>,
] extends [never]
  ? { message: string }
  : WithoutErrorShape<JsonOutputs<RoutesOf<Factory>[Path][Method]>>;

/**
 * `Output` with `Keys` always present: for answers whose handler writes `row && present(row)` only to
 * satisfy the compiler after a write that has just returned the row.
 */
export type WithDefined<Output, Keys extends keyof Output> = Omit<Output, Keys> & { [Key in Keys]-?: NonNullable<Output[Key]> };
