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

/**
 * The layers of src/, lowest first. A folder (or a file at src/'s root) may import what lies in the
 * layers below its own, never what lies beside it or above: no import cycle between folders can form,
 * and a wrong-way import fails `npm run check`. ARCHITECTURE.md explains each layer. The folders of a
 * layer with `frontDoors` are domains: others import one only through its index.ts.
 */
const LAYERS = [
  { name: 'kernel', folders: ['shared', 'content'], files: ['config'] },
  { name: 'access', folders: ['access'] },
  { name: 'database', folders: ['db'] },
  { name: 'platform', folders: ['http', 'automation', 'media'] },
  { name: 'platform services', folders: ['email', 'metrics', 'backup', 'ai-models'] },
  {
    name: 'numbers, tags and workspaces',
    frontDoors: true,
    folders: ['channels', 'tags', 'workspaces', 'quick-replies'],
  },
  {
    name: 'people, contacts and templates',
    frontDoors: true,
    folders: ['accounts', 'contacts', 'notifications', 'templates', 'triggers'],
  },
  { name: 'event outbox', frontDoors: true, folders: ['outgoing', 'dropdowns'] },
  { name: 'messages', frontDoors: true, folders: ['messages'] },
  {
    name: 'work on messages',
    frontDoors: true,
    folders: [
      'inbox',
      'campaigns',
      'sequences',
      'flows',
      'opt-out',
      'csat',
      'business-hours',
      'workspace-events',
      'groups',
      'flows-endpoint',
      'whatsapp-flows',
      'knowledge',
    ],
  },
  {
    name: 'work on conversations',
    frontDoors: true,
    folders: ['conversations', 'routing', 'reports', 'copilot', 'assistant'],
  },
  { name: 'reception', frontDoors: true, folders: ['reception'] },
  { name: 'adapters', frontDoors: true, folders: ['whatsapp'] },
  { name: 'surfaces', folders: ['mcp', 'dashboard', 'portability'] },
  // The application's assembly, one file a layer: the services, the routes over them, the server, the app.
  { name: 'services', files: ['services'] },
  { name: 'routes', files: ['routes'] },
  { name: 'server', files: ['server'] },
  { name: 'application', files: ['app'] },
  { name: 'entry points', folders: ['cli'], files: ['database-wait'] },
  { name: 'process', files: ['main'] },
];

/** Files that only tests load: they may reach anywhere. */
const TEST_FILES = ['**/*.test.ts', '**/*.fixtures.ts', '**/*-fixtures.ts'];

const either = (names) => names.join('|');
const FRONT_DOOR_MESSAGE = 'a domain is imported through its front door, its index.ts (ARCHITECTURE.md)';

/** One lint config per layer member: the imports of the same or a higher layer are refused, with why. */
function layerConfigs() {
  return LAYERS.flatMap((layer, index) => {
    const members = [
      ...(layer.folders ?? []).map((folder) => ({ name: `src/${folder}/`, files: [`src/${folder}/**/*.ts`], folder })),
      ...(layer.files ?? []).map((file) => ({ name: `src/${file}.ts`, files: [`src/${file}.ts`], file })),
    ];
    const higher = LAYERS.slice(index);
    return members.map((member) => {
      const folders = higher.flatMap((l) => l.folders ?? []).filter((f) => f !== member.folder);
      const files = higher.flatMap((l) => l.files ?? []).filter((f) => f !== member.file);
      const up = member.folder ? '(\\.\\./)+' : '\\./';
      const message = `${member.name} is in the layer "${layer.name}": it may import only the layers below it (eslint.config.js, LAYERS; ARCHITECTURE.md)`;
      const doors = LAYERS.slice(0, index).flatMap((l) => (l.frontDoors ? l.folders : []));
      const patterns = [
        ...(doors.length > 0
          ? [{ regex: `^${up}(${either(doors)})/(?!index\\.js$)`, message: FRONT_DOOR_MESSAGE }]
          : []),
        ...(folders.length > 0 ? [{ regex: `^${up}(${either(folders)})/`, message }] : []),
        ...(files.length > 0 ? [{ regex: `^${up}(${either(files)})\\.js$`, message }] : []),
      ];
      return { files: member.files, ignores: TEST_FILES, patterns };
    });
  });
}

/** A migration is frozen: it carries everything it does, so it does the same on every database whatever
 * the application becomes. It may name the schema's types, nothing of the application's values. */
const FROZEN_MIGRATION = {
  group: ['../*', '../../**'],
  allowTypeImports: true,
  message: 'a migration contains what it needs; copy the value in (types may be imported)',
};

const restrictedImports = (patterns) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'data',
      '.build',
      'coverage',
      'bin',
      'eslint.config.js',
      'web/dist',
      'test-artifacts',
      'web/src/api/schema.ts',
    ],
  },
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
  ...layerConfigs().map(({ files, ignores, patterns }) => ({ files, ignores, rules: restrictedImports(patterns) })),
  // A config's rule replaces the one before it for the same files: a migration keeps its layer's patterns too.
  {
    files: ['src/db/migrations/*.ts'],
    rules: restrictedImports([
      FROZEN_MIGRATION,
      ...layerConfigs().find(({ files }) => files[0] === 'src/db/**/*.ts').patterns,
    ]),
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
