export { buildProgram } from './program.js';
export { startServer, type RunningServer } from './commands/serve.js';
export { demoCommand } from './commands/demo.js';
export { loadEnv, ConfigError, isConfigError, type EnvConfig } from './config.js';
export { createPanyaFromEnv, panyaAppOptionsFromEnv, type PanyaFromEnvOptions } from './from-env.js';
export { runEval, formatEval, type EvalReport } from './commands/eval.js';
