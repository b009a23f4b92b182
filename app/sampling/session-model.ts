import type { CandidateModel } from './candidate-models';
import type { ModelSelection } from './model-selection';

/**
 * The model that answers a server's requests after the person chose "allow
 * for this session": the model they picked in that review, else their default
 * model — never the server's own preference, which may name the most
 * expensive model for every request nobody reviews.
 */
export class SessionModels {
  private readonly picked = new Map<string, string>();

  /** `model` is the person's pick in the review; undefined when they kept what Berth proposed. */
  remember(server: string, model: string | undefined): void {
    if (model === undefined) this.picked.delete(server);
    else this.picked.set(server, model);
  }

  forget(server: string): void {
    this.picked.delete(server);
  }

  /** The person's pick while it is still configured; otherwise the default model. */
  modelFor(server: string, models: readonly CandidateModel[], defaultModel: string): ModelSelection {
    const pick = this.picked.get(server);
    const listed = pick !== undefined ? models.find((m) => m.key === pick) : undefined;
    if (listed !== undefined)
      return { model: listed.key, explanation: `Allowed for this session with ${listed.label}, the model you picked.` };
    return { model: defaultModel, explanation: `Allowed for this session with your default model ${defaultModel}.` };
  }
}
