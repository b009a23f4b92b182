/** A locale's compiled message catalog (scripts/i18n-catalogs.mjs serves these). */
declare module 'virtual:berth-catalog/*' {
  export const messages: import('@lingui/core').Messages;
}
