import type { ChatMessage, Conversation } from '../../shared/domain/chat';
import { generatedConversationId } from './conversations';

/**
 * A heavy user's 5,000 conversations for full-text search: sizes vary as real ones do (2 to 40 messages, a
 * sentence to a few paragraphs, some with tool results of a few KB), the words follow a long-tailed
 * distribution over a few thousand of them, and one in ten conversations is in Chinese or Japanese. Seeded:
 * the same options give the same conversations, fast (5,000 in well under a second).
 */
export interface SearchableConversationsOptions {
  count: number;
  seed?: number;
  /** The newest conversation's updatedAt; each older one a minute before. */
  now?: number;
}

/** Words that appear in exactly the conversations listed, so a test knows what a search must find. */
export interface PlantedWords {
  /** In the person's words of every 97th conversation. */
  rare: { word: string; ids: string[] };
  /** In a tool result of every 50th conversation (from the 7th). */
  inTool: { word: string; ids: string[] };
  /** A Chinese phrase in every 40th conversation (from the 3rd), in the model's reply. */
  cjk: { phrase: string; ids: string[] };
}

const COMMON = (
  'the of and to in is you that it for on with as are this be at have from or by not but what all were when ' +
  'can there use an each which do how their if will up other about out many then them these so some would make ' +
  'like into time has look two more write go see number no way could people than first been call who its now ' +
  'find long down day did get come made may part server tool config file model reply error token request'
).split(' ');
const SYLLABLES = 'ka ri to na mel sor vin tal ber ost lum dra fen gol hux pri sam tor eck una'.split(' ');
const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质'.split(
    '',
  );
const KANA = 'のをにはがでとてしたますですかもこれそれあるいうなっ'.split('');
const PLANTED_RARE = 'zanzibarite';
const PLANTED_TOOL = 'quuxfactor';
const PLANTED_CJK = '向量数据库';

/** Mulberry32: small, fast and good enough to make text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildSearchableConversations(options: SearchableConversationsOptions): {
  conversations: Conversation[];
  planted: PlantedWords;
} {
  const next = random(options.seed ?? 34);
  const now = options.now ?? Date.UTC(2026, 11, 1);
  // A few thousand made-up words of two to four syllables, drawn long-tailed (some often, most rarely).
  const vocabulary = Array.from({ length: 4_000 }, () => {
    let word = '';
    const syllables = 2 + Math.floor(next() * 3);
    for (let i = 0; i < syllables; i += 1) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    return word;
  });
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const longTail = (): string => vocabulary[Math.floor(vocabulary.length * next() ** 3)]!;
  const sentence = (words: number): string => {
    const parts: string[] = [];
    for (let i = 0; i < words; i += 1) parts.push(next() < 0.55 ? pick(COMMON) : longTail());
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const prose = (sentences: number): string =>
    Array.from({ length: sentences }, () => sentence(6 + Math.floor(next() * 14))).join(' ');
  const cjkProse = (characters: number): string => {
    let text = '';
    for (let i = 0; i < characters; i += 1) {
      text += next() < 0.25 ? pick(KANA) : pick(HAN);
      if (next() < 0.06) text += '。';
    }
    return text;
  };

  const planted: PlantedWords = {
    rare: { word: PLANTED_RARE, ids: [] },
    inTool: { word: PLANTED_TOOL, ids: [] },
    cjk: { phrase: PLANTED_CJK, ids: [] },
  };
  const conversations: Conversation[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const id = generatedConversationId(index);
    const cjk = index % 10 === 3;
    const updatedAt = now - index * 60_000;
    const count = 2 + 2 * Math.floor(next() ** 2 * 20);
    const messages: ChatMessage[] = [];
    for (let position = 0; position < count; position += 1) {
      const createdAt = updatedAt - (count - position) * 1_000;
      const person = position % 2 === 0;
      let text = cjk
        ? cjkProse(person ? 20 + next() * 60 : 80 + next() * 400)
        : person
          ? sentence(8 + Math.floor(next() * 20))
          : prose(2 + Math.floor(next() * 12));
      if (position === 0 && index % 97 === 0) text += ` What about ${PLANTED_RARE}?`;
      if (position === 1 && index % 40 === 3) text += ` 使用${PLANTED_CJK}存储向量。`;
      if (person) {
        messages.push({ id: `m${position}`, role: 'user', createdAt, content: [{ type: 'text', text }] });
        continue;
      }
      const toolUseId = `call-${position}`;
      const withTool = position === 1 && (index % 50 === 7 || next() < 0.2);
      if (withTool) {
        messages.push({
          id: `m${position}-call`,
          role: 'assistant',
          createdAt,
          content: [
            {
              type: 'tool_use',
              id: toolUseId,
              server: 'files',
              tool: 'read',
              apiName: 'files__read',
              input: { path: `/notes/${index}.md` },
            },
          ],
          model: 'claude-sonnet-5',
          stopReason: 'tool_use',
        });
        const body = `${prose(10 + Math.floor(next() * 30))}${index % 50 === 7 ? ` ${PLANTED_TOOL}` : ''}`;
        messages.push({
          id: `m${position}-result`,
          role: 'user',
          createdAt,
          content: [{ type: 'tool_result', toolUseId, isError: false, content: [{ type: 'text', text: body }] }],
        });
      }
      messages.push({
        id: `m${position}`,
        role: 'assistant',
        createdAt,
        content: [{ type: 'text', text }],
        model: 'claude-sonnet-5',
        stopReason: 'end_turn',
      });
    }
    if (index % 97 === 0) planted.rare.ids.push(id);
    if (index % 50 === 7) planted.inTool.ids.push(id);
    if (index % 40 === 3) planted.cjk.ids.push(id);
    const title = cjk ? cjkProse(8) : sentence(3 + Math.floor(next() * 4)).slice(0, 60);
    conversations.push({
      id,
      title,
      createdAt: updatedAt - 3_600_000,
      updatedAt,
      model: 'claude-sonnet-5',
      messages,
      disabledServers: [],
      disabledTools: [],
    });
  }
  return { conversations, planted };
}
