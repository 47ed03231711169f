import { describe, expect, it } from 'vitest';
import { AbortTransaction, EmbedderMismatchError, errors, isPanyaError, isStoreConflict, StoreConflictError } from '@panya/core';

/** What another copy of core in the same process would construct: same registry symbol, other prototype. */
function fromAnotherCopy(marker: string, fields: Record<string, unknown> = {}) {
  return Object.assign(new Error('elsewhere'), { [Symbol.for(marker)]: true }, fields);
}

describe('error recognition', () => {
  it('recognises error classes by their registry marker, across copies of the package', () => {
    expect(fromAnotherCopy('panya.error.store-conflict')).toBeInstanceOf(StoreConflictError);
    expect(isStoreConflict(fromAnotherCopy('panya.error.store-conflict'))).toBe(true);
    expect(fromAnotherCopy('panya.error.abort-transaction')).toBeInstanceOf(AbortTransaction);
    expect(fromAnotherCopy('panya.error.embedder-mismatch')).toBeInstanceOf(EmbedderMismatchError);
  });

  it('does not take a lookalike for one', () => {
    const lookalike = Object.assign(new Error('dup'), { name: 'StoreConflictError', storeConflict: true });
    expect(lookalike).not.toBeInstanceOf(StoreConflictError);
    expect(isStoreConflict(lookalike)).toBe(false);
    expect(new StoreConflictError('dup')).not.toBeInstanceOf(AbortTransaction);
    expect(new AbortTransaction(errors.conflict('x'))).not.toBeInstanceOf(StoreConflictError);
    expect(isStoreConflict(new StoreConflictError('dup'))).toBe(true);
  });

  it('recognises domain errors by their marker only', () => {
    expect(isPanyaError(errors.notFound('Document'))).toBe(true);
    expect(isPanyaError({ code: 'not_found', message: 'Document not found.' })).toBe(false);
  });
});
