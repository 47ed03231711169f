/**
 * Masks personal data in free text before it is kept for insights: e-mail addresses, payment
 * card numbers (Luhn-valid), Thai national ID numbers (valid check digit) and phone numbers.
 * Number checks keep ordinary numbers (order numbers, dates, amounts) readable: a 13-digit run
 * is an ID only when its check digit is right, a card only when the Luhn sum is.
 */

export const PERSONAL_DATA_MASKS = { email: '[email]', card: '[card]', thaiId: '[thai-id]', phone: '[phone]' } as const;

const EMAIL = /[\p{L}\p{M}\p{N}._%+-]+@[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)*\.\p{L}[\p{L}\p{M}]+/gu;
/** A run of digits that may be grouped by single spaces, dashes or dots, optionally after a `+`. */
const NUMBER_RUN = /(?<![\p{L}\p{N}])\+?\d(?:[ .-]?\d){7,22}(?![\p{L}\p{N}])/gu;

/** Thai national ID: 13 digits, the last being (11 − Σ dᵢ·(13 − i) mod 11) mod 10. */
export function isThaiNationalId(digits: string): boolean {
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (13 - i);
  return (11 - (sum % 11)) % 10 === Number(digits[12]);
}

/** Luhn check for payment card numbers (13–19 digits). */
export function isLuhnCard(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function maskNumber(run: string): string {
  const digits = run.replace(/\D/g, '');
  if (isThaiNationalId(digits)) return PERSONAL_DATA_MASKS.thaiId;
  if (isLuhnCard(digits)) return PERSONAL_DATA_MASKS.card;
  // Phones: a trunk prefix (0…) or an international one (+…), 9 to 15 digits in all.
  if ((run.startsWith('+') || run.startsWith('0')) && digits.length >= 9 && digits.length <= 15) return PERSONAL_DATA_MASKS.phone;
  return run;
}

/** `text` with e-mail addresses, card numbers, Thai national IDs and phone numbers replaced by a marker. */
export function maskPersonalData(text: string): string {
  return text.replace(EMAIL, PERSONAL_DATA_MASKS.email).replace(NUMBER_RUN, maskNumber);
}
