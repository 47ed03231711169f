/**
 * The chunk text an embedder sees: where the passage sits, then the passage. Ingest embeds it,
 * and so does a query-time index for chunks it has no vector for yet.
 */
export function embeddingText(title: string, headingPath: string[], text: string): string {
  const heading = headingPath.filter((h) => h !== title).join(' > ');
  return [title, heading, text].filter(Boolean).join('\n');
}
