/**
 * Markdown to sanitised HTML (loaded on demand: only a markdown asset needs it). marked renders,
 * DOMPurify keeps the HTML profile minus forms, styles and embedded content; links open in a new
 * tab without a referrer, and images other than data: URLs become their alt text (the page's CSP
 * would refuse them: a shared document reaches nothing on the network).
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!/^data:image\/(png|jpeg|gif|webp);/i.test(src)) {
        const alt = node.getAttribute('alt') || 'image';
        node.replaceWith(node.ownerDocument.createTextNode(`[${alt}]`));
      }
    }
  });
}

export function markdownHtml(text: string): string {
  hook();
  const html = marked.parse(text, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'video', 'audio', 'source', 'picture'],
    FORBID_ATTR: ['style', 'srcset'],
  });
}
