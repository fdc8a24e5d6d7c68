import { useMemo, useState } from 'react';
import type { Contest } from '../../contract';
import { ChevronRightIcon, TrophyIcon } from '../../ui/more-icons';
import { Sheet } from '../../ui/Sheet';
import { sanitizeHtml } from '../../ui/sanitize';

/** The creator's contests (spec §1 'contest banners'): a banner each, its details in a sheet. */
export function ContestBanners({ contests }: { contests: Contest[] }) {
  const [open, setOpen] = useState<Contest | null>(null);
  if (contests.length === 0) return null;
  return (
    <>
      <ul className="profile-contests" aria-label="Contests">
        {contests.map((contest) => (
          <li key={contest.id}>
            <button
              type="button"
              className="profile-contest"
              aria-haspopup="dialog"
              onClick={() => setOpen(contest)}
            >
              <span className="profile-contest-icon" aria-hidden="true">
                <TrophyIcon />
              </span>
              <span className="profile-contest-text">
                <span className="profile-contest-kicker">Contest</span>
                <span className="profile-contest-title">{contest.title}</span>
              </span>
              <ChevronRightIcon className="profile-contest-more" />
            </button>
          </li>
        ))}
      </ul>
      {open && <ContestSheet contest={open} onClose={() => setOpen(null)} />}
    </>
  );
}

/** The contest's own HTML, from the creator through the server: sanitised like the static pages. */
export function ContestSheet({ contest, onClose }: { contest: Contest; onClose: () => void }) {
  const html = useMemo(() => sanitizeHtml(contest.content), [contest.content]);
  return (
    <Sheet title={contest.title} onClose={onClose} className="contest-sheet">
      <div
        className="contest-content"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML went through sanitizeHtml (DOMPurify).
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        Close
      </button>
    </Sheet>
  );
}
