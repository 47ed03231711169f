/**
 * Masks personal data in free text before it is kept for insights (the question log, feedback
 * comments): the same detection and markers as conversation redaction (`privacy/pii.ts`), so a
 * question reads the same whether the workspace redacted it on the way in or insights masked it.
 */
import { redactPersonalData } from '../privacy/pii.js';

/** `text` with e-mail addresses, card numbers, Thai national IDs and phone numbers replaced by a marker. */
export function maskPersonalData(text: string): string {
  return redactPersonalData(text).text;
}
