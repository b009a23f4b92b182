// Local reasoning models (DeepSeek-R1, QwQ, Qwen3 through Ollama, LM Studio, vLLM without a reasoning
// parser) write their reasoning into the content itself, as `<think>…</think>` before the answer.
// ThinkTagSplitter takes the content deltas as they stream and hands the reasoning and the answer
// apart, holding back only the few characters that could still be part of a tag.

const OPEN = '<think>';
const CLOSE = '</think>';

/** The longest tail of `text` that is the start of `tag` (what must wait for the next delta). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1)
    if (tag.startsWith(text.slice(text.length - length))) return length;
  return 0;
}

export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'answer' = 'start';
  private held = '';
  /** Whitespace right after `</think>` is dropped (models put a blank line there). */
  private trimNext = false;

  constructor(
    private readonly onThinking: (delta: string) => void,
    private readonly onText: (delta: string) => void,
  ) {}

  add(delta: string): void {
    let rest = this.held + delta;
    this.held = '';
    while (rest !== '') {
      if (this.state === 'start') {
        const trimmed = rest.trimStart();
        if (trimmed.startsWith(OPEN)) {
          this.state = 'thinking';
          rest = trimmed.slice(OPEN.length);
        } else if (OPEN.startsWith(trimmed)) {
          // Only the start of `<think>` (or whitespace) so far: wait for more.
          this.held = rest;
          return;
        } else {
          // Reasoning is only recognised at the very start: a `<think>` later on is the answer's own text.
          this.state = 'answer';
        }
      } else if (this.state === 'thinking') {
        const end = rest.indexOf(CLOSE);
        if (end === -1) {
          const hold = partialTagAtEnd(rest, CLOSE);
          this.emitThinking(rest.slice(0, rest.length - hold));
          this.held = rest.slice(rest.length - hold);
          return;
        }
        this.emitThinking(rest.slice(0, end));
        this.state = 'answer';
        this.trimNext = true;
        rest = rest.slice(end + CLOSE.length);
      } else {
        if (this.trimNext) {
          rest = rest.trimStart();
          if (rest === '') return;
          this.trimNext = false;
        }
        this.onText(rest);
        return;
      }
    }
  }

  /** The stream ended: what was held back is what it was (an unclosed `<think>` is all reasoning). */
  finish(): void {
    const rest = this.held;
    this.held = '';
    if (rest === '') return;
    if (this.state === 'thinking') this.emitThinking(rest);
    else if (rest.trim() !== '' || this.state === 'answer') this.onText(rest);
  }

  private emitThinking(text: string): void {
    if (text !== '') this.onThinking(text);
  }
}
