export * from './ports/record.js';
export * from './rules.js';
export * from './state.js';
export * from './validate.js';
export * from './reserved.js';
