import type { ToolCallConsentVerdict } from '../consent/consent-broker';

// The tool calls of one running app (one card's frame, named by the renderer
// with a random instance id) under the person's consent, without burying them
// in questions: an app polling its own tool every 2 s gets one question per
// tool at a time, "allow while the card is open" covers its later calls (and
// a "deny" its later calls are refused without asking), a
// question is withdrawn when the app gives up on the call (its request timed
// out or was cancelled) or goes away (card closed, conversation left), and a
// call is never run for an app that is gone, whatever the answer.

/** The words an app gets back when its call was not made (as an isError tool result). */
export const APP_CALL_WORDS = {
  gone: 'The app is gone (its card was closed), so Berth did not make this call.',
  asking: (tool: string) =>
    `Berth is already asking the person about this app's call to '${tool}'; this call was not made. Try again after they answer.`,
  withdrawn: 'The app gave up on this call before the person answered.',
  denied: (tool: string) =>
    `The person denied this app's calls to '${tool}' while its card is open; this call was not made.`,
};

/** How many ended instances are remembered, so a late call of one is refused rather than asked. */
const REMEMBERED_GONE = 1_000;

interface Instance {
  /** Aborted when the app goes away: withdraws its questions, refuses its calls. */
  gone: AbortController;
  /** Calls waiting for an answer, by the renderer's call id. */
  calls: Map<string, AbortController>;
  /** Tools with a question open now. */
  asking: Set<string>;
  /** Tools the person allowed while the card is open, with what the tool was when they did. */
  allowed: Map<string, string>;
  /** Tools the person denied: a polling app is not asked about again until its card is reopened. */
  denied: Set<string>;
}

/** One call of an app, as the renderer names it. */
export interface AppCall {
  instance: string;
  callId: string;
  tool: string;
  /** What the tool is now (its consent facts as JSON): an allowance covers only the tool the person saw. */
  toolNow: string;
}

/** What to do with one app call: run it with these arguments, or answer the app with these words. */
export type AppCallDecision = { run: true; arguments: Record<string, unknown> } | { run: false; text: string };

export class AppCallConsent {
  private readonly instances = new Map<string, Instance>();
  private readonly ended = new Set<string>();

  /**
   * Decide one call: covered by an allowance of this instance, refused while a
   * question about the same tool is open, else `ask` (the consent broker) with
   * a signal that withdraws the question when the call or the app ends.
   */
  async decide(
    call: AppCall,
    args: Record<string, unknown>,
    ask: (signal: AbortSignal) => Promise<ToolCallConsentVerdict>,
  ): Promise<AppCallDecision> {
    if (this.ended.has(call.instance)) return { run: false, text: APP_CALL_WORDS.gone };
    const instance = this.instanceOf(call.instance);
    if (instance.denied.has(call.tool)) return { run: false, text: APP_CALL_WORDS.denied(call.tool) };
    if (instance.allowed.get(call.tool) === call.toolNow) return { run: true, arguments: args };
    if (instance.asking.has(call.tool)) return { run: false, text: APP_CALL_WORDS.asking(call.tool) };

    const own = new AbortController();
    instance.calls.get(call.callId)?.abort(APP_CALL_WORDS.withdrawn);
    instance.calls.set(call.callId, own);
    instance.asking.add(call.tool);
    let verdict: ToolCallConsentVerdict;
    try {
      verdict = await ask(AbortSignal.any([own.signal, instance.gone.signal]));
    } finally {
      instance.asking.delete(call.tool);
      if (instance.calls.get(call.callId) === own) instance.calls.delete(call.callId);
    }
    // Whatever the answer, nothing runs for an app that is gone or a call it gave up on.
    if (instance.gone.signal.aborted) return { run: false, text: APP_CALL_WORDS.gone };
    if (own.signal.aborted) return { run: false, text: APP_CALL_WORDS.withdrawn };
    if (!verdict.allowed) {
      // The person said no (not Berth withdrawing the question): the app's later calls are not asked about.
      if (verdict.decidedBy === 'person') instance.denied.add(call.tool);
      return { run: false, text: '' };
    }
    if (verdict.decision === 'allow-app-card') instance.allowed.set(call.tool, call.toolNow);
    return { run: true, arguments: verdict.arguments };
  }

  /** The app gave up on one call (its request timed out or was cancelled): its question is withdrawn. */
  cancel(instance: string, callId: string): void {
    this.instances.get(instance)?.calls.get(callId)?.abort(APP_CALL_WORDS.withdrawn);
  }

  /** The app went away: its questions are withdrawn, its allowances end, later calls are refused. */
  gone(id: string): void {
    const instance = this.instances.get(id);
    this.instances.delete(id);
    this.ended.add(id);
    if (this.ended.size > REMEMBERED_GONE) this.ended.delete(this.ended.values().next().value as string);
    instance?.gone.abort(APP_CALL_WORDS.gone);
  }

  private instanceOf(id: string): Instance {
    let instance = this.instances.get(id);
    if (instance === undefined) {
      instance = {
        gone: new AbortController(),
        calls: new Map(),
        asking: new Set(),
        allowed: new Map(),
        denied: new Set(),
      };
      this.instances.set(id, instance);
    }
    return instance;
  }
}
