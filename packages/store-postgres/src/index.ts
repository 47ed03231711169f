/**
 * Placeholder: this package is reserved and ships no API yet.
 */
export {};
