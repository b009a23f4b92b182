import type { AppModelContext } from '../../../shared/domain/app-ui';

/** Longest chip text; the whole context is in its tooltip. */
const CHIP_CHARS = 60;

/** The text of what an app added to the model's context, as one line. */
export function contextText(context: Pick<AppModelContext, 'content' | 'structuredContent'>): string {
  const texts = context.content.flatMap((block) => (block.type === 'text' ? [block.text] : [`[${block.type}]`]));
  if (context.structuredContent !== undefined) texts.push(JSON.stringify(context.structuredContent));
  return texts.join(' ').replace(/\s+/g, ' ').trim();
}

/** What the chip above the composer says. */
export function contextChipLabel(context: AppModelContext): string {
  const text = contextText(context);
  return text.length > CHIP_CHARS ? `${text.slice(0, CHIP_CHARS - 1)}…` : text === '' ? '(empty)' : text;
}

/** A conversation's contexts, one per card, oldest first: apps with empty content added nothing. */
export function shownContexts(contexts: readonly AppModelContext[], conversationId: string): AppModelContext[] {
  return contexts
    .filter((c) => c.conversationId === conversationId && (c.content.length > 0 || c.structuredContent !== undefined))
    .sort((a, b) => a.updatedAt - b.updatedAt);
}
