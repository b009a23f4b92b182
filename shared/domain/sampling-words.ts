import { codedFamily } from './host-wording';

/**
 * Why the sampling review proposes the person's default model when the server said nothing that picks
 * another, as codes; the renderer words them from renderer/i18n/locales/<locale>/sampling-words.json.
 * Explanations built from a server's hints and priorities stay the host's English for now. `model-not-listed`
 * refuses ranking a model sampling does not list (sampling.setModelRanks).
 */
export type SamplingWordsMessages = {
  'sampling-words.no-preferences': Record<string, never>;
  'sampling-words.no-hints-or-priorities': Record<string, never>;
  'sampling-words.no-models': Record<string, never>;
  'sampling-words.model-not-listed': { model: string };
};
export type SamplingWordsCode = keyof SamplingWordsMessages;

/** A model choice's reason in English with its code (the English is what Berth always said). */
export const samplingWords = codedFamily<SamplingWordsMessages>({
  'sampling-words.no-preferences': () => 'No preferences from the server: your default model.',
  'sampling-words.no-hints-or-priorities': () => 'No hints or priorities from the server: your default model.',
  'sampling-words.no-models': () => 'No models are listed: your default model.',
  'sampling-words.model-not-listed': ({ model }) => `No model '${model}' is listed for sampling`,
});
