import type { HostOffer, HostOfferContext, HostTool, HostToolProvider } from './host-tool';
import { hostToolNameProblem } from './host-tool';

/** What the registry offers one conversation for one model request. */
export interface CombinedHostOffer {
  /** By name. */
  tools: ReadonlyMap<string, HostTool>;
  /** The MCP tools to send (toolKeys), when a provider narrowed them; undefined: all enabled. */
  sendOnly: ReadonlySet<string> | undefined;
}

/**
 * The host tools of every feature, asked per conversation and per request. Names are checked when
 * a provider registers (pattern, and unique across providers) and again on each offer (an offered
 * tool must be one of its provider's declared names), so a mistake shows at start-up, not as a
 * model calling the wrong tool.
 */
export class HostToolRegistry {
  private readonly providers: HostToolProvider[] = [];
  private readonly owner = new Map<string, string>();

  constructor(providers: readonly HostToolProvider[] = []) {
    for (const provider of providers) this.register(provider);
  }

  register(provider: HostToolProvider): void {
    for (const name of provider.names) {
      const problem = hostToolNameProblem(name);
      if (problem !== undefined) throw new Error(`${provider.id}: ${problem}`);
      const taken = this.owner.get(name);
      if (taken !== undefined) throw new Error(`${provider.id}: the host tool "${name}" is already ${taken}'s`);
    }
    for (const name of provider.names) this.owner.set(name, provider.id);
    this.providers.push(provider);
  }

  /** Every name a host tool may have: ToolNameMap.build keeps them out of MCP tools' API names. */
  reservedNames(): ReadonlySet<string> {
    return new Set(this.owner.keys());
  }

  offer(context: HostOfferContext): CombinedHostOffer {
    const tools = new Map<string, HostTool>();
    let sendOnly: Set<string> | undefined;
    for (const provider of this.providers) {
      const offer: HostOffer = provider.offer(context);
      for (const tool of offer.tools) {
        if (this.owner.get(tool.name) !== provider.id)
          throw new Error(`${provider.id} offered "${tool.name}", which is not one of its declared host tools`);
        tools.set(tool.name, tool);
      }
      if (offer.sendOnly !== undefined)
        sendOnly =
          sendOnly === undefined
            ? new Set(offer.sendOnly)
            : new Set([...sendOnly].filter((key) => offer.sendOnly?.has(key)));
    }
    return { tools, sendOnly };
  }
}
