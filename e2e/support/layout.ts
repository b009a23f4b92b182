import type { Locator, Page } from '@playwright/test';

// The layout checks of the localized runs (issue 36): longer words (the pseudo-locale's 40%, German-like) and CJK
// text must wrap or be cut with an ellipsis the person can read in full, never spill out of their box or be clipped.

/**
 * What the person reads as one label (buttons, chips, badges, nav items, headings, dialog titles, table heads), and
 * the boxes that hold rows of them (tab rows, dialogs, the server list's and the chat's cards).
 */
export const LABEL_SELECTOR =
  'button, .chip, .badge, .nav-item, .nav-count, h1, h2, h3, .dialog-title, th, legend, label, [role="status"], ' +
  '[role="tablist"], [role="dialog"], [role="alertdialog"], article, .server-card';

/**
 * The elements under `scope` (the whole page, or one section) matching `selector` whose text is cut off or spills
 * out of their box, described as `tag.class: "text"`; and the scope itself when it is wider than its box. Text cut
 * with an ellipsis is fine where a title gives it whole; screen-reader-only text is clipped to a pixel on purpose.
 */
export async function overflowing(scope: Page | Locator, selector = LABEL_SELECTOR): Promise<string[]> {
  const root = 'goto' in scope ? scope.locator('body') : scope;
  return root.evaluate((box, labels) => {
    // Text for screen readers only (ours is .sr-only; Radix's announcements sit in a 1-pixel box that hides its overflow).
    const forScreenReaders = (el: HTMLElement): boolean => {
      for (let node: HTMLElement | null = el; node !== null; node = node.parentElement) {
        const rect = node.getBoundingClientRect();
        if (rect.width <= 1 && rect.height <= 1 && getComputedStyle(node).overflow === 'hidden') return true;
      }
      return el.closest('.sr-only') !== null;
    };
    const cut = [...box.querySelectorAll<HTMLElement>(labels)]
      .filter((el) => el.offsetParent !== null && !forScreenReaders(el))
      .filter((el) => {
        const style = getComputedStyle(el);
        if (style.textOverflow === 'ellipsis' && el.closest('[title]') !== null) return false;
        const wide = el.scrollWidth > el.clientWidth + 1;
        const clipped = /hidden|clip/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
        return wide || clipped;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: "${el.textContent?.trim() ?? ''}"`);
    return box.scrollWidth > box.clientWidth + 1 ? [...cut, `${box.tagName.toLowerCase()}: ${box.scrollWidth}px`] : cut;
  }, selector);
}

/**
 * Sentences laid out as flex items: a flex box whose own text sits beside inline markup (a name in `<bdi>`, a
 * `<strong>`), so the gap splits the sentence ("for “ everything ” this session"). Translations move those parts
 * around, so the sentence must be one inline run: wrap it in a span. (A label beside a `<code>` value is not one.)
 */
export async function splitSentences(app: Page): Promise<string[]> {
  return app.evaluate(() =>
    [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.checkVisibility() && /flex/.test(getComputedStyle(el).display))
      .filter(
        (el) =>
          [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) &&
          [...el.children].some((child) => /^(BDI|STRONG|EM|B|I|A)$/.test(child.tagName)),
      )
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: "${el.textContent?.trim() ?? ''}"`),
  );
}
