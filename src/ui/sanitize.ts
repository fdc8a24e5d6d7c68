import DOMPurify from 'dompurify';

// Hooks are global to the DOMPurify instance, so this one is registered once, when the module loads.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A' || !node.hasAttribute('href')) return;
  const href = node.getAttribute('href') ?? '';
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return;
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== window.location.origin) {
    // Outbound links must not take the installed app away, nor hand it to the opened page.
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Server-provided HTML (static pages, contest texts) made safe to inject: no scripts, styles, frames, forms or
 * event handlers, no javascript: URLs.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: [
      'script',
      'style',
      'iframe',
      'frame',
      'frameset',
      'object',
      'embed',
      'form',
      'input',
      'button',
    ],
    FORBID_ATTR: ['style', 'formaction'],
  });
}
