// What the no-unlocalized-strings lint (eslint.config.js, renderer/**/*.tsx and renderer/**/*.ts
// but tests and test-support) counts as interface text: every string literal and template with
// words, in a component or in a module (a store's notice, a model's label, a validation message),
// except what is never shown to the person: the patterns, names and calls below. In a .ts module
// that means keys, ids, topic and method names, CSS, protocol names and values, console lines and
// `new Error(...)` for bugs pass; a sentence a store keeps or a function returns for the screen does
// not: it keeps a catalog id the component words with t(), or words it with translate() (see
// docs/ARCHITECTURE.md, Language). A line that is data, not words (an RFC 3339 value), carries a
// lint-disable comment for this rule that gives its reason. Shared
// with test/unlocalized-files.test.ts, which runs the same rules over the files not converted yet.

/**
 * Not interface text: anything without a letter, ASCII tokens without spaces or capitals ('allow-once',
 * 'settings.get', 'sha256:', 'auto'; a lowercase one-word label slips through, a rare case), camelCase
 * names and dotted ids that start lowercase ('chat.loadedToolsChanged', 'listChanged'), language tags
 * ('zh-TW', 'en-XA'), codes in capitals of four characters or more ('INTERNAL', 'NOT_FOUND'; 'OK' is
 * a button's word and stays checked), URLs, and the product's name, which no language translates.
 */
export const NOT_UI_TEXT = [
  '^[!-@\\x5b-~]*$',
  '^[a-z][A-Za-z0-9]*([./:_-][A-Za-z0-9]+)*$',
  '^[a-z]{2,3}(-[A-Z][A-Za-z]{1,3})$',
  '^[A-Z][A-Z0-9_]{3,}$',
  // A media query ('(prefers-color-scheme: dark)').
  '^\\([a-z-]+: [a-z0-9-]+\\)$',
  '^(https?|file|data|mailto|ui):',
  '^Berth$',
];
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
  // SCREAMING_CASE constants are wire values and keys (in components; see MODULE_TEXT_RULES).
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
  // A WebSocket's close reason goes to the other end's log, never to the screen.
  '*.close',
  // A refusal answered to an MCP App as a JSON-RPC error: protocol text for the app, as `new Error` is for a developer.
  'AppRequestRefused',
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

/**
 * The same for the renderer's .ts modules (stores, models, the transport), but a SCREAMING_CASE
 * constant is no exemption there: modules keep sentences in such constants (`CONNECTION_LOST_MESSAGE`).
 * @type {import('eslint').Linter.RulesRecord}
 */
export const MODULE_TEXT_RULES = {
  'lingui/no-unlocalized-strings': [
    'error',
    {
      ignore: NOT_UI_TEXT,
      ignoreNames: NOT_UI_NAMES.filter((name) => typeof name === 'string' || name.regex.pattern !== '^[A-Z0-9_]+$'),
      ignoreFunctions: NOT_UI_CALLS,
    },
  ],
};

/** A failure's `message` is the host's English: a view shows `failureText(failure)` / `<HostMessageText>`, which word its code. */
const HOST_ENGLISH_SHOWN = [
  {
    selector:
      ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > MemberExpression[property.name="message"][object.name=/^(result|answer|failure|refusal|outcome)$/]',
    message:
      "A failure's message is the host's English: show failureText(failure) or <HostMessageText> (renderer/i18n/host-message.tsx).",
  },
  {
    selector:
      'CallExpression[callee.name=/^set[A-Z]/] > MemberExpression[property.name="message"][object.name=/^(result|answer|failure|refusal|outcome)$/]',
    message:
      'Keep the Failure in state, not its English message: word it with failureText() when it is shown, so a language switch re-words it.',
  },
  {
    // Anywhere inside the setter's argument: `setNote({ text: t(…) })` and `setState((s) => ({ …s, error: failureText(r) }))` too.
    selector:
      'CallExpression[callee.name=/^set[A-Z]/] CallExpression[callee.name=/^(t|translate|failureText|hostText|wordsText)$/]',
    message:
      'Words kept in state stay in the language they were worded in: keep a Words (words(), failureWords(), verbatim() in renderer/i18n/words.ts) or the Failure, and word it as it renders.',
  },
];

/**
 * Views allowed to show a failure's bare message: none any more (issue 36). Kept as the one place an exception
 * would have to be written, with its reason.
 * @type {string[]}
 */
export const HOST_ENGLISH_ALLOWED = [];

/**
 * The views' rules: the attribute check of LOCALIZED_TEXT_RULES (a later `no-restricted-syntax` replaces an
 * earlier one, so both travel together) and no host English shown as it is.
 * @type {import('eslint').Linter.RulesRecord}
 */
export const VIEW_TEXT_RULES = {
  'no-restricted-syntax': [...LOCALIZED_TEXT_RULES['no-restricted-syntax'], ...HOST_ENGLISH_SHOWN],
};
