// Lint with type information, plus the boundary rules of the architecture:
// apps never import other apps, packages are imported by name from their root,
// and packages/domain imports no framework, broker or HTTP code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const deepPackageImports = { group: ['@storage/*/*'], message: 'Import a package from its root only.' };
// One way to reach the database: SQL runs through @storage/persistence's query(db, sql<Row>(…), values), in every
// workspace's sources, tests and benches; only query itself and the migrations (TypeORM's QueryRunner) call `.query(`.
const queryThroughPersistence = ['apps', 'packages', 'tools'].map((root) => `${root}/*/{src,test,bench}/**/*.ts`);
const queryItself = [
  'packages/persistence/src/query.ts',
  'packages/persistence/src/transaction-in-one-round-trip.ts',
  'packages/persistence/src/migrations/**',
];
const runThroughPersistence = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
  message: 'Run SQL with query(db, sql<Row>(text), values) of @storage/persistence: bound values, typed rows, RETURNING rows answered.',
};
// A package exports typed operations, typed statements (sql<Row, Values>) or typed fragments (fragment()), never SQL
// as a bare string: a constant, an object of them, or a function answering one (issue 38). SQL is written with
// upper-case keywords, which tells it from prose (AS: a select list, spliced into another statement).
const SQL_TEXT = '/\\b(SELECT|INSERT INTO|UPDATE|DELETE FROM|WITH|FROM|JOIN|WHERE|AS)\\b/';
const exported = 'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator';
const noBareSqlExports = [
  `${exported} > TemplateLiteral > TemplateElement[value.raw=${SQL_TEXT}]`,
  `${exported} > Literal[value=${SQL_TEXT}]`,
  `${exported} > ObjectExpression > Property > TemplateLiteral > TemplateElement[value.raw=${SQL_TEXT}]`,
  `${exported} > ArrowFunctionExpression > TemplateLiteral > TemplateElement[value.raw=${SQL_TEXT}]`,
  `ExportNamedDeclaration > FunctionDeclaration > BlockStatement > ReturnStatement > TemplateLiteral > TemplateElement[value.raw=${SQL_TEXT}]`,
].map((selector) => ({
  selector,
  message: 'A package exports no SQL text: export a typed operation, a sql<Row, Values>() statement, or a fragment() for a one-statement write of two owners.',
}));
const otherApps = {
  group: ['**/apps/*', '../../*/src/*', '@storage/api', '@storage/webhook-dispatcher', '@storage/delinquency-scheduler'],
  message: 'Apps never import other apps.',
};

// Every workspace lints from its own folder (`eslint --config ../../eslint.config.mjs src test`), where ESLint would
// read `files` and `ignores` from that folder; the repository root as every object's base keeps the paths below true.
export default tseslint
  .config(
    // Plain JavaScript is not linted, except the api benchmark scripts (run by node as they are).
    { ignores: ['**/dist/**', '**/node_modules/**', '**/*.js', '!apps/api/bench/*.js', '**/*.mjs', '.data/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
      languageOptions: {
        globals: globals.node,
        parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      },
      rules: {
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
        '@typescript-eslint/no-extraneous-class': 'off',
        '@typescript-eslint/require-await': 'off',
        'no-restricted-imports': ['error', { patterns: [deepPackageImports, otherApps] }],
      },
    },
    {
      files: ['packages/domain/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              deepPackageImports,
              otherApps,
              {
                group: ['@nestjs/*', 'kafkajs', 'typeorm', 'pg', 'fastify', 'undici', 'node:http', 'node:https', 'http', 'https', '@storage/*'],
                message: 'packages/domain is pure: no NestJS, Kafka, database or HTTP code.',
              },
            ],
          },
        ],
      },
    },
    {
      files: queryThroughPersistence,
      ignores: queryItself,
      rules: { 'no-restricted-syntax': ['error', runThroughPersistence] },
    },
    {
      files: ['packages/*/src/**/*.ts'],
      ignores: queryItself,
      rules: { 'no-restricted-syntax': ['error', runThroughPersistence, ...noBareSqlExports] },
    },
    {
      files: ['apps/api/bench/*.js'],
      ...tseslint.configs.disableTypeChecked,
      languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'commonjs', globals: globals.node },
      rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
    },
    {
      files: ['**/test/**/*.ts'],
      rules: {
        '@typescript-eslint/no-unsafe-assignment': 'off',
        '@typescript-eslint/no-unsafe-member-access': 'off',
        '@typescript-eslint/no-unsafe-argument': 'off',
        '@typescript-eslint/no-non-null-assertion': 'off',
        '@typescript-eslint/unbound-method': 'off',
      },
    },
  )
  .map((config) => ({ basePath: import.meta.dirname, ...config }));
