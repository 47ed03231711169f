#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  process.stderr.write(`panya: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
