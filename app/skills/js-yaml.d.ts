// js-yaml 4 ships no types; Berth uses one function of it (skill frontmatter).
declare module 'js-yaml' {
  /** Parses one YAML document (the default, JSON-compatible schema). Throws YAMLException on bad YAML. */
  export function load(text: string, options?: { schema?: unknown; json?: boolean; filename?: string }): unknown;
  export const JSON_SCHEMA: unknown;
}
