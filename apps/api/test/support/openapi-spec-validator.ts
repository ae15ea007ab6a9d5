import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'openapi-spec-validator.sh');

/** The first install of the validator (a virtualenv from PyPI) takes a few seconds. */
export const VALIDATOR_TIMEOUT_MS = 180_000;

/**
 * Runs openapi-spec-validator (PyPI) on a document: what it prints, empty when the document is valid. Every error
 * is listed, not only the first, so a failing test shows them all.
 */
export async function openApiSpecErrors(document: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  const file = path.join(dir, 'openapi.json');
  try {
    await writeFile(file, JSON.stringify(document));
    await promisify(execFile)(SCRIPT, ['--validation-errors', 'all', file], { timeout: VALIDATOR_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    return '';
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || message;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
