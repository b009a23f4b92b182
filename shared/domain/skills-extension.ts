// The skills extension's id and how a server declares it, with no schema library: the composer
// (first screen) asks this of the server states it already has.

/** The extension's id (SEP-2640, final since 2026-09). */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** Whether capabilities a server sent at initialize declare the skills extension. */
export function declaresSkillsExtension(capabilities: Readonly<Record<string, unknown>> | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && SKILLS_EXTENSION_ID in extensions;
}
