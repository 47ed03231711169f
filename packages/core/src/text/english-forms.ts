/**
 * English word forms a suffix stemmer cannot join to their base: irregular past tenses and
 * participles ("hidden" → hide, "sold" → sell) and the noun of a verb that changes its vowel
 * ("sales" → sell). The Porter stem of each form is mapped to the stem of its base, so "How long
 * does it stay hidden?" finds "Hide an item", and "Can I still sell…?" finds "…card sales".
 *
 * Forms that are also common words of another meaning are left out ("left", "found", "saw",
 * "lead", "felt", "rose", "ground", "won").
 */
import { stemmer } from 'stemmer';

const FORMS: Record<string, readonly string[]> = {
  arise: ['arose', 'arisen'],
  begin: ['began', 'begun'],
  bring: ['brought'],
  build: ['built'],
  buy: ['bought'],
  catch: ['caught'],
  choose: ['chose', 'chosen', 'choice'],
  come: ['came'],
  deal: ['dealt'],
  draw: ['drew', 'drawn'],
  drive: ['drove', 'driven'],
  eat: ['eaten'],
  fall: ['fallen'],
  fly: ['flew', 'flown'],
  forget: ['forgot', 'forgotten'],
  forgive: ['forgave', 'forgiven'],
  freeze: ['froze', 'frozen'],
  get: ['got', 'gotten'],
  give: ['gave', 'given'],
  go: ['went', 'gone'],
  grow: ['grew', 'grown'],
  hear: ['heard'],
  hide: ['hid', 'hidden'],
  hold: ['held'],
  keep: ['kept'],
  know: ['knew', 'known'],
  lend: ['lent'],
  lose: ['lost', 'loss'],
  make: ['made'],
  mean: ['meant'],
  meet: ['met'],
  pay: ['paid'],
  rebuild: ['rebuilt'],
  ring: ['rang', 'rung'],
  rise: ['risen'],
  run: ['ran'],
  say: ['said'],
  see: ['seen'],
  sell: ['sold', 'sale', 'sales'],
  send: ['sent'],
  shake: ['shook', 'shaken'],
  show: ['shown'],
  shrink: ['shrank', 'shrunk'],
  sleep: ['slept'],
  speak: ['spoke', 'spoken'],
  spend: ['spent'],
  stand: ['stood'],
  steal: ['stole', 'stolen'],
  stick: ['stuck'],
  take: ['took', 'taken'],
  teach: ['taught'],
  tear: ['tore', 'torn'],
  tell: ['told'],
  think: ['thought'],
  throw: ['threw', 'thrown'],
  understand: ['understood'],
  undo: ['undid', 'undone'],
  wake: ['woke', 'woken'],
  wear: ['wore', 'worn'],
  withdraw: ['withdrew', 'withdrawn'],
  write: ['wrote', 'written'],
};

const BASE_STEM = new Map<string, string>();
for (const [base, forms] of Object.entries(FORMS)) {
  for (const form of forms) BASE_STEM.set(stemmer(form), stemmer(base));
}

/** The stem of a term's base word when the term is an irregular form, else the term itself. */
export function baseStem(term: string): string {
  return BASE_STEM.get(term) ?? term;
}
