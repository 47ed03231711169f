import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEmbedderConformance } from '@panya/core/testing';
import { describe } from 'vitest';
import { LocalEmbedder } from '../src/index.js';

// shared/ sits beside the repository checkout (<root>/main and <root>/shared), or PANYA_SHARED_DIR.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const modelsDir = path.resolve(process.env.PANYA_SHARED_DIR ?? path.resolve(repoRoot, '../shared'), 'models');
const present = existsSync(path.join(modelsDir, 'tiny-random-bert', 'onnx', 'model.onnx'));
if (!present) console.warn(`LocalEmbedder conformance skipped: model fixture not found at ${path.join(modelsDir, 'tiny-random-bert')} (set PANYA_SHARED_DIR to the shared/ folder to run it).`);

describe.skipIf(!present)('LocalEmbedder (tiny-random-bert fixture)', () => {
  // Batched inference pads shorter texts: float noise between a batch and one-by-one runs.
  describeEmbedderConformance(
    'local ONNX',
    () => LocalEmbedder.create({ model: 'tiny-random-bert', dtype: 'fp32', localModelPath: modelsDir, allowRemoteModels: false, maxBatch: 3 }),
    { tolerance: 1e-4, cleanup: (embedder) => (embedder as LocalEmbedder).dispose() },
  );
});
