/**
 * English stopwords removed by `tokenize()` before stemming.
 *
 * Why only English: BM25's IDF already discounts frequent words in every language; an explicit list
 * matters for English because it is our main corpus language and because the hash embedder (which
 * has no corpus statistics) would otherwise spend most of its mass on function words. The list is
 * the classic function-word set (articles, pronouns, auxiliaries, prepositions, conjunctions).
 * Negations ("not", "no") are kept on purpose: in claims like "X does not cause Y" they are weak but
 * non-zero evidence, and they are rare enough that IDF keeps their weight small.
 * Entries are in normalised form (lowercase, apostrophes removed as `tokenize()` does).
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as',
  'at', 'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can',
  'could', 'did', 'do', 'does', 'doing', 'down', 'during', 'each', 'few', 'for', 'from', 'further',
  'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him', 'himself', 'his',
  'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just', 'me', 'more', 'most', 'my',
  'myself', 'of', 'off', 'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'ourselves', 'out',
  'over', 'own', 'same', 'she', 'should', 'so', 'some', 'such', 'than', 'that', 'the', 'their',
  'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this', 'those', 'through', 'to',
  'too', 'under', 'until', 'up', 'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which',
  'while', 'who', 'whom', 'why', 'will', 'with', 'would', 'you', 'your', 'yours', 'yourself',
  'yourselves', 'also', 'may', 'might', 'must', 'shall', 'upon', 'via', 'whether', 'within',
  'without', 'among', 'eg', 'ie', 'etc', 'im', 'ive', 'youre', 'theyre', 'its', 'thats', 'theres',
  'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt', 'werent', 'cant', 'wont',
]);
