import { findUnstorableText } from '@esign/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

/**
 * What to coerce in a value: a number, boolean, bigint or date (as zod's `z.coerce` does), the
 * fields of an object, or the elements of an array. `nullable`: null is let through as it is.
 */
type Coercion =
  | { kind: 'number' | 'boolean' | 'bigint' | 'date'; nullable: boolean }
  | { kind: 'object'; fields: [string, Coercion][]; nullable: boolean }
  | { kind: 'array'; element: Coercion; nullable: boolean };

/** How a route's procedure input is built from a request, worked out once from its input schema. */
export interface InputPlan {
  /** The procedure takes no input (`z.void()`): it gets `undefined`. */
  none: boolean;
  /** Top-level keys whose schema is an array: a single `?key=value` becomes `[value]`. */
  arrays: string[];
  /** The input object's coercion, or null when nothing in it is coerced. */
  coerce: Coercion | null;
}

interface Def {
  type: string;
  coerce?: boolean;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
}

const defOf = (schema: z.core.$ZodType) => schema._zod.def as Def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault']);

/**
 * The schema under the wrappers that do not change a value's shape (optional, nullable, default,
 * prefault, lazy; at the top, a pipe's input, or its output after a preprocess): where the REST
 * input rules look for an object.
 */
function unwrapTop(schema: z.core.$ZodType): z.core.$ZodType {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return unwrapTop(def.innerType!);
  if (def.type === 'lazy') return unwrapTop(def.getter!());
  if (def.type === 'pipe') return unwrapTop(defOf(def.out!).type === 'transform' ? def.in! : def.out!);
  return schema;
}

/**
 * The coercion of a value of this schema, or null if nothing in it is coerced. Numbers, booleans,
 * bigints and dates are coerced where they sit directly in an object field, an array, or the
 * wrappers above (not inside unions, pipes or records), and not where the schema coerces itself
 * already (`IdParam`): zod then does it, and the input the procedure sees keeps the client's text.
 */
function coercionOf(schema: z.core.$ZodType, nullable = false): Coercion | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return coercionOf(def.innerType!, nullable);
    case 'nullable':
      return coercionOf(def.innerType!, true);
    case 'lazy':
      return coercionOf(def.getter!(), nullable);
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'date':
      return def.coerce ? null : { kind: def.type, nullable };
    case 'array': {
      const element = coercionOf(def.element!);
      return element && { kind: 'array', element, nullable };
    }
    case 'object': {
      const fields: [string, Coercion][] = [];
      for (const [key, field] of Object.entries(def.shape!)) {
        const coercion = coercionOf(field);
        if (coercion) fields.push([key, coercion]);
      }
      return fields.length > 0 ? { kind: 'object', fields, nullable } : null;
    }
    default:
      return null;
  }
}

const isArraySchema = (schema: z.core.$ZodType) => {
  const def = defOf(schema);
  return def.type === 'array' || (def.type === 'optional' && defOf(def.innerType!).type === 'array');
};

/**
 * The input rules of the REST API, which clients rely on (they are trpc-to-openapi's, which served
 * it first): query strings give strings, so numbers and booleans are coerced, in JSON bodies too,
 * and a key whose schema is an array takes a single query value as a one-element array.
 */
export function inputPlan(schema: z.core.$ZodType | undefined): InputPlan {
  if (!schema) return { none: false, arrays: [], coerce: null };
  const top = unwrapTop(schema);
  const type = defOf(top).type;
  if (type === 'void' || type === 'undefined' || type === 'never')
    return { none: true, arrays: [], coerce: null };
  if (type !== 'object') return { none: false, arrays: [], coerce: null };
  const shape = defOf(top).shape!;
  return {
    none: false,
    arrays: Object.keys(shape).filter((key) => isArraySchema(shape[key]!)),
    coerce: coercionOf(top),
  };
}

/** One value of a coerced kind, as `z.coerce` turns it (a value that cannot be turned stays). */
function coerceLeaf(kind: 'number' | 'boolean' | 'bigint' | 'date', value: unknown): unknown {
  // Text PostgreSQL cannot store is refused by name (core's validation), not turned into a number.
  if (typeof value === 'string' && findUnstorableText(value)) return value;
  try {
    if (kind === 'number') return Number(value);
    if (kind === 'boolean') return Boolean(value);
    if (kind === 'bigint') return BigInt(value as string);
    return new Date(value as string);
  } catch {
    return value;
  }
}

/** A copy of `value` with its coerced parts turned; absent keys stay absent. */
function coerce(coercion: Coercion, value: unknown): unknown {
  if (value === undefined || (value === null && coercion.nullable)) return value;
  if (coercion.kind === 'array') {
    return Array.isArray(value) ? value.map((element) => coerce(coercion.element, element)) : value;
  }
  if (coercion.kind === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = { ...value };
    for (const [key, field] of coercion.fields) {
      if (Object.hasOwn(copy, key) && copy[key] !== undefined) copy[key] = coerce(field, copy[key]);
    }
    return copy;
  }
  return coerceLeaf(coercion.kind, value);
}

/** The query string, one value per key where there is one; empty values are left out. */
function queryOf(request: FastifyRequest): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.query as Record<string, unknown>)) {
    if (value) query[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  return query;
}

/**
 * The procedure input of a REST request: the JSON body (the query string for GET and DELETE) with
 * the path parameters over it, arrays and coercions as the route's plan says.
 */
export function restInput(plan: InputPlan, request: FastifyRequest, params: Record<string, string>): unknown {
  if (plan.none) return undefined;
  const fromQuery = request.method === 'GET' || request.method === 'DELETE';
  const input: Record<string, unknown> = {
    ...(fromQuery ? queryOf(request) : (request.body as Record<string, unknown> | undefined)),
    ...params,
  };
  if (fromQuery) {
    for (const key of plan.arrays) {
      if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
    }
  }
  return plan.coerce ? coerce(plan.coerce, input) : input;
}
