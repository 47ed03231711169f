import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AbortTransaction,
  EmbedderMismatchError,
  errors,
  isAbortTransaction,
  isEmbedderMismatchError,
  isStoreConflict,
  isUpstreamError,
  StoreConflictError,
  UpstreamError,
} from '@panya/core';
import { ConversionLimitError, isConversionLimitError, isUnsupportedMediaTypeError, UnsupportedMediaTypeError } from '@panya/convert';
import { EdgeConfigError, isEdgeConfigError } from '@panya/edge';
import { isStripeConfigError, StripeConfigError } from '@panya/payment-stripe';
import { ConfigError, isConfigError } from '@panya/cli';
import { CommandError, isCommandError } from '../src/commands/tenant.js';
import { isUploadTooLargeError, UploadTooLargeError } from '../../adapter-express/src/upload/storage.js';
import { isPanyaApiError, PanyaApiError } from '../../client/src/index.js';
import { ApiError, isApiError } from '../../admin/src/api-error.js';

/** Every error class of every package: an instance, its marker, and its one recogniser. */
const CLASSES: { name: string; make: () => Error; marker: string; is: (e: unknown) => boolean; cls: new (...args: never[]) => Error }[] = [
  { name: 'StoreConflictError', make: () => new StoreConflictError('dup'), marker: 'panya.error.store-conflict', is: isStoreConflict, cls: StoreConflictError },
  { name: 'AbortTransaction', make: () => new AbortTransaction(errors.conflict('x')), marker: 'panya.error.abort-transaction', is: isAbortTransaction, cls: AbortTransaction },
  { name: 'EmbedderMismatchError', make: () => new EmbedderMismatchError({ embedderId: 'a', dimension: 1 }, { embedderId: 'b', dimension: 2 }), marker: 'panya.error.embedder-mismatch', is: isEmbedderMismatchError, cls: EmbedderMismatchError },
  { name: 'UpstreamError', make: () => new UpstreamError('p', 'down', true), marker: 'panya.error.upstream', is: isUpstreamError, cls: UpstreamError },
  { name: 'UnsupportedMediaTypeError', make: () => new UnsupportedMediaTypeError('a.exe'), marker: 'panya.error.unsupported-media-type', is: isUnsupportedMediaTypeError, cls: UnsupportedMediaTypeError },
  { name: 'ConversionLimitError', make: () => new ConversionLimitError('big', 'MAX_PDF_PAGES', 1), marker: 'panya.error.conversion-limit', is: isConversionLimitError, cls: ConversionLimitError },
  { name: 'UploadTooLargeError', make: () => new UploadTooLargeError(1), marker: 'panya.error.upload-too-large', is: isUploadTooLargeError, cls: UploadTooLargeError },
  { name: 'EdgeConfigError', make: () => new EdgeConfigError('PANYA_EDGE_PROVIDER', 'bad'), marker: 'panya.error.edge-config', is: isEdgeConfigError, cls: EdgeConfigError },
  { name: 'StripeConfigError', make: () => new StripeConfigError('PANYA_STRIPE_SECRET_KEY', 'bad'), marker: 'panya.error.stripe-config', is: isStripeConfigError, cls: StripeConfigError },
  { name: 'ConfigError', make: () => new ConfigError('bad'), marker: 'panya.error.config', is: isConfigError, cls: ConfigError },
  { name: 'CommandError', make: () => new CommandError('bad'), marker: 'panya.error.command', is: isCommandError, cls: CommandError },
  { name: 'PanyaApiError', make: () => new PanyaApiError(404, { type: 'about:blank', title: 'Not found', status: 404, code: 'not_found' } as never), marker: 'panya.error.api', is: isPanyaApiError, cls: PanyaApiError },
  { name: 'ApiError', make: () => new ApiError({ status: 401 } as never), marker: 'panya.error.admin-api', is: isApiError, cls: ApiError },
];

/** What another copy of the package in the same process would construct: the same registry symbol, another prototype. */
const fromAnotherCopy = (marker: string) => Object.assign(new Error('elsewhere'), { [Symbol.for(marker)]: true });

describe('error classes carry Symbol.for markers', () => {
  it.each(CLASSES)('$name is recognised by its marker, from any copy of its package', ({ make, marker, is, cls }) => {
    expect(is(make())).toBe(true);
    expect(is(fromAnotherCopy(marker))).toBe(true);
    expect(fromAnotherCopy(marker)).toBeInstanceOf(cls);
  });

  it.each(CLASSES)('$name does not take a lookalike or another class for one', ({ name, is, cls, make }) => {
    const lookalike = Object.assign(new Error('x'), { name });
    expect(is(lookalike)).toBe(false);
    expect(lookalike).not.toBeInstanceOf(cls);
    for (const other of CLASSES.filter((c) => c.name !== name)) expect(is(other.make())).toBe(false);
    expect(make()).toBeInstanceOf(Error);
  });

  it('no package source recognises one of these classes with instanceof', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const names = CLASSES.map((c) => c.name).join('|');
    const pattern = new RegExp(`instanceof (${names})\\b`);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry) && pattern.test(readFileSync(path, 'utf8'))) offenders.push(path.slice(root.length));
      }
    };
    for (const pkg of readdirSync(root)) {
      const src = join(root, pkg, 'src');
      if (statSync(join(root, pkg)).isDirectory() && readdirSync(join(root, pkg)).includes('src')) walk(src);
    }
    expect(offenders).toEqual([]);
  });
});
