import type { TestAccount, TestApp } from './harness.ts';

/**
 * For every REST path parameter, how to make a resource owned by an account: the shared route
 * table uses it to prove another account's resource is a 404. A route whose parameter has no
 * factory here fails the contract test, so new endpoints cannot skip the common rules.
 */
export type ResourceFactory = (t: TestApp, owner: TestAccount) => Promise<string>;

export const resourceFactories: Record<string, ResourceFactory> = {};

/** A valid body for write routes, so that the rules run against a request that would otherwise work. */
export const sampleBodies: Record<string, (t: TestApp, owner: TestAccount) => Promise<unknown>> = {};
