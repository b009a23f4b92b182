// Types of scripts/i18n-catalogs.mjs for the configs the web typecheck reads (vite.config.ts), which does not check JS.
import type { Plugin } from 'vite';

export const LOCALES_DIR: string;
export const SOURCE_LOCALE: 'en';
export const PSEUDO_LOCALE: 'pseudo';
export function catalogLocales(dir?: string): string[];
export function readCatalogFiles(
  locale: string,
  dir?: string,
): Array<{ file: string; path: string; messages: Record<string, string> }>;
export function readCatalog(locale: string, dir?: string): Record<string, string>;
export function pseudoText(text: string): string;
export function compileCatalog(
  messages: Record<string, string>,
  options?: { pseudo?: boolean },
): Record<string, unknown>;
export function berthCatalogs(dir?: string): Plugin;
