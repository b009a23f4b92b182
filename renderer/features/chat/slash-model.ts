import type { PromptInfo } from '../../../shared/contract/prompts';

/** The longest "/query" still treated as a search for a prompt (longer text is a message). */
const MAX_QUERY_LENGTH = 80;

/**
 * What the person is searching for when the draft is a slash command: the
 * text after a leading `/` on a single line. Undefined when the draft is an
 * ordinary message.
 */
export function slashQuery(text: string): string | undefined {
  if (!text.startsWith('/') || text.includes('\n') || text.length > MAX_QUERY_LENGTH + 1) return undefined;
  return text.slice(1);
}

/** What the menu shows as the prompt's name. */
export function promptLabel(prompt: Pick<PromptInfo, 'name' | 'title'>): string {
  return prompt.title !== undefined && prompt.title.trim() !== '' ? prompt.title : prompt.name;
}

/** A stable key for a prompt: names are unique per server only. */
export function promptKey(prompt: Pick<PromptInfo, 'server' | 'name'>): string {
  return `${prompt.server}\u0000${prompt.name}`;
}

function rank(prompt: PromptInfo, word: string): number | undefined {
  const names = [prompt.name.toLowerCase(), promptLabel(prompt).toLowerCase()];
  if (names.some((name) => name.startsWith(word))) return 0;
  if (names.some((name) => name.split(/[\s_\-./:]+/).some((part) => part.startsWith(word)))) return 1;
  if (names.some((name) => name.includes(word))) return 2;
  if (prompt.server.toLowerCase().includes(word)) return 3;
  if ((prompt.description ?? '').toLowerCase().includes(word)) return 4;
  return undefined;
}

/**
 * The prompts that match every word of the query (name and title first, then
 * server, then description), best matches first; ties keep the catalog order.
 */
export function filterPrompts(prompts: PromptInfo[], query: string): PromptInfo[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return prompts;
  const scored: { prompt: PromptInfo; score: number; index: number }[] = [];
  prompts.forEach((prompt, index) => {
    let score = 0;
    for (const word of words) {
      const wordRank = rank(prompt, word);
      if (wordRank === undefined) return;
      score += wordRank;
    }
    scored.push({ prompt, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map(({ prompt }) => prompt);
}
