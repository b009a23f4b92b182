import type { ChatContentBlock } from '../../shared/domain/chat';

/**
 * What one model request streamed so far, for a reply that does not finish (the person stops it, the stream breaks):
 * its text and thinking as they arrived. A tool call still streaming is not kept (its input is unfinished and it
 * would have no result), nor a hidden (redacted) block, whose data only comes whole.
 */
export class PartialReply {
  private readonly blocks: Array<{ type: 'text'; text: string } | { type: 'thinking'; thinking: string }> = [];
  /** A block of another kind began since the last delta: the next delta opens a block of its own. */
  private broken = false;

  text(delta: string): void {
    const last = this.blocks.at(-1);
    if (!this.broken && last?.type === 'text') last.text += delta;
    else this.blocks.push({ type: 'text', text: delta });
    this.broken = false;
  }

  thinking(delta: string, redacted?: boolean): void {
    if (redacted === true) {
      this.broken = true;
      return;
    }
    const last = this.blocks.at(-1);
    if (!this.broken && last?.type === 'thinking') last.thinking += delta;
    else this.blocks.push({ type: 'thinking', thinking: delta });
    this.broken = false;
  }

  toolUse(): void {
    this.broken = true;
  }

  /**
   * The blocks worth keeping. Thinking goes without a signature (it never came): shown to the person, never sent
   * back to Anthropic, which would refuse it (api-messages.ts sends only signed thinking).
   */
  content(): ChatContentBlock[] {
    return this.blocks.flatMap((block): ChatContentBlock[] => {
      if (block.type === 'text') return block.text.trim() === '' ? [] : [{ type: 'text', text: block.text }];
      return block.thinking.trim() === '' ? [] : [{ type: 'thinking', thinking: block.thinking }];
    });
  }
}
