import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * The Panya API's paths and schemas as TypeScript types, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run \`pnpm --filter @panya/client generate\`.
 */
/* eslint-disable */
/** Any JSON value (metadata). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
`;

/**
 * The document describes free-form JSON (metadata) as a recursive schema; a type alias cannot
 * refer to itself inside \`components\`, so those become the named \`JsonValue\`.
 */
const RECURSIVE_JSON = /(\w+): string \| number \| boolean \| null \| components\["schemas"\]\["\1"\]\[\] \| \{\s*\[key: string\]: components\["schemas"\]\["\1"\];\s*\};/g;

/** The text of `src/schema.ts` for an OpenAPI document. */
export async function schemaSource(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as never, { exportType: true });
  return HEADER + astToString(ast).replace(RECURSIVE_JSON, '$1: JsonValue;');
}
