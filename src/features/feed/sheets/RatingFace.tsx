/**
 * The five faces of the rating scale (spec §9: "face ratings on a scale of 5"), worst to best. Drawn in SVG:
 * emoji render as empty boxes on devices without an emoji font, and look different on every platform.
 */
export function RatingFace({ rating }: { rating: 1 | 2 | 3 | 4 | 5 }) {
  return (
    <svg className="rate-face-icon" viewBox="0 0 36 36" aria-hidden="true" focusable="false">
      <circle cx="18" cy="18" r="16" fill={FACE_FILL[rating - 1]} />
      <g fill="none" stroke="#3b1d0a" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
        {FACE_PARTS[rating - 1]}
      </g>
    </svg>
  );
}

// Cold to warm: the scale reads at a glance before the faces are told apart.
const FACE_FILL = ['#f59e8b', '#fbbf6a', '#fcd34d', '#fde047', '#facc15'] as const;

const DOT_EYES = (
  <>
    <circle cx="12.5" cy="14" r="1.6" fill="#3b1d0a" stroke="none" />
    <circle cx="23.5" cy="14" r="1.6" fill="#3b1d0a" stroke="none" />
  </>
);

const FACE_PARTS = [
  // Awful: eyes squeezed shut, a wavering grimace.
  <>
    <path d="M10 11.5l4.5 2.5-4.5 2.5M26 11.5l-4.5 2.5 4.5 2.5" />
    <path d="M11 25.5c1.8-2 3.5-2 5 0s3.5 2 5 0 3.2-2 4 0" />
  </>,
  // Bad: a frown.
  <>
    {DOT_EYES}
    <path d="M12 25.5c3.6-4 8.4-4 12 0" />
  </>,
  // Okay: a straight mouth.
  <>
    {DOT_EYES}
    <path d="M12.5 23.5h11" />
  </>,
  // Good: a smile.
  <>
    {DOT_EYES}
    <path d="M11.5 21.5c3.6 4.5 9.4 4.5 13 0" />
  </>,
  // Love it: heart eyes and a wide open smile.
  <>
    <path
      d="M12.5 16.8l-3-3a1.9 1.9 0 0 1 3-2.3 1.9 1.9 0 0 1 3 2.3z M23.5 16.8l-3-3a1.9 1.9 0 0 1 3-2.3 1.9 1.9 0 0 1 3 2.3z"
      fill="#e11d48"
      stroke="#e11d48"
      strokeWidth="1.2"
    />
    <path d="M10.5 20.5h15c-1 5.5-4 7.5-7.5 7.5s-6.5-2-7.5-7.5z" fill="#7c2d12" />
  </>,
] as const;
