/** Said once the link is on the clipboard (the feed's share and the profile's). */
export const LINK_COPIED = 'Link copied';

/**
 * Shares a link through Web Share where the platform has it (the phone's own share sheet), else puts it on
 * the clipboard. What to tell the viewer comes back: nothing once the share sheet was used or closed.
 */
export async function shareLink(title: string, url: string): Promise<string | null> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return null;
    } catch (error) {
      // The viewer closed the share sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return null;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return LINK_COPIED;
  } catch {
    return `Copy this link: ${url}`;
  }
}
