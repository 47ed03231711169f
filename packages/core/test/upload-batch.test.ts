import { openSqliteStore } from '@panya/store-sqlite';
import { describe, expect, it } from 'vitest';
import { createEngine, type Store } from '../src/index.js';

/** `documents.upload` writes its batch with `insertMany` when the store has it, else one transaction of inserts. */
describe.each([
  ['a store with insertMany', (store: Store) => store],
  ['a store without it (one transaction of inserts)', (store: Store) => (Object.defineProperty(store.documents, 'insertMany', { value: undefined }), store)],
])('upload through %s', (_name, adapt) => {
  it('creates every file as a pending document and answers the records it wrote', async () => {
    const engine = createEngine({ store: adapt(openSqliteStore({ path: ':memory:' })) });
    try {
      await engine.tenancy.createTenant({ slug: 'acme', plan: 'business' });
      const ctx = (await engine.access.system('acme'))._unsafeUnwrap();
      const files = [{ title: 'One', contentMd: '# One\n\nfirst' }, { title: 'Two', contentMd: '# Two\n\nsecond' }];
      const created = (await engine.documents.upload(ctx, { files, publicSurfaces: 'help_center' }))._unsafeUnwrap();
      expect(created.map((d) => [d.title, d.status, d.publicSurfaces])).toEqual([['One', 'pending', ['help_center']], ['Two', 'pending', ['help_center']]]);
      const stored = (await engine.documents.get(ctx, created[1]!.id))._unsafeUnwrap();
      expect(stored.contentMd).toBe('# Two\n\nsecond');
      // An unknown surface is refused and nothing is written.
      expect((await engine.documents.upload(ctx, { files, publicSurfaces: 'nowhere' })).isErr()).toBe(true);
      expect((await engine.documents.list(ctx, {}))._unsafeUnwrap().items).toHaveLength(2);
    } finally {
      await engine.close();
    }
  });
});
