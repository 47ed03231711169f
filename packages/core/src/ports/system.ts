/** Time, ids and logs: injected so tests control them. */
export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new id with a type prefix, e.g. `doc_…`; ids sort by creation time. */
  next(prefix: IdPrefix): string;
}

export type IdPrefix = 'ten' | 'ws' | 'key' | 'doc' | 'chk' | 'evt' | 'usr' | 'mem' | 'conv' | 'msg' | 'req' | 'job' | 'hn' | 'res' | 'flow' | 'frun' | 'tkt' | 'cmt' | 'per' | 'vis' | 'cus' | 'cans' | 'evs' | 'evq' | 'evr' | 'qst' | 'fb';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}
