import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import i18next from 'eslint-plugin-i18next';

/** Functions whose string arguments name code (a field, a permission, a route), not words for people. */
const CODE_CALLEES = [
  't',
  'field',
  'bind',
  'edited',
  'changed',
  'invalid',
  'fieldMessage',
  'can',
  'api',
  'action',
  'dashboard\\..+',
  'navigate',
  'go',
  'includes',
  'startsWith',
  'endsWith',
  'indexOf',
  'has',
  'get',
  'set',
  'querySelector',
  'getElementById',
  'addEventListener',
  'removeEventListener',
  'require',
];

/** JSX attributes whose text is code, not words for people. */
const CODE_ATTRIBUTES = [
  'class',
  'className',
  'style',
  'type',
  'key',
  'id',
  'href',
  'src',
  'name',
  'role',
  'for',
  'htmlFor',
  'lang',
  'dir',
  'autoComplete',
  'autocomplete',
  'inputMode',
  'enterKeyHint',
  'method',
  'rel',
  'target',
  'accept',
  'pattern',
  'step',
  'min',
  'max',
  'd',
  'viewBox',
  'fill',
  'stroke',
  'width',
  'height',
  'xmlns',
  'loading',
  'value',
  'defaultValue',
  'dateTime',
  'form',
  'list',
  'scope',
  'headers',
  'download',
  'sizes',
  'to',
  'path',
  'field',
  'tone',
  'kind',
  'size',
  'variant',
  'icon',
  'data-.*',
  'aria-controls',
  'aria-describedby',
  'aria-labelledby',
  'aria-live',
  'aria-current',
  'aria-haspopup',
  'aria-hidden',
  'aria-expanded',
  'aria-sort',
  'aria-invalid',
  'aria-pressed',
  'aria-selected',
];

export default tseslint.config(
  { ignores: ['node_modules', 'data', '.build', 'coverage', 'bin', 'eslint.config.js', 'web/dist', 'test-artifacts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The container's health check is plain JavaScript (run by node alone, every 30 s): typed by default.
        projectService: { allowDefaultProject: ['deploy/container/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // A migration is frozen: it carries everything it does, so it does the same on every database whatever
  // the application becomes. It may name the schema's types, nothing of the application's values.
  {
    files: ['src/db/migrations/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '../../**'],
              allowTypeImports: true,
              message: 'a migration contains what it needs; copy the value in (types may be imported)',
            },
          ],
        },
      ],
    },
  },
  // Every word the dashboard shows goes through the catalogs (web/src/i18n): a literal in JSX text or a
  // JSX attribute people read (label, title, placeholder, aria-label…) fails the lint.
  {
    files: ['web/src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { exclude: CODE_ATTRIBUTES },
          callees: { exclude: CODE_CALLEES },
          message: 'words for people go through t() and the catalogs',
        },
      ],
    },
  },
);
