export { createPanyaApp, type PanyaAppOptions } from './app.js';
export { toProblem, type Problem } from './problem.js';
