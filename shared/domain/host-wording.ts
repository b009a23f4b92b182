import { MAX_CAUSE_DEPTH, type HostMessage } from './host-message';

/** The parameters of each code of a family of host messages: facts only (a model id, seconds, a status). */
export type FamilyParams = Record<string, Record<string, string | number>>;

/** A code of a family with its parameters, typed together. */
export type Wording<M extends FamilyParams> = {
  [C in keyof M & string]: { code: C; params: M[C] };
}[keyof M & string];

/** The English of each code, made from the same parameters the renderer words the code with. */
export type EnglishOf<M extends FamilyParams> = { [C in keyof M & string]: (params: M[C]) => string };

/** A host message's English text and its coded twin, as the bridge's failures carry them (`hostMessage` beside `message`). */
export interface CodedText {
  text: string;
  hostMessage: HostMessage;
}

/**
 * A reason inside another message (a crash inside "gave up after 3 restarts: …"): its English is the outer
 * message's `reason` param, and its code, when it has one, the outer message's `cause`, which the renderer words.
 */
export interface InnerReason {
  text: string;
  hostMessage?: HostMessage | undefined;
}

/** A message's parameters: facts (a name, a path, a number), never words. */
export type MessageParams = Record<string, string | number>;

/** Each code of a family with the English it reads as, from the same parameters. */
export type EnglishWords<M extends FamilyParams> = EnglishOf<M>;

/**
 * The one maker of host words: `make(code, params)` gives a family's English and its code from the same
 * facts, so the English and what the renderer shows for the code never drift apart. A fact too long for a
 * message is cut in the code's params; the English keeps it whole. `cause` is the code of the reason the
 * params hold as `reason` (InnerReason). familyWords and codedFamily are its two shapes.
 */
export function hostWords<M extends FamilyParams>(english: EnglishOf<M>) {
  return <C extends keyof M & string>(
    code: C,
    params: M[C],
    cause?: HostMessage,
  ): CodedText & { hostMessage: { code: C; params: M[C] } } => ({
    text: english[code](params),
    hostMessage: {
      code,
      params: withinLimits(params) as M[C],
      ...(cause === undefined ? {} : { cause: withinDepth(cause, MAX_CAUSE_DEPTH - 1) }),
    },
  });
}

// A cause deeper than a message may hold loses its innermost code; the `reason` param keeps its English.
function withinDepth(message: HostMessage, causes: number): HostMessage {
  if (message.cause === undefined) return message;
  if (causes === 0) return { code: message.code, ...(message.params === undefined ? {} : { params: message.params }) };
  return { ...message, cause: withinDepth(message.cause, causes - 1) };
}

/** A host message as the host sends it: its English (`text`, what a model is told and the fallback) and its code. */
export interface Worded {
  text: string;
  message: HostMessage;
}

/** hostWords for the families that travel in events and saved messages: a code without facts has no `params`. */
export function familyWords<M extends FamilyParams>(
  english: EnglishOf<M>,
): <C extends keyof M & string>(code: C, params: M[C], cause?: HostMessage) => Worded {
  const make = hostWords(english);
  return (code, params, cause) => {
    const { text, hostMessage } = make(code, params, cause);
    return { text, message: Object.keys(params).length === 0 && cause === undefined ? { code } : hostMessage };
  };
}

/** The longest string param HostMessageSchema takes: a saved conversation holding a longer one would not load. */
export const MAX_PARAM_CHARS = 8_000;

// A fact longer than a message can hold (a server's whole stack trace as `detail`) is cut; the English keeps it whole.
function withinLimits(params: Record<string, string | number>): Record<string, string | number> {
  const long = Object.values(params).some((value) => typeof value === 'string' && value.length > MAX_PARAM_CHARS);
  if (!long) return params;
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'string' && value.length > MAX_PARAM_CHARS ? `${value.slice(0, MAX_PARAM_CHARS - 1)}…` : value,
    ]),
  );
}

/** hostWords for the families whose callers hand the code on as a failure's `hostMessage` (params always there). */
export function codedFamily<M extends FamilyParams>(english: EnglishWords<M>) {
  return hostWords(english);
}
