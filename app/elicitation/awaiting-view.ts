import type { AwaitingElicitation as AwaitingView } from '../../shared/contract/elicitation';
import type { AwaitingElicitation } from './elicitation-flow';

/** The awaiting list as the contract shows it: each entry gets an id `<server>/<elicitationId>`. */
export function awaitingView(list: AwaitingElicitation[]): AwaitingView[] {
  return list.map((entry) => ({ id: `${entry.server}/${entry.elicitationId}`, ...entry }));
}
