import type { HostMessage } from './host-message';

/** A host message's English text and its coded twin, made together by its family's module so they never drift. */
export interface CodedText {
  text: string;
  hostMessage: HostMessage;
}

/** A message's parameters: facts (a name, a path, a number), never words. */
export type MessageParams = Record<string, string | number>;

/** Each code of a family with the English it reads as, from the same parameters. */
export type EnglishWords<M extends Record<string, MessageParams>> = {
  readonly [C in keyof M]: (params: M[C]) => string;
};

/**
 * The maker of a family of host messages: `words(code, params)` gives the English and the code with
 * its params together. The renderer's catalog file of the family words each code in the person's language.
 */
export function codedFamily<M extends Record<string, MessageParams>>(english: EnglishWords<M>) {
  return <C extends keyof M & string>(
    code: C,
    params: M[C],
  ): CodedText & { hostMessage: { code: C; params: M[C] } } => ({
    text: english[code](params),
    hostMessage: { code, params },
  });
}
