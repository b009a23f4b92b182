// What the no-unlocalized-strings lint (eslint.config.js, renderer/**/*.tsx) counts as interface
// text: every literal string in a component, except what is never shown to the person. Shared with
// test/unlocalized-files.test.ts, which runs the same rules over the files not converted yet.

/**
 * Not interface text: anything without a letter, ASCII tokens without spaces or capitals ('allow-once',
 * 'settings.get', 'sha256:', 'auto'; a lowercase one-word label slips through, a rare case), URLs,
 * and the product's name, which no language translates.
 */
export const NOT_UI_TEXT = ['^[!-@\\x5b-~]*$', '^(https?|file|data|mailto|ui):', '^Berth$'];
/** Attributes and property names whose strings are never shown (on components; native elements' are known to the rule). */
export const NOT_UI_NAMES = [
  'className',
  'class',
  'id',
  'htmlFor',
  'type',
  'role',
  'name',
  'key',
  'href',
  'src',
  'rel',
  'target',
  'tone',
  'variant',
  'size',
  'align',
  'side',
  'mode',
  'kind',
  'state',
  'status',
  'autoComplete',
  'inputMode',
  'lang',
  'dir',
  'testId',
  'data-testid',
  'accept',
  'pattern',
  'style',
  { regex: { pattern: '^data-' } },
  // aria-* that hold ids or tokens; aria-label, aria-description and aria-valuetext are words and stay checked.
  { regex: { pattern: '^aria-(?!label$|description$|roledescription$|valuetext$|placeholder$)' } },
  // SCREAMING_CASE constants are wire values and keys.
  { regex: { pattern: '^[A-Z0-9_]+$' } },
];
/** Calls whose strings are never shown: the catalog's own, class joining, the bridge, DOM and developer errors (bugs). */
export const NOT_UI_CALLS = [
  't',
  'translate',
  'clsx',
  'cx',
  'useBerth',
  '*.call',
  'transport.*',
  'console.*',
  'Error',
  'TypeError',
  'import',
  'lazy',
  'document.*',
  'window.*',
  '*.addEventListener',
  '*.removeEventListener',
  '*.querySelector',
  '*.querySelectorAll',
  '*.closest',
  '*.getAttribute',
  '*.setAttribute',
  '*.hasAttribute',
  '*.getItem',
  '*.setItem',
  '*.startsWith',
  '*.endsWith',
  '*.includes',
  '*.split',
  '*.join',
  '*.replace',
  '*.get',
  '*.toLocaleString',
  '*.has',
  'matchMedia',
  'new URL',
  'URL',
  'Intl.*',
];

/**
 * The rules, as eslint.config.js applies them (with eslint-plugin-lingui registered as `lingui`).
 * @type {import('eslint').Linter.RulesRecord}
 */
export const LOCALIZED_TEXT_RULES = {
  'lingui/no-unlocalized-strings': [
    'error',
    { ignore: NOT_UI_TEXT, ignoreNames: NOT_UI_NAMES, ignoreFunctions: NOT_UI_CALLS },
  ],
  // The rule trusts every attribute of native elements but placeholder, alt, aria-label and value; a title is words too.
  'no-restricted-syntax': [
    'error',
    {
      selector:
        'JSXAttribute[name.name=/^(title|label|aria-description|aria-valuetext)$/] > Literal[value=/[^!-@\\x5b-~]/]',
      message: 'This attribute is read by the person: take its words from the catalog (useT()).',
    },
  ],
};
