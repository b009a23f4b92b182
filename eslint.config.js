import { builtinModules } from 'node:module';
import js from '@eslint/js';
import lingui from 'eslint-plugin-lingui';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import {
  HOST_ENGLISH_ALLOWED,
  LOCALIZED_TEXT_RULES,
  MODULE_TEXT_RULES,
  VIEW_TEXT_RULES,
} from './test/localized-text-rules.mjs';
import { UNLOCALIZED_FILES } from './test/unlocalized-files.mjs';

const TS_FILES = ['**/*.{ts,tsx,mts,cts}'];
const SOURCE_EXT = '{ts,tsx,mts,cts,js,jsx,mjs,cjs}';

// ---------------------------------------------------------------------------
// Import boundaries between layers (see docs in shared/BRIEF.md):
//   shared/   pure TS: no Node, no electron, no React, no other layer
//   app/      plain Node host: no electron, no React, no shell or UI layer
//   main/, preload/  Electron: no renderer, no React
//   renderer/ browser only: no Node, no electron, no host or shell layer
// no-restricted-imports sees the import text, not the resolved file, so a
// relative import of another top-level folder is matched by its exact depth:
// from `renderer/features/x.ts`, `../../app/host` leaves the renderer but
// `../app/y` (renderer/app/y) does not.
// ---------------------------------------------------------------------------

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const NODE_BUILTINS = {
  regex: `^(?:node:.*|(?:${builtinModules.map(escapeRegex).join('|')})(?:/.*)?)$`,
  message: 'Node built-ins are not available in this layer.',
};
const ELECTRON = {
  regex: '^(?:electron|electron-.+|@electron/.+)$',
  message: 'Only main/ and preload/ may use Electron.',
};
const REACT = {
  regex: '^(?:react|react-.+|@[^/]+/react(?:-[^/]*)?|radix-ui|@radix-ui/.+)(?:/.*)?$',
  message: 'React and UI libraries belong in renderer/.',
};
// `a/../b` hides which folder an import really reaches, so the depth rule
// below could not see it; write the normalised path instead.
const UNNORMALISED = {
  regex: '(?:^|/)(?!\\.\\.?(?:/|$))[^/]+/(?:[^/]+/)*\\.\\.(?:/|$)',
  message: 'Write relative imports without ".." after a folder name, so layer rules can check them.',
};

/** A pattern matching relative imports of top-level `folders` from a file `depth` folders below the root. */
function otherLayers(folders, depth, why) {
  return {
    regex: `^(?:\\./)?(?:\\.\\./){${depth}}(?:${folders.join('|')})(?:/|$)`,
    message: why,
  };
}

const LAYERS = {
  shared: {
    bans: [NODE_BUILTINS, ELECTRON, REACT],
    folders: ['app', 'main', 'preload', 'renderer'],
    why: 'shared/ is the contract: it imports no other layer.',
  },
  app: {
    bans: [ELECTRON, REACT],
    folders: ['main', 'preload', 'renderer'],
    why: 'app/ is the host: it may import shared/ only, never the Electron shell or the UI.',
  },
  main: {
    bans: [REACT],
    folders: ['renderer'],
    why: 'main/ may import app/ and shared/, never the renderer.',
  },
  preload: {
    bans: [REACT],
    folders: ['renderer'],
    why: 'preload/ may import shared/ (and app/ types), never the renderer.',
  },
  renderer: {
    bans: [NODE_BUILTINS, ELECTRON],
    folders: ['app', 'main', 'preload'],
    why: 'renderer/ talks to the host only through shared/ and a Transport.',
  },
};

/**
 * no-restricted-imports checks static imports and re-exports only; this rule
 * applies the same patterns to `import('x')` and `require('x')` with a literal.
 */
const dynamicImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Apply the layer import patterns to import() and require().' },
    schema: [
      {
        type: 'object',
        properties: {
          patterns: {
            type: 'array',
            items: {
              type: 'object',
              properties: { regex: { type: 'string' }, message: { type: 'string' } },
              required: ['regex', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['patterns'],
        additionalProperties: false,
      },
    ],
    messages: { restricted: "'{{source}}' is restricted in this layer. {{message}}" },
  },
  create(context) {
    const patterns = context.options[0].patterns.map(({ regex, message }) => ({
      regex: new RegExp(regex, 'u'),
      message,
    }));
    const check = (node, sourceNode) => {
      if (sourceNode?.type !== 'Literal' || typeof sourceNode.value !== 'string') return;
      const source = sourceNode.value.trim();
      const hit = patterns.find(({ regex }) => regex.test(source));
      if (hit) context.report({ node, messageId: 'restricted', data: { source, message: hit.message } });
    };
    return {
      ImportExpression: (node) => check(node, node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node, node.arguments[0]);
      },
    };
  },
};

const berthPlugin = { meta: { name: 'berth' }, rules: { 'layer-dynamic-imports': dynamicImportsRule } };

// Deeper than any folder this repo will have; a file below it gets no layer rules.
const MAX_DEPTH = 16;

const layerConfigs = Object.entries(LAYERS).flatMap(([layer, { bans, folders, why }]) =>
  Array.from({ length: MAX_DEPTH }, (_, index) => {
    const depth = index + 1;
    const patterns = [...bans, otherLayers(folders, depth, why), UNNORMALISED];
    return {
      name: `berth/layers/${layer}/depth-${depth}`,
      files: [`${layer}/${'*/'.repeat(depth - 1)}*.${SOURCE_EXT}`],
      plugins: { berth: berthPlugin },
      rules: {
        'no-restricted-imports': ['error', { patterns }],
        'berth/layer-dynamic-imports': ['error', { patterns }],
      },
    };
  }),
);

const unusedVars = [
  'error',
  {
    argsIgnorePattern: '^_',
    varsIgnorePattern: '^_',
    caughtErrorsIgnorePattern: '^_',
    destructuredArrayIgnorePattern: '^_',
    ignoreRestSiblings: true,
  },
];

// ---------------------------------------------------------------------------
// Every word the person reads comes from the message catalog (renderer/i18n): a literal string in
// a component or a renderer module (a store's toast, a model's label) is an error unless it is not
// interface text (test/localized-text-rules.mjs). Files not converted yet are listed in
// test/unlocalized-files.mjs (the list only shrinks).
// ---------------------------------------------------------------------------

const localizationConfigs = [
  {
    name: 'berth/localized-text',
    files: ['renderer/**/*.tsx'],
    ignores: ['renderer/**/*.test.tsx', 'renderer/test-support/**', ...UNLOCALIZED_FILES],
    plugins: { lingui },
    rules: LOCALIZED_TEXT_RULES,
  },
  {
    name: 'berth/localized-module-text',
    files: ['renderer/**/*.ts'],
    ignores: ['renderer/**/*.test.ts', 'renderer/**/*.d.ts', 'renderer/test-support/**', ...UNLOCALIZED_FILES],
    plugins: { lingui },
    rules: MODULE_TEXT_RULES,
  },
  {
    // A failure's English message is not shown as it is: its code is worded (failureText, HostMessageText).
    name: 'berth/host-english-shown',
    files: ['renderer/features/**/*.{ts,tsx}'],
    ignores: ['renderer/**/*.test.{ts,tsx}', ...UNLOCALIZED_FILES, ...HOST_ENGLISH_ALLOWED],
    rules: VIEW_TEXT_RULES,
  },
];

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    'dist/',
    'release/',
    'coverage/',
    'test-results/',
    'playwright-report/',
    '.berth-test/',
  ]),
  {
    name: 'berth/files',
    files: [`**/*.${SOURCE_EXT}`],
    extends: [js.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: { 'no-unused-vars': unusedVars },
  },
  {
    name: 'berth/typescript',
    files: TS_FILES,
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': unusedVars,
    },
  },
  {
    name: 'berth/globals/node',
    files: [`{app,main,preload,scripts,e2e,test,bench}/**/*.${SOURCE_EXT}`, `*.config.${SOURCE_EXT}`],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The renderer, the sandboxed preload and Playwright's page callbacks run in a browser.
    name: 'berth/globals/browser',
    files: [`{renderer,preload,e2e}/**/*.${SOURCE_EXT}`],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...layerConfigs,
  ...localizationConfigs,
]);
