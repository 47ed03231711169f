import type { DocumentRecord } from '@panya/core';

/** The public shape of a document: no internal tenant id. */
export function documentJson({ tenantId: _tenant, ...doc }: DocumentRecord) {
  return doc;
}
