import { codedFamily } from './host-wording';

/**
 * Why a skill the person asked for could not be loaded, as codes with their facts; the renderer words them
 * from renderer/i18n/locales/<locale>/skills-errors.json. `name` is the skill's qualified name, `uri` its
 * resource; `detail` the server's own words, or why Berth refused the server's entry or file (English).
 * The model is told the same English in its tool result.
 */
export type SkillsErrorMessages = {
  'skills-errors.no-skill': { server: string; uri: string };
  'skills-errors.refused': { name: string; detail: string };
  'skills-errors.declined': { name: string };
  'skills-errors.no-skill-md': { name: string };
  'skills-errors.file-failed': { server: string; uri: string; name: string; detail: string };
  'skills-errors.file-empty': { server: string; uri: string; name: string };
  'skills-errors.unverified': { detail: string };
};
export type SkillsErrorCode = keyof SkillsErrorMessages;

/** A skill not loaded, in English with its code (the English is what Berth always said). */
export const skillsError = codedFamily<SkillsErrorMessages>({
  'skills-errors.no-skill': ({ server, uri }) =>
    `server '${server}' offers no skill at ${uri} (its skills may have changed: see the current list)`,
  'skills-errors.refused': ({ name, detail }) => `Berth refuses skill '${name}': ${detail}`,
  'skills-errors.declined': ({ name }) => `the person declined to load skill '${name}'`,
  'skills-errors.no-skill-md': ({ name }) => `skill '${name}' lists no SKILL.md`,
  'skills-errors.file-failed': ({ server, uri, name, detail }) =>
    `server '${server}' could not send ${uri} of skill '${name}': ${detail}`,
  'skills-errors.file-empty': ({ server, uri, name }) =>
    `server '${server}' sent no content for ${uri} of skill '${name}'`,
  'skills-errors.unverified': ({ detail }) =>
    `${detail}. Berth did not use it; if the skill changed on the server, it will ask for approval again.`,
});
