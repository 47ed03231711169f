export { buildProgram } from './program.js';
export { startServer, type RunningServer } from './commands/serve.js';
export { demoCommand } from './commands/demo.js';
export { loadEnv, ConfigError, isConfigError } from './config.js';
export { runEval, formatEval, type EvalReport } from './commands/eval.js';
