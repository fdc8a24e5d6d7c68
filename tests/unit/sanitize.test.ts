import './happy-dom-dompurify';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../src/ui/sanitize';

function parse(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = sanitizeHtml(html);
  return container;
}

describe('sanitizeHtml', () => {
  it('removes script tags and their content', () => {
    const out = sanitizeHtml('<p>Hello</p><script>alert(1)</script>');
    expect(out).not.toMatch(/script/i);
    expect(out).not.toContain('alert');
    expect(out).toContain('<p>Hello</p>');
  });

  it('removes event handler attributes', () => {
    const root = parse('<img src="/x.png" onerror="alert(1)"><p onclick="steal()">Text</p>');
    expect(root.innerHTML).not.toMatch(/onerror|onclick|alert|steal/);
    expect(root.querySelector('img')?.getAttribute('src')).toBe('/x.png');
  });

  it('removes javascript: links', () => {
    const root = parse('<a href="javascript:alert(1)">Click</a>');
    expect(root.innerHTML).not.toMatch(/javascript:/i);
    expect(root.querySelector('a')?.textContent).toBe('Click');
  });

  it('removes style, iframe and form elements', () => {
    // happy-dom logs a NotSupportedError for the parsed iframe it will not load: expected, not a failure.
    const out = sanitizeHtml(
      '<style>body{display:none}</style><iframe src="https://evil.example"></iframe><form action="/x"><input></form><p>ok</p>',
    );
    expect(out).not.toMatch(/<style|<iframe|<form|<input/i);
    expect(out).toContain('<p>ok</p>');
  });

  it('keeps safe markup', () => {
    const root = parse(
      '<h2>Terms</h2><p>Read <strong>this</strong> and <a href="/page/policy">the policy</a>.</p>',
    );
    expect(root.querySelector('h2')?.textContent).toBe('Terms');
    expect(root.querySelector('p strong')?.textContent).toBe('this');
    const link = root.querySelector('a');
    expect(link?.getAttribute('href')).toBe('/page/policy');
    // Internal links stay in the app.
    expect(link?.hasAttribute('target')).toBe(false);
  });

  it('opens external links in a new tab without an opener', () => {
    const link = parse('<a href="https://example.org/help">Help</a>').querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.org/help');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toContain('noopener');
  });
});
