import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The rule ids a probe file raises when linted as a workspace's `npm run lint` lints: from its folder, the root config. */
async function lintInWorkspace(workspace: string, file: string, text: string): Promise<(string | null)[]> {
  const cwd = path.join(repoRoot, workspace);
  // The probe is no file on disk, so no TypeScript project holds it: the rules that need type information stay off.
  const eslint = new ESLint({ cwd, overrideConfigFile: path.join(repoRoot, 'eslint.config.mjs'), overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(text, { filePath: path.join(cwd, file) });
  return result.messages.map((message) => message.ruleId);
}

// The architecture's lint rules name folders from the repository root; each workspace lints from its own folder.
describe('the lint rules hold in every workspace', () => {
  it('refuses SQL run outside persistence’s query', async () => {
    const probe = "declare const db: { query(text: string): void };\ndb.query('SELECT 1');\nexport {};\n";
    expect(await lintInWorkspace('packages/messaging', 'src/probe.ts', probe)).toContain('no-restricted-syntax');
    expect(await lintInWorkspace('apps/api', 'test/probe.ts', probe)).toContain('no-restricted-syntax');
  }, 30_000);

  it('keeps packages/domain free of database and framework code', async () => {
    expect(await lintInWorkspace('packages/domain', 'src/probe.ts', "import 'pg';\nexport {};\n")).toContain('no-restricted-imports');
  }, 30_000);
});
