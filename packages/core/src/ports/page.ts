/** One page of a list, newest first unless the list says otherwise. */
export interface Page<T> {
  items: T[];
  /** Opaque; pass back to get the next page. Null on the last page. */
  nextCursor: string | null;
}
