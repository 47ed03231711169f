/** A workspace's privacy settings as its record keeps them (rules: `privacy/settings.ts`). */

/** An operator-defined pattern: a name (its marker is `[NAME]`) and an RE2 regular expression. */
export interface RedactionPattern {
  name: string;
  pattern: string;
}

export interface WorkspacePrivacy {
  /** Replace personal data before a message is stored or text reaches a model provider. */
  redactPii: boolean;
  patterns: RedactionPattern[];
  /** Conversations with no activity for this many days are purged by the retention job; null: kept. */
  retentionDays: number | null;
}
