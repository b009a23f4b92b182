import { describe, expect, it } from 'vitest';
import { samplingWords } from './sampling-words';

describe("the sampling review's reasons for the default model: a code, and the English Berth always said", () => {
  it('gives the sentence and its code from the same place', () => {
    expect(samplingWords('sampling-words.no-preferences', {})).toEqual({
      text: 'No preferences from the server: your default model.',
      hostMessage: { code: 'sampling-words.no-preferences', params: {} },
    });
    expect(samplingWords('sampling-words.no-models', {}).text).toBe('No models are listed: your default model.');
  });
});
