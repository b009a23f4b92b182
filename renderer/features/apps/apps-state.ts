import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useBerthStore, type BerthStore } from '../../store';

/** A message an app proposed (`ui/message`): shown above the composer, sent only by the person. */
export interface MessageProposal {
  id: number;
  conversationId: string;
  /** The card it came from; a newer proposal of the same card replaces the older one. */
  toolUseId: string;
  server: string;
  tool: string;
  text: string;
}

interface AppsState {
  proposals: MessageProposal[];
  propose(proposal: Omit<MessageProposal, 'id'>): void;
  dropProposal(id: number): void;
}

/** At most this many proposals wait per conversation (the oldest go first). */
const MAX_PROPOSALS = 5;
let nextProposalId = 1;

/**
 * State the apps feature shares between cards and the composer, kept in its
 * own small store (one per Berth store) so none of it weighs on the first
 * screen: it loads with the apps chunk.
 */
const storesByBerth = new WeakMap<BerthStore, StoreApi<AppsState>>();

export function appsStoreFor(berth: BerthStore): StoreApi<AppsState> {
  let store = storesByBerth.get(berth);
  if (!store) {
    store = createStore<AppsState>()((set) => ({
      proposals: [],
      propose(proposal) {
        set((s) => {
          const others = s.proposals.filter(
            (p) => !(p.conversationId === proposal.conversationId && p.toolUseId === proposal.toolUseId),
          );
          const next = [...others, { ...proposal, id: nextProposalId++ }];
          const mine = next.filter((p) => p.conversationId === proposal.conversationId);
          const over = mine.length - MAX_PROPOSALS;
          return { proposals: over > 0 ? next.filter((p) => !mine.slice(0, over).includes(p)) : next };
        });
      },
      dropProposal(id) {
        set((s) => ({ proposals: s.proposals.filter((p) => p.id !== id) }));
      },
    }));
    storesByBerth.set(berth, store);
  }
  return store;
}

export function useAppsState<T>(selector: (state: AppsState) => T): T {
  return useStore(appsStoreFor(useBerthStore()), selector);
}

/** The last height each card's app had, so a card scrolled back into view (or a reopened conversation) keeps its size and the list does not jump. */
const heights = new Map<string, number>();
const MAX_HEIGHTS = 500;

export function rememberedHeight(key: string): number | undefined {
  return heights.get(key);
}

export function rememberHeight(key: string, height: number): void {
  heights.delete(key);
  heights.set(key, height);
  if (heights.size > MAX_HEIGHTS) heights.delete(heights.keys().next().value!);
}
