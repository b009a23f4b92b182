import { familyWords, type EnglishOf } from './host-wording';

// What Berth itself says in place of a tool call's result, when the call could not run or failed in the host, as codes
// the renderer words from renderer/i18n/locales/<locale>/tool-outcome.json. The English is the result's text, what
// the model reads. (A failure the host raised with its own code, a HostError's, travels with that code instead.)

/** The codes of Berth's own tool outcomes, each with its parameters. */
export type ToolOutcomeMessages = {
  'tool-outcome.no-such-tool': { name: string };
  'tool-outcome.could-not-ask': { detail: string };
};
export type ToolOutcomeCode = keyof ToolOutcomeMessages;

const ENGLISH: EnglishOf<ToolOutcomeMessages> = {
  'tool-outcome.no-such-tool': ({ name }) =>
    `There is no tool named "${name}" in this conversation. Use only the tools offered.`,
  'tool-outcome.could-not-ask': ({ detail }) => `Berth could not ask the user about this tool call: ${detail}`,
};

/** A tool outcome's English and its code, from the same facts. */
export const toolOutcome = familyWords<ToolOutcomeMessages>(ENGLISH);
